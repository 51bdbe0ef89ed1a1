// A set of 64-bit keys by open addressing (linear probing in a power-of-two table, keys spread by
// splitmix64's mixer): what the warm-state rebuilds of a capture insert hundreds of thousands of
// cache-line numbers into per warmed launch or frame, where a node-based std::unordered_set
// spends most of the time allocating.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <utility>
#include <vector>

#include "sampling/numeric/mix.h"

namespace strobe::sampling {

/// A set of uint64_t keys, every value allowed (see the file comment). No erase.
class KeySet {
 public:
  /// An empty set sized for about `expected` keys (it grows past them).
  explicit KeySet(size_t expected = 0) { rebuild(std::bit_ceil(std::max<size_t>(16, expected * 2))); }

  /// Inserts `k`; true if it was not there.
  bool insert(uint64_t k) {
    if (k == kEmpty) return !std::exchange(has_empty_, true);
    if ((size_ + 1) * 2 > slots_.size()) rebuild(slots_.size() * 2);
    for (size_t i = mix64(k) & mask_;; i = (i + 1) & mask_) {
      if (slots_[i] == k) return false;
      if (slots_[i] == kEmpty) {
        slots_[i] = k;
        ++size_;
        return true;
      }
    }
  }
  /// True if `k` is in the set.
  bool contains(uint64_t k) const {
    if (k == kEmpty) return has_empty_;
    for (size_t i = mix64(k) & mask_;; i = (i + 1) & mask_) {
      if (slots_[i] == k) return true;
      if (slots_[i] == kEmpty) return false;
    }
  }
  /// Keys in the set.
  size_t size() const { return size_ + (has_empty_ ? 1 : 0); }

 private:
  static constexpr uint64_t kEmpty = UINT64_MAX;  // marks a free slot; the key itself is kept apart
  void rebuild(size_t slots) {
    std::vector<uint64_t> old = std::exchange(slots_, std::vector<uint64_t>(slots, kEmpty));
    mask_ = slots - 1;
    size_ = 0;
    for (uint64_t k : old)
      if (k != kEmpty) insert(k);
  }
  std::vector<uint64_t> slots_;
  size_t mask_ = 0, size_ = 0;
  bool has_empty_ = false;
};

}  // namespace strobe::sampling
