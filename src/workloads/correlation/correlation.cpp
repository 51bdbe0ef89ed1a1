// correlation: PolyBench/GPU correlation, the Pearson correlation matrix of a data matrix's columns.
#include <cmath>
#include <string>
#include <vector>

#include "workloads/benchmark.h"
#include "workloads/context.h"
#include "workloads/rng.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

/// correlation's parameters, bound to their declarations in STROBE_BENCHMARK below.
struct CorrelationParams {
  int64_t m = 0, n = 0;
};

/// Four launches: column means, standard deviations (clamped to 1 at most eps), the data centred
/// and normalised in place, then the correlation of every column pair (upper triangle, mirrored).
class Correlation : public Benchmark {
 public:
  explicit Correlation(const CorrelationParams& p) : m_(uint32_t(p.m)), n_(uint32_t(p.n)) {}

  void setup(Context& ctx) override {
    // Columns share a row factor with their own loading, so correlations spread over (-1, 1);
    // every eighth column is scaled down to a standard deviation far below eps, so that the
    // clamp is exercised, while the others stay far above it.
    Rng rng(47);
    std::vector<float> factor(n_), load(m_);
    for (auto& f : factor) f = rng.uniform(-1, 1);
    for (auto& l : load) l = rng.uniform(-1, 1);
    data_.resize(size_t(n_) * m_);
    for (uint32_t i = 0; i < n_; ++i)
      for (uint32_t j = 0; j < m_; ++j) {
        float scale = j % 8 == 7 ? 0.01f : 1.0f;
        data_[size_t(i) * m_ + j] = scale * (rng.uniform(-1, 1) + load[j] * factor[i]);
      }
    ddata_ = ctx.upload(data_), dmean_ = ctx.alloc<float>(m_), dstd_ = ctx.alloc<float>(m_);
    dsym_ = ctx.alloc<float>(size_t(m_) * m_);
    kmean_ = ctx.kernel("correlation", "corr_mean"), kstd_ = ctx.kernel("correlation", "corr_std");
    kreduce_ = ctx.kernel("correlation", "corr_reduce"), kcorr_ = ctx.kernel("correlation", "corr_corr");
    ctx.expect_launches(4);
  }

  void run(Context& ctx) override {
    // PolyBench/GPU's geometry: 256-wide groups over columns, 32x8 groups over the data matrix.
    float float_n = float(n_);
    ctx.launch(kmean_, {round_up(m_, 256), 1, 1}, {256, 1, 1},
               {buf(ddata_), buf(dmean_), val(m_), val(n_), val(float_n)});
    ctx.launch(kstd_, {round_up(m_, 256), 1, 1}, {256, 1, 1},
               {buf(ddata_), buf(dmean_), buf(dstd_), val(m_), val(n_), val(float_n), val(kEps)});
    ctx.launch(kreduce_, {round_up(m_, 32), round_up(n_, 8), 1}, {32, 8, 1},
               {buf(ddata_), buf(dmean_), buf(dstd_), val(m_), val(n_), val(float_n)});
    ctx.launch(kcorr_, {round_up(m_, 256), 1, 1}, {256, 1, 1}, {buf(ddata_), buf(dsym_), val(m_), val(n_)});
  }

