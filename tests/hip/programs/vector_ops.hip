// Element-wise kernels over ragged sizes: grids that are not a multiple of the block, one
// element, and a size just past a power of two.
#include "check.h"

#include <vector>

__global__ void saxpy(float a, const float* x, const float* y, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}

__global__ void scale_offset(int* v, int n, int mul, int add) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) v[i] = v[i] * mul + add;
}

int main() {
  Mismatches m;
  for (int n : {1, 63, 1000, 4097}) {
    std::vector<float> x(n), y(n), out(n);
    for (int i = 0; i < n; ++i) x[i] = 0.5f * i, y[i] = 3.0f - i;
    float *dx, *dy, *dout;
    CHECK(hipMalloc(&dx, n * sizeof(float)));
    CHECK(hipMalloc(&dy, n * sizeof(float)));
    CHECK(hipMalloc(&dout, n * sizeof(float)));
    CHECK(hipMemcpy(dx, x.data(), n * sizeof(float), hipMemcpyHostToDevice));
    CHECK(hipMemcpy(dy, y.data(), n * sizeof(float), hipMemcpyHostToDevice));
    hipLaunchKernelGGL(saxpy, dim3((n + 127) / 128), dim3(128), 0, 0, 2.0f, dx, dy, dout, n);
    CHECK(hipGetLastError());
    CHECK(hipMemcpy(out.data(), dout, n * sizeof(float), hipMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) m.expect(out[i] == 2.0f * x[i] + y[i], "saxpy", i, out[i], 2.0f * x[i] + y[i]);
    CHECK(hipFree(dx));
    CHECK(hipFree(dy));
    CHECK(hipFree(dout));
  }
  // A grid-stride loop with fewer threads than elements.
  const int n = 3001;
  std::vector<int> v(n);
  for (int i = 0; i < n; ++i) v[i] = i - 1500;
  int* dv;
  CHECK(hipMalloc(&dv, n * sizeof(int)));
  CHECK(hipMemcpy(dv, v.data(), n * sizeof(int), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(scale_offset, dim3(3), dim3(100), 0, 0, dv, n, 3, -7);
  std::vector<int> got(n);
  CHECK(hipMemcpy(got.data(), dv, n * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) m.expect(got[i] == v[i] * 3 - 7, "scale_offset", i, got[i], v[i] * 3 - 7);
  CHECK(hipFree(dv));
  return m.finish();
}
