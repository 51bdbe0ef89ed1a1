// The state of a set-associative cache without time: the tag array with dirty bits, the
// replacement plug-in, and hit/miss/evict decisions. No ports, no MSHRs, no events, so an
// analytical model can run caches functionally; `Cache` (cache.h) wraps it with timing.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "timing/mem/replacement.h"

namespace strobe::timing {

/// What a tag array is: its shape, how a line picks its set, and how a full set picks a victim.
struct CacheGeometry {
  uint32_t sets = 64, ways = 4;
  uint32_t index_divisor = 1;       ///< line / divisor selects the set (removes bank-interleave bits)
  std::string replacement = "lru";  ///< replacement policy (replacement.h registry name)
  uint64_t seed = 0;                ///< this cache's seed for randomised replacement
};

/// Tags, dirty bits and replacement state of one cache. Lines are line numbers (address / line size).
class CacheTags {
 public:
  /// A line that an install pushed out.
  struct Victim {
    bool valid = false;  ///< false: the line went into an invalid way
    bool dirty = false;
    uint64_t line = 0;
  };
  /// The outcome of a functional access().
  struct Outcome {
    bool hit = false;
    Victim victim;  ///< what a miss evicted to make room (never valid on a hit)
  };

  /// Builds the tag array; throws InputError if the policy cannot serve the geometry.
  explicit CacheTags(const CacheGeometry& g);

  /// Number of sets.
  uint32_t sets() const { return g_.sets; }
  /// Ways per set.
  uint32_t ways() const { return g_.ways; }
  /// The set `line` maps to.
  uint32_t set_of(uint64_t line) const {
    const uint64_t index = index_shift_ != UINT32_MAX ? line >> index_shift_ : line / g_.index_divisor;
    return uint32_t(index & (g_.sets - 1));
  }
  /// Way index holding `line` in `set`, or -1.
  int find(uint64_t line, uint32_t set) const {
    const uint64_t* t = &tag_[size_t(set) * g_.ways];
    for (uint32_t w = 0; w < g_.ways; ++w)
      if ((t[w] & ~kDirty) == line + 1) return int(w);
    return -1;
  }
  /// Slot index of `way` in `set` (for the dirty-bit calls).
  uint32_t slot(uint32_t set, uint32_t way) const { return set * g_.ways + way; }
  /// `way` of `set` was used (hit or write to a present line): tells the replacement policy.
  void touch(uint32_t set, uint32_t way) { repl_->touch(set, way); }
  /// Makes `line` present in `set` (evicting an invalid way first, else the policy's victim,
  /// reported in `victim`), counts it as a use and returns its slot. A present line is only touched.
  uint32_t install(uint64_t line, uint32_t set, Victim& victim);
  /// install() of a line find() has just reported absent from `set`: the same result, one scan less.
  uint32_t install_absent(uint64_t line, uint32_t set, Victim& victim);
  /// Marks the line in `slot` dirty (a write-back write or an atomic performed here).
  void set_dirty(uint32_t slot) { tag_[slot] |= kDirty; }
  /// Drops the line in `slot` (an atomic passing through a write-through cache).
  void invalidate(uint32_t slot) { tag_[slot] = 0; }
  /// Invalidates every line (dirty ones are dropped).
  void invalidate_all() { std::fill(tag_.begin(), tag_.end(), uint64_t{0}); }

  /// True if `line` is present.
  bool contains(uint64_t line) const { return find(line, set_of(line)) >= 0; }
  /// True if `line` is present and dirty.
  bool is_dirty(uint64_t line) const;

  /// One access with the fill done at once (no timing): a read or write hit uses the line; a
  /// read miss installs it; a write miss installs it (dirty) only when `write_allocate`, and a
  /// write hit marks it dirty only then (write-back), as `Cache` does.
  Outcome access(uint64_t line, bool write, bool write_allocate);

 private:
  static constexpr uint64_t kDirty = uint64_t{1} << 63;  // tag bit: the line is dirty
  // Puts absent `line` in way `empty` (invalid), or in the policy's victim when that is
  // UINT32_MAX, reporting what it evicts; counts the use and returns the slot.
  uint32_t place(uint64_t line, uint32_t set, uint32_t empty, Victim& victim);
  CacheGeometry g_;
  std::unique_ptr<ReplacementPolicy> repl_;
  std::vector<uint64_t> tag_;          // line + 1 per slot (| kDirty), 0 = invalid
  uint32_t index_shift_ = UINT32_MAX;  // log2(index_divisor) when a power of two
};

}  // namespace strobe::timing
