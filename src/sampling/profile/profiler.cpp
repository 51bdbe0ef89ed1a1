// The profiling loop's non-template part: counting coalesced requests.
#include "sampling/profile/profiler.h"

namespace strobe::sampling::profile {

uint32_t Profiler::count_lines(const emu::MemAccessInfo& mi) const {
  uint64_t line[emu::kWaveSize];
  int n = 0;
  bool sorted = true;  // lines that never fall lane by lane need no sort (unit strides, a row per lane)
  for (uint64_t m = mi.lane_mask; m; m &= m - 1) {
    line[n] = mi.lane_addr[std::countr_zero(m)] >> line_bits_;
    sorted &= n == 0 || line[n - 1] <= line[n];
    ++n;
  }
  if (!sorted) std::sort(line, line + n);
  return uint32_t(std::unique(line, line + n) - line);
}

}  // namespace strobe::sampling::profile
