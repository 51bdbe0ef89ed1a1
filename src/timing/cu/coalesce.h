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

namespace detail {

/// The lines seen so far by one coalescing of lanes that come back down: open addressing over
/// twice the most lines an instruction touches, its occupancy in a bitmap so that starting
/// afresh clears 32 bytes, not the table.
class SeenLines {
 public:
  /// Adds `line`; false if it was there already.
  bool insert(uint64_t line) {
    for (uint32_t h = uint32_t((line * 0x9E3779B97F4A7C15ull) >> (64 - kBits));; h = (h + 1) & (kSlots - 1)) {
      const uint64_t bit = uint64_t(1) << (h & 63);
      if (!(used_[h >> 6] & bit)) {
        used_[h >> 6] |= bit;
        line_[h] = line;
        return true;
      }
      if (line_[h] == line) return false;
    }
  }

 private:
  static constexpr uint32_t kBits = 8, kSlots = 1u << kBits;
  static_assert(kSlots >= 2 * kMaxCoalescedLines);
  uint64_t used_[kSlots / 64] = {};
  uint64_t line_[kSlots];  // valid where used_ says
};

}  // namespace detail

/// Writes into `lines` the distinct lines (address >> `line_bits`) that the active lanes of `mi`
/// touch with their first and last byte, in lane order, and returns how many. With `spans`, sets
/// it to whether some lane's bytes span two lines (if none does, the lines are exactly those of
/// the lanes' first bytes).
inline uint32_t coalesce_lines(const emu::MemAccessInfo& mi, uint32_t line_bits,
                               uint64_t (&lines)[kMaxCoalescedLines], bool* spans = nullptr) {
  uint32_t n = 0;
  const uint32_t bytes = std::max<uint32_t>(1, mi.bytes_per_lane);
  bool split = false;
  uint64_t m = mi.lane_mask;
  // While the lines rise lane by lane (unit strides, and one row per lane), a line above the
  // last is new without a lookup. A lane's last byte lies above its first (unless the lane
  // wraps past the top of the address space), so only a lane's first line can come back down:
  // from that lane on, lines are looked up in a set.
  for (; m; m &= m - 1) {
    const uint64_t a = mi.lane_addr[std::countr_zero(m)];
    const uint64_t first = a >> line_bits, last = (a + bytes - 1) >> line_bits;
    if ((n && first < lines[n - 1]) || last < first) break;  // (last < first: past the address space's top)
    if (!n || first != lines[n - 1]) lines[n++] = first;
    if (last != first) {
      split = true;
      lines[n++] = last;
    }
  }
  if (m) {
    detail::SeenLines seen;
    for (uint32_t i = 0; i < n; ++i) seen.insert(lines[i]);
    for (; m; m &= m - 1) {
      const uint64_t a = mi.lane_addr[std::countr_zero(m)];
      const uint64_t first = a >> line_bits, last = (a + bytes - 1) >> line_bits;
      // Neighbouring lanes mostly share a line, so the last line is checked before the set.
      if ((!n || first != lines[n - 1]) && seen.insert(first)) lines[n++] = first;
      if (last != first) {
        split = true;
        if (last != lines[n - 1] && seen.insert(last)) lines[n++] = last;
      }
    }
  }
  if (spans) *spans = split;
  return n;
}

}  // namespace strobe::timing
