// Shared helpers of the library checks: programs that call a real OpenCL library from Debian,
// unmodified, and compare what it computes with a CPU reference. They run on any OpenCL platform
// (strobe under `strobe run --`, or PoCL): the platform is the first the ICD loader lists, or the
// first whose name contains $CL_TEST_PLATFORM. Each check prints one line,
//   check NAME: ok|FAILED max_err=E tol=T
// and the program exits 0 only if every check passed.
#ifndef STROBE_LIBRARY_CHECK_H
#define STROBE_LIBRARY_CHECK_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace library_check {

/// Throws with the call and its OpenCL error code when `err` is not CL_SUCCESS.
inline void cl_ok(cl_int err, const char* what) {
  if (err != CL_SUCCESS) throw std::runtime_error(std::string(what) + " failed: OpenCL error " + std::to_string(err));
}

/// The chosen platform's first device, with a context and an in-order queue.
struct Cl {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;

  /// Opens the chosen platform's first device with a queue of the given properties.
  explicit Cl(cl_command_queue_properties props = 0) {
    cl_uint n = 0;
    cl_ok(clGetPlatformIDs(0, nullptr, &n), "clGetPlatformIDs");
    if (n == 0) throw std::runtime_error("no OpenCL platform");
    std::vector<cl_platform_id> ps(n);
    cl_ok(clGetPlatformIDs(n, ps.data(), nullptr), "clGetPlatformIDs");
    platform = ps[0];
    if (const char* want = std::getenv("CL_TEST_PLATFORM")) {
      for (cl_platform_id p : ps) {
        char name[256] = {};
        cl_ok(clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name, name, nullptr), "clGetPlatformInfo");
        if (std::strstr(name, want)) platform = p;
      }
    }
    cl_ok(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr), "clGetDeviceIDs");
    cl_int err = CL_SUCCESS;
    context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    cl_ok(err, "clCreateContext");
    queue = clCreateCommandQueue(context, device, props, &err);
    cl_ok(err, "clCreateCommandQueue");
  }
  ~Cl() {
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
  }
  Cl(const Cl&) = delete;
  Cl& operator=(const Cl&) = delete;

  /// A device buffer holding a copy of `host`.
  template <typename T>
  cl_mem upload(const std::vector<T>& host) {
    cl_int err = CL_SUCCESS;
    cl_mem m = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, host.size() * sizeof(T),
                              const_cast<T*>(host.data()), &err);
    cl_ok(err, "clCreateBuffer");
    return m;
  }
  /// The first `n` elements of `m`, read after everything queued has finished.
  template <typename T>
  std::vector<T> download(cl_mem m, size_t n) {
    std::vector<T> out(n);
    cl_ok(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, n * sizeof(T), out.data(), 0, nullptr, nullptr),
          "clEnqueueReadBuffer");
    return out;
  }
};

/// `n` values uniform in [-1, 1) from a fixed seed, so every run checks the same inputs.
template <typename T>
std::vector<T> random_values(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<T> v(n);
  for (T& x : v) x = static_cast<T>(u(rng));
  return v;
}

/// The largest |got - want| over the elements, relative to the largest |want| (at least 1), so
/// one tolerance serves results of any magnitude.
template <typename T, typename U>
double max_error(const std::vector<T>& got, const std::vector<U>& want) {
  if (got.size() != want.size()) return INFINITY;
  double scale = 1.0, worst = 0.0;
  for (const U& w : want) scale = std::max(scale, std::fabs(static_cast<double>(w)));
  for (size_t i = 0; i < got.size(); ++i) {
    double d = std::fabs(static_cast<double>(got[i]) - static_cast<double>(want[i]));
    if (!(d == d)) return INFINITY;  // NaN
    worst = std::max(worst, d);
  }
  return worst / scale;
}

/// Collects the checks' verdicts and prints one line per check.
class Checks {
 public:
  /// Records check `name`: it passes when `err` is at most `tol`.
  void expect(const std::string& name, double err, double tol) {
    bool ok = err <= tol;
    if (!ok) ++failed_;
    ++run_;
    std::printf("check %s: %s max_err=%.3g tol=%.3g\n", name.c_str(), ok ? "ok" : "FAILED", err, tol);
    std::fflush(stdout);
  }
  /// Records a check that failed before it produced a result.
  void fail(const std::string& name, const std::string& why) {
    ++failed_;
    ++run_;
    std::printf("check %s: FAILED %s\n", name.c_str(), why.c_str());
    std::fflush(stdout);
  }
  /// 0 when every check passed, 1 otherwise, after a summary line.
  int exit_code() const {
    std::printf("%d of %d checks passed\n", run_ - failed_, run_);
    return failed_ == 0 && run_ > 0 ? 0 : 1;
  }

 private:
  int run_ = 0, failed_ = 0;
};

}  // namespace library_check

#endif
