// A wave's register scoreboard: the ALU results still in flight, each a register range (operand
// codes: scalar 0..255, VGPRs 256..511, AccVGPRs 512..767) with the cycle it becomes readable. Memory
// results are ordered by s_waitcnt and never appear here.
#pragma once

#include <array>
#include <cstdint>

#include "timing/cu/inst_info.h"
#include "timing/engine/cycle.h"

namespace strobe::timing {

class Scoreboard {
 public:
  /// Writes in flight at once: an ALU unit stays occupied until its result is ready (occupancy
  /// equals latency), so a wave has at most one VALU, one matrix and one SALU instruction in
  /// flight, the ALU ones writing at most three ranges and the matrix one one.
  static constexpr uint32_t kCapacity = 8;

  /// Forgets every write (a new wave in the slot).
  void clear() {
    entries_.fill(Entry{});
    latest_ = Cycle(0);
  }
  /// No register becomes ready later than this.
  Cycle latest() const { return latest_; }
  /// The cycle every register of `r` is readable: the latest in-flight write overlapping it, or
  /// a cycle not after `now` when none is in flight.
  Cycle ready(RegRange r, Cycle now) const {
    Cycle t{0};
    for (const Entry& e : entries_)
      if (e.ready > now && overlap(e.first, e.count, r.first, r.count)) t = max(t, e.ready);
    return t;
  }
  /// Records that `r` is written and readable at `ready` (issued at `now`). Writes still in
  /// flight to the same registers cannot exist: the write-after-write check held the issue.
  void write(RegRange r, Cycle ready, Cycle now) {
    Entry* slot = &entries_[0];
    for (Entry& e : entries_) {
      if (e.ready <= now) {
        slot = &e;
        break;
      }
      if (e.ready < slot->ready) slot = &e;  // unreachable while kCapacity holds (see above)
    }
    *slot = Entry{ready, r.first, r.count};
    latest_ = max(latest_, ready);
  }

 private:
  struct Entry {
    Cycle ready{0};
    uint16_t first = 0;
    uint16_t count = 0;
  };
  /// Ranges of operand codes (below 768, at most 32 long, so never wrapping modulo 1024)
  /// overlap iff one starts inside the other.
  static bool overlap(uint32_t a, uint32_t an, uint32_t b, uint32_t bn) {
    return ((b - a) & 1023) < an || ((a - b) & 1023) < bn;
  }
  std::array<Entry, kCapacity> entries_{};
  Cycle latest_{0};
};

}  // namespace strobe::timing
