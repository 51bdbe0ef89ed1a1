// The transformer's double-precision CPU reference.
#include "workloads/dnn/transformer_reference.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace strobe::workloads::dnn::reference {

Rows layernorm(const Rows& x, uint32_t c, const std::vector<float>& g, const std::vector<float>& b) {
  Rows y(x.size());
  for (size_t r = 0; r < x.size() / c; ++r) {
    const double* xr = &x[r * c];
    double mean = 0, var = 0;
    for (uint32_t i = 0; i < c; ++i) mean += xr[i];
    mean /= c;
    for (uint32_t i = 0; i < c; ++i) var += (xr[i] - mean) * (xr[i] - mean);
    const double inv = 1.0 / std::sqrt(var / c + 1e-5);
    for (uint32_t i = 0; i < c; ++i) y[r * c + i] = (xr[i] - mean) * inv * g[i] + b[i];
  }
  return y;
}

Rows linear(const Rows& x, uint32_t k, const std::vector<float>& w, const std::vector<float>& b, uint32_t n) {
  const size_t m = x.size() / k;
  Rows y(m * n);
  for (size_t r = 0; r < m; ++r) {
    double* yr = &y[r * n];
    for (uint32_t j = 0; j < n; ++j) yr[j] = b[j];
    for (uint32_t i = 0; i < k; ++i) {
      const double xv = x[r * k + i];
      const float* wr = &w[size_t(i) * n];
      for (uint32_t j = 0; j < n; ++j) yr[j] += xv * wr[j];
    }
  }
  return y;
}

void gelu(Rows& x, bool exact) {
  for (double& v : x)
    v = exact ? 0.5 * v * (1 + std::erf(v / std::sqrt(2.0)))
              : 0.5 * v * (1 + std::tanh(std::sqrt(2.0 / M_PI) * (v + 0.044715 * v * v * v)));
}

void add(Rows& a, const Rows& b) {
  for (size_t i = 0; i < a.size(); ++i) a[i] += b[i];
}

Rows attention(const Rows& q, size_t q_off, const Rows& k, size_t k_off, const Rows& v, size_t v_off, uint32_t stride_q,
               uint32_t stride_kv, uint32_t queries, uint32_t keys, uint32_t heads, uint32_t hd, uint32_t pos0,
               bool causal) {
  const uint32_t c = heads * hd;
  Rows out(size_t(queries) * c, 0.0);
  std::vector<double> p(keys);
  const double scale = 1.0 / std::sqrt(double(hd));
  for (uint32_t h = 0; h < heads; ++h)
    for (uint32_t t = 0; t < queries; ++t) {
      const uint32_t seen = causal ? std::min(keys, pos0 + t + 1) : keys;
      double m = -std::numeric_limits<double>::infinity();
      for (uint32_t j = 0; j < seen; ++j) {
        double acc = 0;
        for (uint32_t d = 0; d < hd; ++d)
          acc += q[q_off + size_t(t) * stride_q + h * hd + d] * k[k_off + size_t(j) * stride_kv + h * hd + d];
        p[j] = acc * scale;
        m = std::max(m, p[j]);
      }
      double sum = 0;
      for (uint32_t j = 0; j < seen; ++j) sum += (p[j] = std::exp(p[j] - m));
      for (uint32_t j = 0; j < seen; ++j) {
        const double pj = p[j] / sum;
        for (uint32_t d = 0; d < hd; ++d) out[size_t(t) * c + h * hd + d] += pj * v[v_off + size_t(j) * stride_kv + h * hd + d];
      }
    }
  return out;
}

}  // namespace strobe::workloads::dnn::reference
