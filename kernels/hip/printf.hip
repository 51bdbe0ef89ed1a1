// Device printf: hipcc lowers it to calls into ockl's hostcall service, which a host runtime
// thread answers. strobe provides no hostcall host side, so the call must stop with a clear
// "not implemented" naming the function, never spin or fault on the null buffer.
#include <hip/hip_runtime.h>

#include <cstdio>

__global__ void hello(int* out) {
  const int i = threadIdx.x;
  if (i == 0) printf("hello from block %d\n", int(blockIdx.x));
  out[i] = i;
}
