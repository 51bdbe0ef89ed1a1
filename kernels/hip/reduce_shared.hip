// Block sum with a static __shared__ array and __syncthreads: one partial sum per block.
#include <hip/hip_runtime.h>

extern "C" __global__ void block_sum(const float* in, float* partial, int n) {
  __shared__ float tile[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  tile[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) tile[t] += tile[t + s];
    __syncthreads();
  }
  if (t == 0) partial[blockIdx.x] = tile[0];
}
