// A kernel storing through a pointer that is no allocation: the simulated GPU faults and the
// run ends with strobe's error naming the kernel, instead of corrupting the host.
#include "check.h"

__global__ void store_through(int* p) { p[threadIdx.x] = 42; }

int main() {
  hipLaunchKernelGGL(store_through, dim3(1), dim3(64), 0, 0, reinterpret_cast<int*>(0x10000));
  CHECK(hipDeviceSynchronize());
  std::printf("PASS (the store was not caught)\n");
  return 0;
}
