// Least recently used. Each set keeps its ways' recency ranks (0 = most recent) as a
// permutation of bytes, so a set's whole state is one short row: a use moves the way to rank 0
// and ages the ways that were more recent; the victim is the way of the highest rank.
#include <vector>

#include "timing/mem/replacement.h"

namespace strobe::timing {
namespace {
class Lru final : public ReplacementPolicy {
 public:
  explicit Lru(const ReplacementGeometry& g) : ways_(g.ways), rank_(size_t(g.sets) * g.ways) {
    for (size_t i = 0; i < rank_.size(); ++i) rank_[i] = uint8_t(i % ways_);
  }
  void touch(uint32_t set, uint32_t way) override {
    uint8_t* r = &rank_[size_t(set) * ways_];
    const uint8_t used = r[way];
    for (uint32_t w = 0; w < ways_; ++w) r[w] = uint8_t(r[w] + (r[w] < used));
    r[way] = 0;
  }
  uint32_t victim(uint32_t set) override {
    const uint8_t* r = &rank_[size_t(set) * ways_];
    uint32_t v = 0;
    while (r[v] != ways_ - 1) ++v;
    return v;
  }

 private:
  uint32_t ways_;
  std::vector<uint8_t> rank_;  // ways <= 256 (params.def bounds)
};

std::unique_ptr<ReplacementPolicy> make_lru(const ReplacementGeometry& g) { return std::make_unique<Lru>(g); }
}  // namespace
}  // namespace strobe::timing

STROBE_REPLACEMENT_POLICY("lru", strobe::timing::make_lru);
