// CLBlast (Debian's libclblast-dev), unmodified: GEMM in single and double precision at several
// shapes and transpositions, GEMV both ways, AXPY, DOT, NRM2 and TRSM, each against a CPU
// reference computed in double. CLBlast builds its kernels from OpenCL C at run time, tuned per
// device name; for an unknown device (strobe) it uses its default parameters.
#include <clblast_c.h>

#include "library_check.h"

using namespace library_check;

namespace {

/// Throws naming the routine when CLBlast did not succeed.
void blast_ok(CLBlastStatusCode s, const char* what) {
  if (s != CLBlastSuccess) throw std::runtime_error(std::string(what) + " returned CLBlast status " + std::to_string(s));
}

/// Element (r, c) of a row-major matrix with leading dimension `ld`, read as transposed or not.
template <typename T>
double at(const std::vector<T>& m, size_t ld, bool trans, size_t r, size_t c) {
  return trans ? m[c * ld + r] : m[r * ld + c];
}

/// C = alpha * op(A) * op(B) + beta * C for row-major A (m x k), B (k x n), C (m x n).
template <typename T>
void check_gemm(Cl& cl, Checks& checks, size_t m, size_t n, size_t k, bool ta, bool tb, unsigned seed) {
  const std::string name = std::string(sizeof(T) == 4 ? "sgemm" : "dgemm") + "_" + std::to_string(m) + "x" +
                           std::to_string(n) + "x" + std::to_string(k) + (ta ? "_At" : "") + (tb ? "_Bt" : "");
  const size_t lda = ta ? m : k, ldb = tb ? k : n, ldc = n;
  auto a = random_values<T>(m * k, seed), b = random_values<T>(k * n, seed + 1), c = random_values<T>(m * n, seed + 2);
  const T alpha = T(1.5), beta = T(-0.5);
  std::vector<double> want(m * n);
  for (size_t i = 0; i < m; ++i)
    for (size_t j = 0; j < n; ++j) {
      double s = 0;
      for (size_t p = 0; p < k; ++p) s += at(a, lda, ta, i, p) * at(b, ldb, tb, p, j);
      want[i * n + j] = alpha * s + beta * c[i * n + j];
    }
  cl_mem da = cl.upload(a), db = cl.upload(b), dc = cl.upload(c);
  const CLBlastTranspose opa = ta ? CLBlastTransposeYes : CLBlastTransposeNo;
  const CLBlastTranspose opb = tb ? CLBlastTransposeYes : CLBlastTransposeNo;
  if constexpr (sizeof(T) == 4)
    blast_ok(CLBlastSgemm(CLBlastLayoutRowMajor, opa, opb, m, n, k, alpha, da, 0, lda, db, 0, ldb, beta, dc, 0, ldc,
                          &cl.queue, nullptr),
             "CLBlastSgemm");
  else
    blast_ok(CLBlastDgemm(CLBlastLayoutRowMajor, opa, opb, m, n, k, alpha, da, 0, lda, db, 0, ldb, beta, dc, 0, ldc,
                          &cl.queue, nullptr),
             "CLBlastDgemm");
  // A k-term dot product in float carries about sqrt(k) roundings of 2^-24 each.
  const double tol = sizeof(T) == 4 ? 1e-5 * std::sqrt(double(k)) : 1e-13 * std::sqrt(double(k));
  checks.expect(name, max_error(cl.download<T>(dc, m * n), want), tol);
  for (cl_mem x : {da, db, dc}) clReleaseMemObject(x);
}

/// y = alpha * op(A) * x + beta * y for a row-major m x n matrix.
void check_sgemv(Cl& cl, Checks& checks, size_t m, size_t n, bool trans) {
  const size_t xs = trans ? m : n, ys = trans ? n : m;
  auto a = random_values<float>(m * n, 11), x = random_values<float>(xs, 12), y = random_values<float>(ys, 13);
  std::vector<double> want(ys);
  for (size_t i = 0; i < ys; ++i) {
    double s = 0;
    for (size_t p = 0; p < xs; ++p) s += at(a, n, trans, i, p) * x[p];
    want[i] = 2.0 * s + 0.25 * y[i];
  }
  cl_mem da = cl.upload(a), dx = cl.upload(x), dy = cl.upload(y);
  blast_ok(CLBlastSgemv(CLBlastLayoutRowMajor, trans ? CLBlastTransposeYes : CLBlastTransposeNo, m, n, 2.0f, da, 0, n,
                        dx, 0, 1, 0.25f, dy, 0, 1, &cl.queue, nullptr),
           "CLBlastSgemv");
  checks.expect(std::string("sgemv_") + std::to_string(m) + "x" + std::to_string(n) + (trans ? "_At" : ""),
                max_error(cl.download<float>(dy, ys), want), 1e-5 * std::sqrt(double(xs)));
  for (cl_mem b : {da, dx, dy}) clReleaseMemObject(b);
}

/// y = alpha * x + y, then dot(x, y) and nrm2(x), with strided access for AXPY.
void check_level1(Cl& cl, Checks& checks, size_t n) {
  auto x = random_values<float>(2 * n, 21), y = random_values<float>(n, 22);
  std::vector<double> want(n);
  for (size_t i = 0; i < n; ++i) want[i] = 0.75 * x[2 * i] + y[i];
  cl_mem dx = cl.upload(x), dy = cl.upload(y);
  blast_ok(CLBlastSaxpy(n, 0.75f, dx, 0, 2, dy, 0, 1, &cl.queue, nullptr), "CLBlastSaxpy");
  auto got = cl.download<float>(dy, n);
  checks.expect("saxpy_" + std::to_string(n) + "_incx2", max_error(got, want), 1e-6);

  double dot = 0, nrm = 0;
  for (size_t i = 0; i < n; ++i) dot += double(x[i]) * got[i], nrm += double(x[i]) * x[i];
  std::vector<float> zero(1, 0.0f);
  cl_mem dr = cl.upload(zero);
  blast_ok(CLBlastSdot(n, dr, 0, dx, 0, 1, dy, 0, 1, &cl.queue, nullptr), "CLBlastSdot");
  checks.expect("sdot_" + std::to_string(n), max_error(cl.download<float>(dr, 1), std::vector<double>{dot}),
                1e-6 * std::sqrt(double(n)));
  blast_ok(CLBlastSnrm2(n, dr, 0, dx, 0, 1, &cl.queue, nullptr), "CLBlastSnrm2");
  checks.expect("snrm2_" + std::to_string(n),
                max_error(cl.download<float>(dr, 1), std::vector<double>{std::sqrt(nrm)}), 1e-6 * std::sqrt(double(n)));
  for (cl_mem b : {dx, dy, dr}) clReleaseMemObject(b);
}

/// Solves op(A) X = alpha B for X with A lower triangular (m x m, well conditioned), B m x n.
void check_strsm(Cl& cl, Checks& checks, size_t m, size_t n) {
  auto a = random_values<float>(m * m, 31), b = random_values<float>(m * n, 32);
  for (size_t i = 0; i < m; ++i) {
    for (size_t j = i + 1; j < m; ++j) a[i * m + j] = 0.0f;
    a[i * m + i] = 4.0f + std::fabs(a[i * m + i]);  // diagonally dominant enough to keep X bounded
    for (size_t j = 0; j < i; ++j) a[i * m + j] *= 2.0f / float(m);
  }
  const double alpha = 2.0;
  std::vector<double> x(m * n);
  for (size_t j = 0; j < n; ++j)
    for (size_t i = 0; i < m; ++i) {  // forward substitution
      double s = alpha * b[i * n + j];
      for (size_t p = 0; p < i; ++p) s -= a[i * m + p] * x[p * n + j];
      x[i * n + j] = s / a[i * m + i];
    }
  cl_mem da = cl.upload(a), db = cl.upload(b);
  blast_ok(CLBlastStrsm(CLBlastLayoutRowMajor, CLBlastSideLeft, CLBlastTriangleLower, CLBlastTransposeNo,
                        CLBlastDiagonalNonUnit, m, n, float(alpha), da, 0, m, db, 0, n, &cl.queue, nullptr),
           "CLBlastStrsm");
  checks.expect("strsm_left_lower_" + std::to_string(m) + "x" + std::to_string(n),
                max_error(cl.download<float>(db, m * n), x), 1e-5);
  clReleaseMemObject(da);
  clReleaseMemObject(db);
}

/// One SGEMM of n x n x n, checked, then run again and timed by its profiling event. In column-major
/// order with no transposition, CLBlast's last kernel is the GEMM itself (before it, at most a
/// transposition of A), and the event it returns is that kernel's.
void time_sgemm(Cl& cl, Checks& checks, size_t n) {
  check_gemm<float>(cl, checks, n, n, n, false, false, 7);
  auto a = random_values<float>(n * n, 8);
  cl_mem da = cl.upload(a), db = cl.upload(a), dc = cl.upload(a);
  cl_event ev = nullptr;
  blast_ok(CLBlastSgemm(CLBlastLayoutColMajor, CLBlastTransposeNo, CLBlastTransposeNo, n, n, n, 1.0f, da, 0, n, db, 0,
                        n, 0.0f, dc, 0, n, &cl.queue, &ev),
           "CLBlastSgemm");
  cl_ok(clWaitForEvents(1, &ev), "clWaitForEvents");
  cl_ulong start = 0, end = 0;
  cl_ok(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr), "profiling start");
  cl_ok(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr), "profiling end");
  std::printf("sgemm %zu: %.1f us, %.1f GFLOPS\n", n, (end - start) / 1e3, 2.0 * n * n * n / double(end - start));
  clReleaseEvent(ev);
  for (cl_mem x : {da, db, dc}) clReleaseMemObject(x);
}

}  // namespace