  void verify(Context& ctx) override {
    // Each launch is checked in double against the device's own inputs to it (checked first), so
    // each bound covers one launch's rounding. A division may be off by 2.5 ulp (5 u; OpenCL's
    // default, which the compiler's reciprocal-based division uses); sqrt is correctly rounded (u).
    std::vector<float> mean = ctx.download<float>(dmean_, m_), sd = ctx.download<float>(dstd_, m_);
    std::vector<double> ref(m_), bound(m_);
    // Means: a sum of n values (n - 1 additions) then the division: gamma(n + 4) * sum |x| / n.
    for (uint32_t j = 0; j < m_; ++j) {
      double s = 0, mag = 0;
      for (uint32_t i = 0; i < n_; ++i) s += x(i, j), mag += std::fabs(x(i, j));
      ref[j] = s / n_, bound[j] = float_rounding_bound(n_ + 4) * mag / n_;
    }
    expect_within("mean", mean, ref, bound);
    // Deviations: n non-negative squares, each rounded thrice (difference, square, sum) and the
    // sum n - 1 times, then the division (5 u); sqrt halves that and adds u: gamma((n + 9) / 2).
    for (uint32_t j = 0; j < m_; ++j) {
      double ss = 0;
      for (uint32_t i = 0; i < n_; ++i) ss += (x(i, j) - mean[j]) * (x(i, j) - mean[j]);
      double s = std::sqrt(ss / n_), b = float_rounding_bound((n_ + 9) / 2.0) * s;
      bool clamp = s <= kEps;
      if (std::fabs(s - kEps) <= b) clamp = sd[j] == 1.0f;  // within rounding of eps: either side is right
      ref[j] = clamp ? 1.0 : s, bound[j] = clamp ? 0.0 : b;
    }
    expect_within("stddev", sd, ref, bound);
    // Normalised data: difference, sqrt(n), product (u each) and the division (5 u): gamma(8).
    std::vector<float> z = ctx.download<float>(ddata_, data_.size());
    std::vector<double> zref(z.size()), zbound(z.size());
    for (uint32_t i = 0; i < n_; ++i)
      for (uint32_t j = 0; j < m_; ++j) {
        size_t e = size_t(i) * m_ + j;
        zref[e] = (x(i, j) - mean[j]) / (std::sqrt(double(n_)) * sd[j]);
        zbound[e] = float_rounding_bound(8) * std::fabs(zref[e]);
      }
    expect_within("data", z, zref, zbound);
    check_correlations(ctx.download<float>(dsym_, size_t(m_) * m_), z);
  }

 private:
  /// The input element at row i, column j, widened.
  double x(uint32_t i, uint32_t j) const { return data_[size_t(i) * m_ + j]; }

  /// Checks the matrix against the dot products of the device's normalised columns: n products
  /// summed in order, gamma(n) * sum |terms|; exactly 1 on the diagonal and exactly symmetric.
  void check_correlations(const std::vector<float>& sym, const std::vector<float>& z) const {
    std::vector<double> col(z.size()), ref(sym.size(), 1.0), bound(sym.size(), 0.0);
    for (uint32_t i = 0; i < n_; ++i)  // column-major, so the pair loops below run through memory
      for (uint32_t j = 0; j < m_; ++j) col[size_t(j) * n_ + i] = z[size_t(i) * m_ + j];
    for (uint32_t j1 = 0; j1 < m_; ++j1)
      for (uint32_t j2 = j1 + 1; j2 < m_; ++j2) {
        const double *c1 = &col[size_t(j1) * n_], *c2 = &col[size_t(j2) * n_];
        double s = 0, mag = 0;
        for (uint32_t i = 0; i < n_; ++i) s += c1[i] * c2[i], mag += std::fabs(c1[i] * c2[i]);
        ref[size_t(j1) * m_ + j2] = ref[size_t(j2) * m_ + j1] = s;
        bound[size_t(j1) * m_ + j2] = bound[size_t(j2) * m_ + j1] = float_rounding_bound(n_) * mag;
      }
    expect_within("symmat", sym, ref, bound);
    std::vector<float> mirror(sym.size());
    for (uint32_t j1 = 0; j1 < m_; ++j1)
      for (uint32_t j2 = 0; j2 < m_; ++j2) mirror[size_t(j2) * m_ + j1] = sym[size_t(j1) * m_ + j2];
    expect_equal("symmat (transposed)", mirror, sym);
  }

  static constexpr float kEps = 0.1f;  // PolyBench's clamp threshold
  uint32_t m_, n_;
  std::vector<float> data_;
  uint64_t ddata_ = 0, dmean_ = 0, dstd_ = 0, dsym_ = 0;
  Kernel kmean_, kstd_, kreduce_, kcorr_;
};

}  // namespace

STROBE_BENCHMARK(Correlation, "correlation",
                 "PolyBench correlation matrix: column means, deviations, normalisation, then column-pair dot products",
                 {int_param(STROBE_FIELD(CorrelationParams, m), 1024, 1, 8192, "columns (variables)").with_small(70),
                  int_param(STROBE_FIELD(CorrelationParams, n), 1024, 1, 16384, "rows (observations)").with_small(50)});

}  // namespace strobe::workloads
