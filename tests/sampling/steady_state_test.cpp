// Where a launch's steady state can begin: the groups whose requests fill the L2.
#include "sampling/common/steady_state.h"

#include <gtest/gtest.h>

#include <vector>

namespace strobe::sampling {
namespace {

TEST(SteadyState, TheL2HoldsItsCapacityOverTheLineSize) {
  timing::GpuConfig cfg;
  cfg.l2_size_kb = 2048;
  cfg.line_bytes = 64;
  EXPECT_EQ(l2_lines(cfg), 32768u);
}

TEST(SteadyState, EvenGroupsFillTheL2AfterItsLinesOverEachGroupsShare) {
  // relu at 16 M elements: 65,536 groups of 32 lines each fill a 32,768-line L2 after 1,024.
  EXPECT_EQ(l2_fill_groups(65536ull * 32, 65536, 32768), 1024u);
  // A share that does not divide the L2: the group that completes it counts.
  EXPECT_EQ(l2_fill_groups(3000, 1000, 100), 34u);
}

TEST(SteadyState, ALaunchThatNeverFillsTheL2WaitsForNoGroup) {
  EXPECT_EQ(l2_fill_groups(32768, 1024, 32768), 0u);
  EXPECT_EQ(l2_fill_groups(0, 1024, 32768), 0u);
  EXPECT_EQ(l2_fill_groups(100, 0, 32768), 0u);
  EXPECT_EQ(l2_fill_groups(std::vector<uint64_t>{10, 10, 0}, 20), 0u);
}

TEST(SteadyState, UnevenGroupsFillTheL2AtTheirRunningSum) {
  // The first two groups request little; the third completes the 100 lines.
  EXPECT_EQ(l2_fill_groups(std::vector<uint64_t>{1, 1, 98, 50}, 100), 3u);
  EXPECT_EQ(l2_fill_groups(std::vector<uint64_t>{200, 1}, 100), 1u);
}

}  // namespace
}  // namespace strobe::sampling