int main(int argc, char** argv) {
  Checks checks;
  try {
    // `clblast_check gemm N [N...]`: the GEMM workload, a sweep of timed SGEMMs of N^3 (sizes
    // multiples of 64); no argument: every check.
    const bool gemm = argc >= 3 && std::strcmp(argv[1], "gemm") == 0;
    if (argc > 1 && !gemm) throw std::runtime_error("usage: clblast_check [gemm N [N...]]");
    Cl cl(gemm ? CL_QUEUE_PROFILING_ENABLE : 0);
    if (gemm) {
      for (int i = 2; i < argc; ++i) {
        char* end = nullptr;
        const unsigned long n = std::strtoul(argv[i], &end, 10);
        if (*end != '\0' || n == 0 || n % 64 != 0 || n > 8192)
          throw std::runtime_error(std::string("gemm size '") + argv[i] + "' is not a multiple of 64 in [64, 8192]");
        time_sgemm(cl, checks, n);
      }
    } else {
      check_gemm<float>(cl, checks, 128, 128, 128, false, false, 1);
      check_gemm<float>(cl, checks, 100, 37, 53, false, false, 2);    // no dimension a multiple of the tile
      check_gemm<float>(cl, checks, 256, 64, 192, true, true, 3);
      check_gemm<double>(cl, checks, 64, 64, 64, false, false, 4);
      check_gemm<double>(cl, checks, 33, 65, 17, false, true, 5);
      check_sgemv(cl, checks, 300, 200, false);
      check_sgemv(cl, checks, 300, 200, true);
      check_level1(cl, checks, 10000);
      check_strsm(cl, checks, 64, 32);
    }
    if (clFinish(cl.queue) != CL_SUCCESS) checks.fail("finish", "clFinish failed");
  } catch (const std::exception& e) {
    checks.fail("setup", e.what());
  }
  return checks.exit_code();
}
