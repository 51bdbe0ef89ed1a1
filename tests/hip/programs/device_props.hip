// Prints what HIP reports about the device; the values come from strobe's configuration
// through the thunk's topology.
#include "check.h"

int main() {
  hipDeviceProp_t p;
  CHECK(hipGetDeviceProperties(&p, 0));
  std::printf("name=%s arch=%s cus=%d clock_khz=%d global_mem=%zu shared_per_block=%zu wavefront=%d l2=%d\n", p.name,
              p.gcnArchName, p.multiProcessorCount, p.clockRate, p.totalGlobalMem, p.sharedMemPerBlock, p.warpSize,
              p.l2CacheSize);
  std::printf("PASS\n");
  return 0;
}
