// ViennaCL (Debian's libviennacl-dev, header-only, OpenCL backend), unmodified: a dense matrix
// product, a sparse (CSR) matrix-vector product, reductions, and the conjugate-gradient solver in
// single and double precision, each against a CPU reference. ViennaCL generates and builds its
// OpenCL kernels at run time; it is handed the context the check chose, so the platform choice
// is the same as every other check's.
#define VIENNACL_WITH_OPENCL
#include <viennacl/compressed_matrix.hpp>
#include <viennacl/linalg/cg.hpp>
#include <viennacl/linalg/inner_prod.hpp>
#include <viennacl/linalg/norm_2.hpp>
#include <viennacl/linalg/prod.hpp>
#include <viennacl/linalg/sum.hpp>
#include <viennacl/matrix.hpp>
#include <viennacl/vector.hpp>

#include <map>

#include "library_check.h"

using namespace library_check;

namespace {

/// C = A B for row-major A (m x k) and B (k x n), on the device and on the CPU.
void check_dense_product(Checks& checks, size_t m, size_t n, size_t k) {
  auto a = random_values<float>(m * k, 61), b = random_values<float>(k * n, 62);
  viennacl::matrix<float> da(m, k), db(k, n), dc(m, n);
  std::vector<std::vector<float>> ha(m, std::vector<float>(k)), hb(k, std::vector<float>(n)), hc;
  for (size_t i = 0; i < m; ++i)
    for (size_t p = 0; p < k; ++p) ha[i][p] = a[i * k + p];
  for (size_t p = 0; p < k; ++p)
    for (size_t j = 0; j < n; ++j) hb[p][j] = b[p * n + j];
  viennacl::copy(ha, da);
  viennacl::copy(hb, db);
  dc = viennacl::linalg::prod(da, db);
  hc.assign(m, std::vector<float>(n));
  viennacl::copy(dc, hc);
  std::vector<float> got;
  std::vector<double> want;
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < n; ++j) {
      double s = 0;
      for (size_t p = 0; p < k; ++p) s += double(ha[i][p]) * hb[p][j];
      want.push_back(s);
      got.push_back(hc[i][j]);
    }
  checks.expect("dense_prod_" + std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k),
                max_error(got, want), 1e-5 * std::sqrt(double(k)));
}

/// The 2-D Poisson matrix on a g x g grid (5-point stencil), symmetric positive definite.
std::vector<std::map<unsigned, double>> poisson(size_t g) {
  std::vector<std::map<unsigned, double>> rows(g * g);
  for (size_t y = 0; y < g; ++y)
    for (size_t x = 0; x < g; ++x) {
      auto& r = rows[y * g + x];
      r[unsigned(y * g + x)] = 4.0;
      if (x > 0) r[unsigned(y * g + x - 1)] = -1.0;
      if (x + 1 < g) r[unsigned(y * g + x + 1)] = -1.0;
      if (y > 0) r[unsigned((y - 1) * g + x)] = -1.0;
      if (y + 1 < g) r[unsigned((y + 1) * g + x)] = -1.0;
    }
  return rows;
}

/// `rows` in precision T as a ViennaCL CSR matrix on the device.
template <typename T>
viennacl::compressed_matrix<T> on_device(const std::vector<std::map<unsigned, double>>& rows) {
  std::vector<std::map<unsigned, T>> typed(rows.size());
  for (size_t i = 0; i < rows.size(); ++i)
    for (auto [c, v] : rows[i]) typed[i][c] = T(v);
  viennacl::compressed_matrix<T> a(rows.size(), rows.size());
  viennacl::copy(typed, a);
  return a;
}

/// y = A x for the sparse Poisson matrix, then dot, 2-norm and sum of y, in precision T.
template <typename T>
void check_sparse_and_reductions(Checks& checks, size_t g) {
  const std::string p = sizeof(T) == 4 ? "float" : "double";
  auto rows = poisson(g);
  auto hx = random_values<T>(rows.size(), 71);
  viennacl::compressed_matrix<T> a = on_device<T>(rows);
  viennacl::vector<T> x(rows.size()), y(rows.size());
  viennacl::copy(hx, x);
  y = viennacl::linalg::prod(a, x);
  std::vector<T> hy(rows.size());
  viennacl::copy(y, hy);
  std::vector<double> want(rows.size());
  double dot = 0, sq = 0, sum = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    for (auto [c, v] : rows[i]) want[i] += v * hx[c];
    dot += double(hx[i]) * want[i], sq += want[i] * want[i], sum += want[i];
  }
  const double eps = sizeof(T) == 4 ? 1e-6 : 1e-14;
  checks.expect("csr_prod_" + p + "_" + std::to_string(g) + "x" + std::to_string(g), max_error(hy, want), 4 * eps);
  const double n = std::sqrt(double(rows.size()));
  checks.expect("inner_prod_" + p, max_error(std::vector<T>{viennacl::linalg::inner_prod(x, y)}, std::vector<double>{dot}),
                eps * n);
  checks.expect("norm_2_" + p, max_error(std::vector<T>{viennacl::linalg::norm_2(y)}, std::vector<double>{std::sqrt(sq)}),
                eps * n);
  checks.expect("sum_" + p, max_error(std::vector<T>{viennacl::linalg::sum(y)}, std::vector<double>{sum}), eps * n);
}

/// Solves A x = b with ViennaCL's conjugate gradient for the Poisson matrix and checks the
/// residual ||b - A x|| / ||b|| on the CPU in double.
template <typename T>
void check_cg(Checks& checks, size_t g) {
  const std::string p = sizeof(T) == 4 ? "float" : "double";
  auto rows = poisson(g);
  auto hb = random_values<T>(rows.size(), 81);
  viennacl::compressed_matrix<T> a = on_device<T>(rows);
  viennacl::vector<T> b(rows.size());
  viennacl::copy(hb, b);
  const double tol = sizeof(T) == 4 ? 1e-5 : 1e-10;
  viennacl::linalg::cg_tag tag(tol, 1000);
  viennacl::vector<T> x = viennacl::linalg::solve(a, b, tag);
  std::vector<T> hx(rows.size());
  viennacl::copy(x, hx);
  double r2 = 0, b2 = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    double ax = 0;
    for (auto [c, v] : rows[i]) ax += v * hx[c];
    r2 += (hb[i] - ax) * (hb[i] - ax), b2 += double(hb[i]) * hb[i];
  }
  std::printf("cg_%s: %zu iterations, estimated relative residual %.3g\n", p.c_str(), size_t(tag.iters()), tag.error());
  // The solver stops at `tol` on its own recurrence; the true residual may drift a little above.
  checks.expect("cg_" + p + "_" + std::to_string(g) + "x" + std::to_string(g), std::sqrt(r2 / b2), 10 * tol);
}

}  // namespace

int main() {
  Checks checks;
  try {
    Cl cl;
    viennacl::ocl::setup_context(0, cl.context, cl.device, cl.queue);
    check_dense_product(checks, 96, 80, 64);
    check_sparse_and_reductions<float>(checks, 32);
    check_sparse_and_reductions<double>(checks, 32);
    check_cg<float>(checks, 24);
    check_cg<double>(checks, 24);
    viennacl::backend::finish();
  } catch (const std::exception& e) {
    checks.fail("setup", e.what());
  }
  return checks.exit_code();
}
