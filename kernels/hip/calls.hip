// Real calls: __noinline__ device functions reached through s_swappc_b64 (built at -O3; the
// -O0 flavour of every kernel here is built by the same rule).
#include <hip/hip_runtime.h>

__device__ __noinline__ float poly(float x) { return (x * 0.5f + 1.0f) * x - 2.0f; }
__device__ __noinline__ int collatz_steps(int v) {
  int steps = 0;
  while (v > 1 && steps < 100) {
    v = (v & 1) ? 3 * v + 1 : v / 2;
    ++steps;
  }
  return steps;
}

extern "C" __global__ void call_poly(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = poly(x[i]);
}

extern "C" __global__ void call_collatz(int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = collatz_steps(i + 1);
}
