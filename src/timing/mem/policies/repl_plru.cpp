// Tree pseudo-LRU: a binary tree of ways-1 bits per set. A use points every node on the way's
// path at the other half; the victim is found by following the pointers from the root. Needs a
// power-of-two number of ways.
#include <bit>
#include <vector>

#include <fmt/format.h>

#include "timing/mem/replacement.h"

namespace strobe::timing {
namespace {
class TreePlru final : public ReplacementPolicy {
 public:
  explicit TreePlru(const ReplacementGeometry& g)
      : ways_(g.ways), levels_(uint32_t(std::countr_zero(g.ways))), bits_(size_t(g.sets) * g.ways, 0) {}
  void touch(uint32_t set, uint32_t way) override {
    uint8_t* node = &bits_[size_t(set) * ways_];
    uint32_t n = 0;
    for (uint32_t l = levels_; l-- > 0;) {
      const uint32_t right = (way >> l) & 1;
      node[n] = uint8_t(right ^ 1);  // the less recently used half is the other one
      n = 2 * n + 1 + right;
    }
  }
  uint32_t victim(uint32_t set) override {
    const uint8_t* node = &bits_[size_t(set) * ways_];
    uint32_t n = 0;
    for (uint32_t l = 0; l < levels_; ++l) n = 2 * n + 1 + node[n];
    return n - (ways_ - 1);
  }

 private:
  uint32_t ways_, levels_;
  std::vector<uint8_t> bits_;  // per set: ways - 1 tree nodes (heap order), one byte spare
};

/// The tree needs a leaf per way: the one statement of this rule (config validation asks it too).
std::string plru_geometry_error(uint32_t ways) {
  if (std::has_single_bit(ways)) return {};
  return fmt::format("tree pseudo-LRU needs a power-of-two number of ways, not {}", ways);
}

std::unique_ptr<ReplacementPolicy> make_tree_plru(const ReplacementGeometry& g) { return std::make_unique<TreePlru>(g); }
}  // namespace
}  // namespace strobe::timing

STROBE_REPLACEMENT_POLICY("plru", strobe::timing::make_tree_plru, strobe::timing::plru_geometry_error);
