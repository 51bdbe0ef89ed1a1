// Events around several kernels on the null stream, hipDeviceSynchronize, and the elapsed time
// between two events (simulated GPU time under --mode timing). Prints "elapsed_ms <value>".
#include "check.h"

#include <vector>

__global__ void step(float* v, int n, float k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = v[i] * k + 1.0f;
}

int main() {
  Mismatches m;
  const int n = 2048;
  std::vector<float> v(n, 1.0f);
  float* d;
  CHECK(hipMalloc(&d, n * sizeof(float)));
  CHECK(hipMemcpy(d, v.data(), n * sizeof(float), hipMemcpyHostToDevice));
  hipEvent_t start, stop;
  CHECK(hipEventCreate(&start));
  CHECK(hipEventCreate(&stop));
  CHECK(hipEventRecord(start, 0));
  for (int k = 0; k < 4; ++k) hipLaunchKernelGGL(step, dim3(n / 128), dim3(128), 0, 0, d, n, float(k + 1));
  CHECK(hipEventRecord(stop, 0));
  CHECK(hipEventSynchronize(stop));
  CHECK(hipDeviceSynchronize());
  float ms = -1;
  CHECK(hipEventElapsedTime(&ms, start, stop));
  std::printf("elapsed_ms %.6f\n", ms);
  m.expect(ms > 0, "elapsed time", 0, ms, 0);
  CHECK(hipMemcpy(v.data(), d, n * sizeof(float), hipMemcpyDeviceToHost));
  float want = 1.0f;
  for (int k = 0; k < 4; ++k) want = want * float(k + 1) + 1.0f;
  for (int i = 0; i < n; ++i) m.expect(v[i] == want, "four steps", i, v[i], want);
  CHECK(hipEventDestroy(start));
  CHECK(hipEventDestroy(stop));
  CHECK(hipFree(d));
  return m.finish();
}
