// Where a wave source's next work-group goes: the first CU with room counting round-robin from
// the CU after the previous choice. The compute Dispatcher and the graphics SPI both place their
// groups with it, so the two sources share one rule and one room bookkeeping.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "timing/cu/compute_unit.h"

namespace strobe::timing {

/// The round-robin choice of a CU with room for a work-group (see the file comment).
class CuPicker {
 public:
  explicit CuPicker(std::vector<ComputeUnit*> cus) : cus_(std::move(cus)), room_((cus_.size() + 63) / 64, 0) {}

  /// Every CU may have room again, and the choice starts over at CU 0 (a new launch or frame).
  void reset() {
    for (size_t c = 0; c < cus_.size(); ++c) mark_room(uint32_t(c));
    rr_ = 0;
  }
  /// CU `cu` may have room for a work-group again (one of its waves retired). An atomic OR: CUs
  /// of several partitions may call it at once (quantum.h), and the result is the same in any
  /// order.
  void mark_room(uint32_t cu) {
    std::atomic_ref<uint64_t>(room_[cu / 64]).fetch_or(uint64_t{1} << (cu % 64), std::memory_order_relaxed);
  }
  /// The CU the next group with `needs` goes to, the round robin moved past it; null when no CU
  /// has room (the caller sleeps until mark_room).
  ComputeUnit* pick(const WorkgroupNeeds& needs) {
    const uint32_t n = uint32_t(cus_.size());
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t c = (rr_ + i) % n;
      uint64_t& word = room_[c / 64];
      const uint64_t bit = uint64_t{1} << (c % 64);
      if (!(word & bit)) continue;  // known full
      if (!cus_[c]->can_accept(needs)) {
        word &= ~bit;
        continue;
      }
      rr_ = (c + 1) % n;
      return cus_[c];
    }
    return nullptr;
  }

 private:
  std::vector<ComputeUnit*> cus_;
  // A CU found full keeps its bit clear until one of its waves retires (the only way to gain
  // room), so checking only the set bits finds the same CU as checking every CU in turn.
  std::vector<uint64_t> room_;
  uint32_t rr_ = 0;
};

}  // namespace strobe::timing
