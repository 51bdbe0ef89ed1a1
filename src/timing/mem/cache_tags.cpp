#include "timing/mem/cache_tags.h"

#include <bit>

namespace strobe::timing {

CacheTags::CacheTags(const CacheGeometry& g)
    : g_(g),
      repl_(make_replacement_policy(g.replacement, ReplacementGeometry{g.sets, g.ways, g.seed})),
      tag_(size_t(g.sets) * g.ways, 0) {
  if (std::has_single_bit(g_.index_divisor)) index_shift_ = uint32_t(std::countr_zero(g_.index_divisor));
}

uint32_t CacheTags::install(uint64_t line, uint32_t set, Victim& victim) {
  // One pass finds the line or, failing that, the first invalid way.
  const uint64_t* t = &tag_[size_t(set) * g_.ways];
  uint32_t empty = UINT32_MAX;
  for (uint32_t w = 0; w < g_.ways; ++w) {
    if ((t[w] & ~kDirty) == line + 1) {
      repl_->touch(set, w);
      return slot(set, w);
    }
    if (t[w] == 0 && empty == UINT32_MAX) empty = w;
  }
  return place(line, set, empty, victim);
}

uint32_t CacheTags::install_absent(uint64_t line, uint32_t set, Victim& victim) {
  const uint64_t* t = &tag_[size_t(set) * g_.ways];
  uint32_t empty = 0;
  while (empty < g_.ways && t[empty] != 0) ++empty;
  return place(line, set, empty < g_.ways ? empty : UINT32_MAX, victim);
}

uint32_t CacheTags::place(uint64_t line, uint32_t set, uint32_t empty, Victim& victim) {
  const uint32_t way = empty != UINT32_MAX ? empty : repl_->victim(set);
  uint64_t& t = tag_[slot(set, way)];
  if (t != 0) victim = Victim{true, (t & kDirty) != 0, (t & ~kDirty) - 1};
  t = line + 1;
  repl_->touch(set, way);
  return slot(set, way);
}

bool CacheTags::is_dirty(uint64_t line) const {
  const uint32_t set = set_of(line);
  const int w = find(line, set);
  return w >= 0 && (tag_[slot(set, uint32_t(w))] & kDirty);
}

CacheTags::Outcome CacheTags::access(uint64_t line, bool write, bool write_allocate) {
  Outcome o;
  const uint32_t set = set_of(line);
  const int way = find(line, set);
  o.hit = way >= 0;
  if (write && write_allocate) {
    set_dirty(install(line, set, o.victim));
  } else if (o.hit) {
    touch(set, uint32_t(way));
  } else if (!write) {
    install(line, set, o.victim);
  }
  return o;
}

}  // namespace strobe::timing
