#include "timing/gpu/placement.h"

#include <algorithm>

namespace strobe::timing {

Placement::Placement(uint32_t cus, uint32_t groups_per_cu, uint64_t groups)
    : cus_(std::max(1u, cus)), per_cu_(std::max(1u, groups_per_cu)), groups_(groups), resident_(cus_, 0) {}

std::optional<uint32_t> Placement::place_next() {
  if (next_ == groups_) return std::nullopt;
  for (uint32_t i = 0; i < cus_; ++i) {
    const uint32_t c = (rr_ + i) % cus_;
    if (resident_[c] == per_cu_) continue;
    ++resident_[c];
    ++next_;
    rr_ = (c + 1) % cus_;
    return c;
  }
  return std::nullopt;
}

}  // namespace strobe::timing
