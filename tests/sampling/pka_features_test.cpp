// PKA's feature profile: the same features and counters whether its launch ran on one host
// thread or several.
#include "sampling/pka/features.h"

#include <gtest/gtest.h>

#include <vector>

#include "emu/emu_test_util.h"

namespace strobe::sampling {
namespace {

/// The PKA profile of emu::test::kGroupLoopStoreAsm over `groups` one-wave groups on `threads`.
PkaProfile group_loop_features(uint32_t groups, uint32_t threads) {
  emu::test::AsmLaunch l(emu::test::kGroupLoopStoreAsm, emu::test::KdSpec{}, {64 * groups, 1, 1}, {64, 1, 1});
  const uint64_t out = l.buffer({}, 64 * groups);
  l.mem.write(l.d.kernarg_address, &out, 8);
  const std::vector<timing::InstInfo> info = timing::build_inst_info(l.program, timing::InstTimingParams{});
  return profile_pka_features(l.d, l.mem, info, 64, threads);
}

TEST(PkaFeatures, FeaturesOnThreeThreadsAreTheOnesOneThreadCounts) {
  const PkaProfile one = group_loop_features(41, 1), three = group_loop_features(41, 3);
  EXPECT_EQ(three.features, one.features);
  EXPECT_EQ(three.stats.wave_instructions, one.stats.wave_instructions);
  EXPECT_EQ(three.stats.workgroups, 41u);
  EXPECT_GT(one.features[6], 0.0);  // the vector stores' share, which the split parts add up
}

}  // namespace
}  // namespace strobe::sampling
