// More packets through one queue than its ring holds: ROCr's gfx8 queues index their ring
// modulo twice its size, over a ring whose upper half aliases the lower (the KFD's double map),
// so the packet processor reads every packet past the ring's size from the upper half. The
// default stream's queue holds 4096 packets; ROCr's internal copy queue, 64.
#include <vector>

#include "check.h"

__global__ void add_one(int* p) { p[threadIdx.x] += 1; }

int main() {
  constexpr int kLaunches = 4300, kCopies = 150;
  int* d;
  CHECK(hipMalloc(&d, 64 * sizeof(int)));
  CHECK(hipMemset(d, 0, 64 * sizeof(int)));
  for (int i = 0; i < kLaunches; ++i) hipLaunchKernelGGL(add_one, dim3(1), dim3(64), 0, 0, d);
  CHECK(hipGetLastError());
  std::vector<int> h(64);
  for (int i = 0; i < kCopies; ++i) CHECK(hipMemcpy(h.data(), d, 64 * sizeof(int), hipMemcpyDeviceToHost));
  Mismatches m;
  for (int i = 0; i < 64; ++i) m.expect(h[i] == kLaunches, "count", i, h[i], kLaunches);
  CHECK(hipFree(d));
  return m.finish();
}
