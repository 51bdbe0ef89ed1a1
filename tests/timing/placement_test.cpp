// The dispatcher's placement rule without its clock (the GPU's functional runs and GPUMech's
// cache-only simulation place work-groups by it).
#include "timing/gpu/placement.h"

#include <gtest/gtest.h>

#include <vector>

namespace strobe::timing {
namespace {

TEST(Placement, GroupsGoRoundRobinToCusWithRoom) {
  Placement p(3, 2, 8);
  std::vector<uint32_t> cus;
  while (auto c = p.place_next()) cus.push_back(*c);
  EXPECT_EQ(cus, (std::vector<uint32_t>{0, 1, 2, 0, 1, 2}));  // full: 2 per CU
  p.retire(1);
  EXPECT_EQ(p.place_next(), 1u);
  EXPECT_FALSE(p.place_next().has_value());
  p.retire(0);
  p.retire(2);
  EXPECT_EQ(p.place_next(), 2u);  // the search starts after the last placement (CU 1)
  EXPECT_TRUE(p.all_placed());
  EXPECT_FALSE(p.place_next().has_value());
}

}  // namespace
}  // namespace strobe::timing
