// A wave's instruction buffer: the window of program bytes [lo, hi) fetched from the L1I, one
// fetch block in flight at most, and the epoch that tells a response to a fetch the wave still
// wants from one a branch made stale.
#pragma once

#include <algorithm>
#include <cstdint>

namespace strobe::timing {

/// The tag of an instruction-fetch request: the top bit marks a fetch (op record indices never
/// set it), then the wave slot and the low 24 bits of the wave's fetch epoch.
struct FetchTag {
  static constexpr uint32_t kFlag = 0x80000000u, kSlotShift = 24, kSlotMask = 0x3F, kEpochMask = 0xFFFFFF;
  uint32_t slot = 0;
  uint32_t epoch = 0;  ///< already masked to kEpochMask

  /// The tag for wave slot `slot` (< 64) fetching in epoch `epoch`.
  static constexpr FetchTag of(uint32_t slot, uint32_t epoch) { return {slot, epoch & kEpochMask}; }
  /// The 32-bit request tag.
  constexpr uint32_t encode() const { return kFlag | (slot << kSlotShift) | epoch; }
  /// True if a response tag answers an instruction fetch.
  static constexpr bool is_fetch(uint32_t tag) { return (tag & kFlag) != 0; }
  /// The fetch tag a response carries (is_fetch(tag) must hold).
  static constexpr FetchTag decode(uint32_t tag) { return {(tag >> kSlotShift) & kSlotMask, tag & kEpochMask}; }
};

/// One wave's buffered program bytes.
struct InstBuffer {
  // 32-bit offsets (as InstInfo::offset) keep the buffer in a wave's first cache line.
  uint32_t lo = 0, hi = 0;  ///< buffered program bytes [lo, hi)
  uint32_t epoch = 0;       ///< bumped by every redirect: older fetches are stale
  bool fetching = false;    ///< a fetch of the block at `hi` is in flight

  /// Empties the buffer and aims it at the fetch block holding byte offset `off` (a taken
  /// branch or a new wave); a fetch in flight becomes stale.
  void redirect(uint64_t off, uint32_t fetch_bytes) {
    ++epoch;
    fetching = false;
    lo = hi = uint32_t(off / fetch_bytes * fetch_bytes);
  }
  /// True if the instruction at `off` of `size` bytes is entirely buffered.
  bool holds(uint32_t off, uint32_t size) const { return off >= lo && uint64_t(off) + size <= hi; }
  /// True if another fetch block fits behind the instruction at `off` and none is in flight.
  bool wants_fetch(uint32_t off, uint32_t fetch_bytes, uint32_t ib_bytes) const {
    return !fetching && uint64_t(hi - std::min(hi, off)) + fetch_bytes <= ib_bytes;
  }
  /// Drops the bytes before `end` (an instruction issued).
  void consume(uint32_t end) { lo = end; }
  /// Starts fetching the block at `hi` for wave `slot`; returns the request's tag.
  FetchTag start_fetch(uint32_t slot) {
    fetching = true;
    return FetchTag::of(slot, epoch);
  }
  /// Takes the response to fetch `t`; false (and nothing changes) if it is stale.
  bool fill(FetchTag t, uint32_t fetch_bytes) {
    if (!fetching || (epoch & FetchTag::kEpochMask) != t.epoch) return false;
    fetching = false;
    hi += fetch_bytes;
    return true;
  }
};

}  // namespace strobe::timing
