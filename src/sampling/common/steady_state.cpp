// Where a launch's steady state can begin.
#include "sampling/common/steady_state.h"

namespace strobe::sampling {

uint64_t l2_lines(const timing::GpuConfig& cfg) {
  return cfg.line_bytes > 0 ? uint64_t(cfg.l2_size_kb) * 1024 / uint64_t(cfg.line_bytes) : 0;
}

uint64_t l2_fill_groups(uint64_t lines, uint64_t groups, uint64_t l2) {
  if (groups == 0 || lines <= l2) return 0;
  // The smallest k with k * lines / groups >= l2, in integers.
  const unsigned __int128 need = (unsigned __int128)l2 * groups;
  return uint64_t((need + lines - 1) / lines);
}

uint64_t l2_fill_groups(std::span<const uint64_t> lines_per_group, uint64_t l2) {
  uint64_t total = 0;
  for (uint64_t n : lines_per_group) total += n;
  if (total <= l2) return 0;
  uint64_t sum = 0, g = 0;
  while (sum < l2) sum += lines_per_group[g++];
  return g;
}

}  // namespace strobe::sampling
