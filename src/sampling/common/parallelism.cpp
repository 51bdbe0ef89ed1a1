#include "sampling/common/parallelism.h"

#include <algorithm>
#include <cmath>

namespace strobe::sampling {

uint32_t system_occupancy(const timing::Gpu& gpu, const emu::Dispatch& d) {
  const timing::Occupancy occ = gpu.occupancy_of(d);
  return std::max<uint32_t>(1, occ.workgroups_per_cu * uint32_t(gpu.config().num_cus));
}

double launch_parallelism(uint64_t groups, uint64_t system, uint32_t cus, double exponent) {
  const double busy = double(std::min<uint64_t>(groups, std::max<uint32_t>(cus, 1)));
  if (busy == 0) return 0;
  const double at_once = double(std::max(groups_at_once(groups, system), uint64_t(1)));
  // A launch's groups spread over its busy CUs first, so at_once >= busy unless the system
  // holds fewer groups than there are CUs (a kernel that fits less than one group per CU).
  return busy * std::pow(std::max(at_once / busy, 1.0), exponent);
}

}  // namespace strobe::sampling
