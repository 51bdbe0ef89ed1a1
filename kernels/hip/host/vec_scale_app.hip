// A whole HIP program: host code plus a kernel, linked into an executable whose device code
// lives in the .hip_fatbin section (an offload bundle), as users ship HIP applications.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <vector>

extern "C" __global__ void vec_scale(float* x, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= s;
}

int main() {
  const int n = 256;
  std::vector<float> h(n, 1.0f);
  float* d = nullptr;
  if (hipMalloc(&d, n * sizeof(float)) != hipSuccess) return 1;
  hipMemcpy(d, h.data(), n * sizeof(float), hipMemcpyHostToDevice);
  hipLaunchKernelGGL(vec_scale, dim3(n / 64), dim3(64), 0, 0, d, 2.0f, n);
  hipMemcpy(h.data(), d, n * sizeof(float), hipMemcpyDeviceToHost);
  hipFree(d);
  std::printf("%f\n", h[0]);
  return 0;
}
