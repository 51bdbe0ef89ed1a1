// Device math from the ROCm device libraries (ocml): single and double precision, checked
// against the host's libm within a few ulps.
#include "check.h"

#include <vector>

__global__ void math_f32(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = sinf(x[i]) + expf(x[i] * 0.1f) + powf(x[i] + 1.0f, 0.75f) + sqrtf(x[i]);
}

__global__ void math_f64(const double* x, double* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = log(x[i] + 1.0) * cos(x[i]) + tanh(x[i] * 0.01);
}

int main() {
  Mismatches m;
  const int n = 777;
  std::vector<float> x(n), out(n);
  std::vector<double> xd(n), outd(n);
  for (int i = 0; i < n; ++i) x[i] = 0.013f * i, xd[i] = 0.021 * i;
  float *dx, *dout;
  double *dxd, *doutd;
  CHECK(hipMalloc(&dx, n * sizeof(float)));
  CHECK(hipMalloc(&dout, n * sizeof(float)));
  CHECK(hipMalloc(&dxd, n * sizeof(double)));
  CHECK(hipMalloc(&doutd, n * sizeof(double)));
  CHECK(hipMemcpy(dx, x.data(), n * sizeof(float), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(dxd, xd.data(), n * sizeof(double), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(math_f32, dim3((n + 63) / 64), dim3(64), 0, 0, dx, dout, n);
  hipLaunchKernelGGL(math_f64, dim3((n + 63) / 64), dim3(64), 0, 0, dxd, doutd, n);
  CHECK(hipMemcpy(out.data(), dout, n * sizeof(float), hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(outd.data(), doutd, n * sizeof(double), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    const double want = std::sin(double(x[i])) + std::exp(double(x[i]) * 0.1) + std::pow(double(x[i]) + 1.0, 0.75) +
                        std::sqrt(double(x[i]));
    m.expect(std::fabs(out[i] - want) <= 1e-5 * (1 + std::fabs(want)), "f32 math", i, out[i], want);
    const double wantd = std::log(xd[i] + 1.0) * std::cos(xd[i]) + std::tanh(xd[i] * 0.01);
    m.expect(std::fabs(outd[i] - wantd) <= 1e-13 * (1 + std::fabs(wantd)), "f64 math", i, outd[i], wantd);
  }
  return m.finish();
}
