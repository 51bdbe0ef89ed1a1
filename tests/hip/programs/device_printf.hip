// Device printf: hipcc lowers it to ockl's hostcall service, answered by HIP's host-side
// listener thread through a buffer in memory both sides share.
#include "check.h"

__global__ void hello(int* out) {
  const int i = threadIdx.x;
  if (i == 0) printf("hello from block %d\n", int(blockIdx.x));
  out[blockIdx.x * blockDim.x + i] = i;
}

int main() {
  int* d;
  CHECK(hipMalloc(&d, 2 * 64 * sizeof(int)));
  hipLaunchKernelGGL(hello, dim3(2), dim3(64), 0, 0, d);
  CHECK(hipDeviceSynchronize());
  int h[128];
  CHECK(hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost));
  Mismatches m;
  for (int i = 0; i < 128; ++i) m.expect(h[i] == i % 64, "out", i, h[i], i % 64);
  return m.finish();
}
