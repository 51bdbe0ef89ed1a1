// Least recently used: every use stamps the way with a per-cache counter; the victim is the way
// with the oldest stamp (the lowest way among equals).
#include <vector>

#include "timing/mem/replacement.h"

namespace strobe::timing {
namespace {
class Lru final : public ReplacementPolicy {
 public:
  explicit Lru(const ReplacementGeometry& g) : ways_(g.ways), stamp_(size_t(g.sets) * g.ways, 0) {}
  void touch(uint32_t set, uint32_t way) override { stamp_[size_t(set) * ways_ + way] = ++clock_; }
  uint32_t victim(uint32_t set) override {
    const uint64_t* s = &stamp_[size_t(set) * ways_];
    uint32_t v = 0;
    for (uint32_t w = 1; w < ways_; ++w)
      if (s[w] < s[v]) v = w;
    return v;
  }

 private:
  uint32_t ways_;
  std::vector<uint64_t> stamp_;
  uint64_t clock_ = 0;
};
}  // namespace
std::unique_ptr<ReplacementPolicy> make_lru(const ReplacementGeometry& g) { return std::make_unique<Lru>(g); }
}  // namespace strobe::timing
