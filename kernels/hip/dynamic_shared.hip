// Dynamic shared memory (extern __shared__): its size comes only from the launch.
#include <hip/hip_runtime.h>

extern "C" __global__ void reverse_block(const int* in, int* out) {
  extern __shared__ int buf[];
  int t = threadIdx.x;
  int base = blockIdx.x * blockDim.x;
  buf[t] = in[base + t];
  __syncthreads();
  out[base + t] = buf[blockDim.x - 1 - t];
}
