// The profiling loop's non-template part: counting coalesced requests.
#include "sampling/profile/profiler.h"

#include "timing/cu/coalesce.h"

namespace strobe::sampling::profile {

uint32_t Profiler::count_lines(const emu::MemAccessInfo& mi) const {
  // While lines never fall lane by lane (unit strides, a row per lane), each change of line is a
  // new one; otherwise the lines are looked up in the coalescer's set (coalesce.h).
  uint32_t n = 0;
  uint64_t last = 0;
  bool rising = true;
  for (uint64_t m = mi.lane_mask; m; m &= m - 1) {
    const uint64_t line = mi.lane_addr[std::countr_zero(m)] >> line_bits_;
    if (n && line == last) continue;
    rising &= n == 0 || line > last;
    last = line, ++n;
  }
  if (rising) return n;
  timing::detail::SeenLines seen;
  n = 0;
  for (uint64_t m = mi.lane_mask; m; m &= m - 1) n += seen.insert(mi.lane_addr[std::countr_zero(m)] >> line_bits_);
  return n;
}

}  // namespace strobe::sampling::profile
