// A program that launches work and then ends without its exit handlers: `exit` calls _exit(0),
// `abort` aborts. Neither writes strobe's report, which runs at exit; what had finished must
// not be lost.
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "check.h"

__global__ void twice(int* p) { p[threadIdx.x] = 2 * int(threadIdx.x); }

int main(int argc, char** argv) {
  int* d;
  CHECK(hipMalloc(&d, 64 * sizeof(int)));
  hipLaunchKernelGGL(twice, dim3(1), dim3(64), 0, 0, d);
  CHECK(hipDeviceSynchronize());
  std::printf("launched\n");
  std::fflush(stdout);
  if (argc > 1 && std::strcmp(argv[1], "abort") == 0) std::abort();
  ::_exit(0);
}
