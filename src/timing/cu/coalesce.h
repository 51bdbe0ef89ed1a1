// Coalescing a vector memory instruction's per-lane addresses into cache-line requests: the one
// rule the CU's memory pipeline and the analytical models that replay its requests share.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>

#include "emu/semantics.h"

namespace strobe::timing {

/// Most lines one wave instruction can touch: each lane's first and last byte may differ.
inline constexpr uint32_t kMaxCoalescedLines = 2 * emu::kWaveSize;

/// Writes into `lines` the distinct lines (address >> `line_bits`) that the active lanes of `mi`
/// touch with their first and last byte, in lane order, and returns how many.
inline uint32_t coalesce_lines(const emu::MemAccessInfo& mi, uint32_t line_bits,
                               uint64_t (&lines)[kMaxCoalescedLines]) {
  uint32_t n = 0;
  const uint32_t bytes = std::max<uint32_t>(1, mi.bytes_per_lane);
  // While the lines rise lane by lane (unit strides, and one row per lane), a line above the
  // last is new without a scan: the scan is only for lanes that come back down.
  bool rising = true;
  for (uint64_t m = mi.lane_mask; m; m &= m - 1) {
    const uint64_t a = mi.lane_addr[std::countr_zero(m)];
    for (uint64_t line : {a >> line_bits, (a + bytes - 1) >> line_bits}) {
      // Neighbouring lanes mostly share a line, so the last line is checked before the scan.
      if (n && lines[n - 1] == line) continue;
      bool seen = false;
      if (n && line < lines[n - 1]) rising = false;
      if (!rising)
        for (uint32_t i = 0; i < n && !seen; ++i) seen = lines[i] == line;
      if (!seen) lines[n++] = line;
    }
  }
  return n;
}

}  // namespace strobe::timing
