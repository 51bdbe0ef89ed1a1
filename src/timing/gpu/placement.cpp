#include "timing/gpu/placement.h"

#include <algorithm>
#include <deque>

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

std::vector<uint32_t> functional_placement(uint32_t cus, uint32_t groups_per_cu, uint64_t groups) {
  Placement place(cus, groups_per_cu, groups);
  std::deque<uint32_t> resident;  // the CUs of the resident groups, oldest first
  std::vector<uint32_t> cu_of(groups);
  for (uint64_t id = 0; id < groups; ++id) {
    std::optional<uint32_t> cu = place.place_next();
    for (; !cu; cu = place.place_next()) {  // full: the oldest group retires
      place.retire(resident.front());
      resident.pop_front();
    }
    resident.push_back(*cu);
    cu_of[id] = *cu;
  }
  return cu_of;
}

}  // namespace strobe::timing
