// clFFT (Debian's libclfft-dev), unmodified: complex 1-D transforms at a power of two and at a
// mixed radix (1000 = 2^3 5^3), a batched 1-D transform, 2-D complex, real-to-complex, the
// inverse as a round trip, and double precision, each against a DFT computed in double on the CPU.
#include <clFFT.h>

#include <complex>

#include "library_check.h"

using namespace library_check;
using cplx = std::complex<double>;

namespace {

/// Throws naming the call when clFFT did not succeed.
void fft_ok(clfftStatus s, const char* what) {
  if (s != CLFFT_SUCCESS) throw std::runtime_error(std::string(what) + " returned clFFT status " + std::to_string(s));
}

/// The forward DFT of `n` points of `in` read with stride `stride`: a direct sum over a twiddle
/// table, exact enough to judge a single-precision FFT.
std::vector<cplx> dft(const cplx* in, size_t n, size_t stride = 1) {
  std::vector<cplx> w(n), out(n);
  for (size_t k = 0; k < n; ++k) w[k] = std::polar(1.0, -2.0 * M_PI * double(k) / double(n));
  for (size_t k = 0; k < n; ++k) {
    cplx s = 0;
    for (size_t j = 0; j < n; ++j) s += in[j * stride] * w[(j * k) % n];
    out[k] = s;
  }
  return out;
}

/// Interleaved (re, im) values of type T as complex doubles.
template <typename T>
std::vector<cplx> to_complex(const std::vector<T>& v) {
  std::vector<cplx> c(v.size() / 2);
  for (size_t i = 0; i < c.size(); ++i) c[i] = {double(v[2 * i]), double(v[2 * i + 1])};
  return c;
}

/// Complex doubles as interleaved (re, im) doubles, for max_error.
std::vector<double> interleave(const std::vector<cplx>& c) {
  std::vector<double> v(2 * c.size());
  for (size_t i = 0; i < c.size(); ++i) v[2 * i] = c[i].real(), v[2 * i + 1] = c[i].imag();
  return v;
}

/// A baked in-place complex plan of the given lengths, precision and batch.
clfftPlanHandle complex_plan(Cl& cl, clfftDim dim, std::vector<size_t> lengths, clfftPrecision precision,
                             size_t batch = 1) {
  clfftPlanHandle plan;
  fft_ok(clfftCreateDefaultPlan(&plan, cl.context, dim, lengths.data()), "clfftCreateDefaultPlan");
  fft_ok(clfftSetPlanPrecision(plan, precision), "clfftSetPlanPrecision");
  fft_ok(clfftSetLayout(plan, CLFFT_COMPLEX_INTERLEAVED, CLFFT_COMPLEX_INTERLEAVED), "clfftSetLayout");
  fft_ok(clfftSetResultLocation(plan, CLFFT_INPLACE), "clfftSetResultLocation");
  fft_ok(clfftSetPlanBatchSize(plan, batch), "clfftSetPlanBatchSize");
  if (batch > 1) {
    size_t points = 1;
    for (size_t l : lengths) points *= l;
    fft_ok(clfftSetPlanDistance(plan, points, points), "clfftSetPlanDistance");
  }
  fft_ok(clfftBakePlan(plan, 1, &cl.queue, nullptr, nullptr), "clfftBakePlan");
  return plan;
}

/// Runs `plan` in place on `buf` in direction `dir` and waits for it.
void transform(Cl& cl, clfftPlanHandle plan, clfftDirection dir, cl_mem buf) {
  fft_ok(clfftEnqueueTransform(plan, dir, 1, &cl.queue, 0, nullptr, nullptr, &buf, nullptr, nullptr),
         "clfftEnqueueTransform");
  cl_ok(clFinish(cl.queue), "clFinish");
}

/// A 1-D complex forward transform of `batch` signals of n points, in precision T.
template <typename T>
void check_1d(Cl& cl, Checks& checks, size_t n, size_t batch, unsigned seed) {
  auto in = random_values<T>(2 * n * batch, seed);
  auto x = to_complex(in);
  std::vector<cplx> want;
  for (size_t b = 0; b < batch; ++b) {
    auto y = dft(x.data() + b * n, n);
    want.insert(want.end(), y.begin(), y.end());
  }
  cl_mem buf = cl.upload(in);
  clfftPlanHandle plan = complex_plan(cl, CLFFT_1D, {n}, sizeof(T) == 4 ? CLFFT_SINGLE : CLFFT_DOUBLE, batch);
  transform(cl, plan, CLFFT_FORWARD, buf);
  // Relative to the largest output (~sqrt(n)); float's error grows as log2(n) roundings.
  const double tol = sizeof(T) == 4 ? 2e-6 : 1e-14;
  checks.expect(std::string(sizeof(T) == 4 ? "c2c" : "z2z") + "_1d_" + std::to_string(n) +
                    (batch > 1 ? "_batch" + std::to_string(batch) : ""),
                max_error(cl.download<T>(buf, 2 * n * batch), interleave(want)), tol);
  fft_ok(clfftDestroyPlan(&plan), "clfftDestroyPlan");
  clReleaseMemObject(buf);
}

/// A 2-D complex forward transform of an n0 x n1 array (n0 fastest), then its inverse.
void check_2d_and_inverse(Cl& cl, Checks& checks, size_t n0, size_t n1) {
  auto in = random_values<float>(2 * n0 * n1, 41);
  auto x = to_complex(in);
  std::vector<cplx> rows(n0 * n1), want(n0 * n1);
  for (size_t r = 0; r < n1; ++r) {
    auto y = dft(x.data() + r * n0, n0);
    std::copy(y.begin(), y.end(), rows.begin() + r * n0);
  }
  for (size_t c = 0; c < n0; ++c) {
    auto y = dft(rows.data() + c, n1, n0);
    for (size_t r = 0; r < n1; ++r) want[r * n0 + c] = y[r];
  }
  cl_mem buf = cl.upload(in);
  clfftPlanHandle plan = complex_plan(cl, CLFFT_2D, {n0, n1}, CLFFT_SINGLE);
  transform(cl, plan, CLFFT_FORWARD, buf);
  const std::string shape = std::to_string(n0) + "x" + std::to_string(n1);
  checks.expect("c2c_2d_" + shape, max_error(cl.download<float>(buf, 2 * n0 * n1), interleave(want)), 2e-6);
  // The backward transform scales by 1/(n0 n1) by default, so it returns the input.
  transform(cl, plan, CLFFT_BACKWARD, buf);
  checks.expect("c2c_2d_" + shape + "_round_trip", max_error(cl.download<float>(buf, 2 * n0 * n1), in), 2e-6);
  fft_ok(clfftDestroyPlan(&plan), "clfftDestroyPlan");
  clReleaseMemObject(buf);
}

/// A real-to-complex 1-D transform, out of place: n reals in, n/2+1 complex values out.
void check_r2c(Cl& cl, Checks& checks, size_t n) {
  auto in = random_values<float>(n, 51);
  std::vector<cplx> x(in.begin(), in.end());
  auto full = dft(x.data(), n);
  full.resize(n / 2 + 1);
  cl_mem din = cl.upload(in), dout = cl.upload(std::vector<float>(2 * (n / 2 + 1), 0.0f));
  clfftPlanHandle plan;
  size_t len = n;
  fft_ok(clfftCreateDefaultPlan(&plan, cl.context, CLFFT_1D, &len), "clfftCreateDefaultPlan");
  fft_ok(clfftSetPlanPrecision(plan, CLFFT_SINGLE), "clfftSetPlanPrecision");
  fft_ok(clfftSetLayout(plan, CLFFT_REAL, CLFFT_HERMITIAN_INTERLEAVED), "clfftSetLayout");
  fft_ok(clfftSetResultLocation(plan, CLFFT_OUTOFPLACE), "clfftSetResultLocation");
  fft_ok(clfftBakePlan(plan, 1, &cl.queue, nullptr, nullptr), "clfftBakePlan");
  fft_ok(clfftEnqueueTransform(plan, CLFFT_FORWARD, 1, &cl.queue, 0, nullptr, nullptr, &din, &dout, nullptr),
         "clfftEnqueueTransform");
  cl_ok(clFinish(cl.queue), "clFinish");
  checks.expect("r2c_1d_" + std::to_string(n), max_error(cl.download<float>(dout, 2 * (n / 2 + 1)), interleave(full)),
                2e-6);
  fft_ok(clfftDestroyPlan(&plan), "clfftDestroyPlan");
  clReleaseMemObject(din);
  clReleaseMemObject(dout);
}

}  // namespace

int main() {
  Checks checks;
  try {
    Cl cl;
    clfftSetupData setup;
    fft_ok(clfftInitSetupData(&setup), "clfftInitSetupData");
    fft_ok(clfftSetup(&setup), "clfftSetup");
    check_1d<float>(cl, checks, 4096, 1, 1);
    check_1d<float>(cl, checks, 1000, 1, 2);
    check_1d<float>(cl, checks, 256, 8, 3);
    check_1d<double>(cl, checks, 512, 1, 4);
    check_2d_and_inverse(cl, checks, 64, 64);
    check_r2c(cl, checks, 1024);
    fft_ok(clfftTeardown(), "clfftTeardown");
  } catch (const std::exception& e) {
    checks.fail("setup", e.what());
  }
  return checks.exit_code();
}
