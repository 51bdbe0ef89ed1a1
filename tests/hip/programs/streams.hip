// Two streams, each with its own asynchronous copies, memsets and kernels; the host waits on
// each stream and then checks both.
#include "check.h"

#include <vector>

__global__ void add_index(int* v, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] += i * k;
}

int main() {
  Mismatches m;
  const int n = 4096;
  hipStream_t s[2];
  int* d[2];
  int* host[2];
  for (int k = 0; k < 2; ++k) {
    CHECK(hipStreamCreate(&s[k]));
    CHECK(hipMalloc(&d[k], n * sizeof(int)));
    CHECK(hipHostMalloc(&host[k], n * sizeof(int)));
    for (int i = 0; i < n; ++i) host[k][i] = 1000 * k + i;
  }
  for (int k = 0; k < 2; ++k) {
    CHECK(hipMemsetAsync(d[k], 0, n * sizeof(int), s[k]));
    CHECK(hipMemcpyAsync(d[k], host[k], n / 2 * sizeof(int), hipMemcpyHostToDevice, s[k]));
    hipLaunchKernelGGL(add_index, dim3(n / 256), dim3(256), 0, s[k], d[k], n, k + 1);
    CHECK(hipMemcpyAsync(host[k], d[k], n * sizeof(int), hipMemcpyDeviceToHost, s[k]));
  }
  for (int k = 0; k < 2; ++k) CHECK(hipStreamSynchronize(s[k]));
  for (int k = 0; k < 2; ++k)
    for (int i = 0; i < n; ++i) {
      const int want = (i < n / 2 ? 1000 * k + i : 0) + i * (k + 1);
      m.expect(host[k][i] == want, k ? "stream 1" : "stream 0", i, host[k][i], want);
    }
  for (int k = 0; k < 2; ++k) {
    CHECK(hipStreamDestroy(s[k]));
    CHECK(hipFree(d[k]));
    CHECK(hipHostFree(host[k]));
  }
  return m.finish();
}
