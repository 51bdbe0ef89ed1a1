// A fixed-capacity hash map from line address to a small index (the MSHR holding the line):
// open addressing with linear probing and backward-shift deletion, so lookups cost O(1)
// instead of a scan over every MSHR.
#pragma once

#include <bit>
#include <cstdint>
#include <vector>

namespace strobe::timing {

class LineMap {
 public:
  static constexpr uint32_t kAbsent = UINT32_MAX;

  /// A map for at most `max_entries` entries (kept under half full).
  explicit LineMap(uint32_t max_entries)
      : slots_(std::bit_ceil(uint64_t(max_entries) * 2 + 2)), mask_(uint32_t(slots_.size() - 1)) {}

  /// The value stored for `line`, or kAbsent.
  uint32_t find(uint64_t line) const {
    for (uint32_t i = home(line);; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.value == kAbsent) return kAbsent;
      if (s.line == line) return s.value;
    }
  }
  /// Stores `value` for `line`, which must be absent.
  void insert(uint64_t line, uint32_t value) {
    uint32_t i = home(line);
    while (slots_[i].value != kAbsent) i = (i + 1) & mask_;
    slots_[i] = Slot{line, value};
  }
  /// Removes `line`, which must be present.
  void erase(uint64_t line) {
    uint32_t i = home(line);
    while (slots_[i].line != line || slots_[i].value == kAbsent) i = (i + 1) & mask_;
    // Backward shift: pull later entries of the probe run into the hole.
    for (uint32_t j = (i + 1) & mask_; slots_[j].value != kAbsent; j = (j + 1) & mask_) {
      const uint32_t h = home(slots_[j].line);
      // Entry j may move to i if its home is not in the cyclic range (i, j].
      if (((j - h) & mask_) >= ((j - i) & mask_)) {
        slots_[i] = slots_[j];
        i = j;
      }
    }
    slots_[i].value = kAbsent;
  }
  void clear() {
    for (Slot& s : slots_) s.value = kAbsent;
  }

 private:
  struct Slot {
    uint64_t line = 0;
    uint32_t value = kAbsent;
  };
  uint32_t home(uint64_t line) const { return uint32_t((line * 0x9E3779B97F4A7C15ull) >> 40) & mask_; }
  std::vector<Slot> slots_;
  uint32_t mask_;
};

}  // namespace strobe::timing
