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
  const size_t base = size_t(set) * g_.ways;
  int w = find(line, set);
  if (w < 0) {
    uint32_t way = UINT32_MAX;  // an invalid way if there is one, else the policy's choice
    for (uint32_t i = 0; i < g_.ways && way == UINT32_MAX; ++i)
      if (tag_[base + i] == 0) way = i;
    if (way == UINT32_MAX) way = repl_->victim(set);
    uint64_t& t = tag_[base + way];
    if (t != 0) victim = Victim{true, (t & kDirty) != 0, (t & ~kDirty) - 1};
    t = line + 1;
    w = int(way);
  }
  repl_->touch(set, uint32_t(w));
  return uint32_t(base + w);
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
