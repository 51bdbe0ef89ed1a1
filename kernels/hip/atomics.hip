// Integer and float atomicAdd on global memory: a histogram and a total.
#include <hip/hip_runtime.h>

extern "C" __global__ void histogram16(const unsigned* in, unsigned* bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&bins[in[i] & 15u], 1u);
}

extern "C" __global__ void float_total(const float* in, float* total, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(total, in[i]);
}
