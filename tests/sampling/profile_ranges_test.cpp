// Work-group ranges cut while a launch is profiled (SimProf's units inside large launches): the
// cut rule, the joined short tail, and block vectors that add up to the launch's.
#include "sampling/profile/ranges.h"

#include <gtest/gtest.h>

#include <vector>

#include "emu/emu_test_util.h"
#include "sampling/profile/functional_profile.h"

namespace strobe::sampling::profile {
namespace {

// Per wave: s_mov, three trips of a four-instruction loop, a barrier, v_mov, s_endpgm: 16 wave
// instructions in blocks starting at 0 (13), 5 (1) and 6 (2). Groups of two waves: 32.
const char* const kLoop = emu::test::kLoopBarrierAsm;

/// Profiles `groups` groups of the loop with ranges cut at `target` and `min_groups`.
std::pair<LaunchRecord, std::vector<WorkGroupRange>> profiled(uint32_t groups, uint64_t target, uint64_t min_groups = 1) {
  emu::test::AsmLaunch l(kLoop, emu::test::KdSpec{}, {128 * groups, 1, 1}, {128, 1, 1});
  RangeCutter cut(*l.d.program, target, min_groups);
  emu::DispatchStats stats;
  LaunchRecord r = profile_launch(l.d, l.mem, 64, stats, &cut);
  return {std::move(r), cut.take()};
}

std::vector<std::pair<uint64_t, uint64_t>> spans(const std::vector<WorkGroupRange>& rs) {
  std::vector<std::pair<uint64_t, uint64_t>> s;
  for (const WorkGroupRange& r : rs) s.emplace_back(r.first_wg, r.end_wg);
  return s;
}

TEST(RangeCutter, ARangeClosesAtTheTargetAndItsBlockVectorIsItsOwn) {
  const auto [launch, ranges] = profiled(10, 64);  // two groups per range
  ASSERT_EQ(spans(ranges), (std::vector<std::pair<uint64_t, uint64_t>>{{0, 2}, {2, 4}, {4, 6}, {6, 8}, {8, 10}}));
  for (const WorkGroupRange& r : ranges) {
    EXPECT_EQ(r.wave_insts, 64u);
    EXPECT_EQ(r.start_pc, (std::vector<uint64_t>{0, 5, 6}));
    EXPECT_EQ(r.block_insts, (std::vector<uint64_t>{52, 4, 8}));
  }
  EXPECT_EQ(*launch.blocks.find_u64(column::kWaveInsts), (std::vector<uint64_t>{260, 20, 40}));
}

TEST(RangeCutter, AShortLastRangeJoinsTheOneBeforeAndTheBlockVectorsAdd) {
  const auto [launch, ranges] = profiled(10, 96);  // three groups per range, one left over
  ASSERT_EQ(spans(ranges), (std::vector<std::pair<uint64_t, uint64_t>>{{0, 3}, {3, 6}, {6, 10}}));
  EXPECT_EQ(ranges.back().wave_insts, 128u);
  EXPECT_EQ(ranges.back().block_insts, (std::vector<uint64_t>{104, 8, 16}));
  uint64_t total = 0;
  for (const WorkGroupRange& r : ranges) total += r.wave_insts;
  EXPECT_EQ(total, launch.workgroups.sum(column::kWaveInsts));
}

TEST(RangeCutter, ARangeAlsoWaitsForItsMinimumGroupCount) {
  const auto [launch, ranges] = profiled(10, 1, 4);
  EXPECT_EQ(spans(ranges), (std::vector<std::pair<uint64_t, uint64_t>>{{0, 4}, {4, 8}, {8, 10}}));
}

TEST(RangeCutter, ALaunchUnderOneAndAHalfTargetsIsOneRange) {
  const auto [launch, ranges] = profiled(4, 100);  // 128 instructions: a 28-instruction tail joins
  ASSERT_EQ(ranges.size(), 1u);
  EXPECT_EQ(spans(ranges), (std::vector<std::pair<uint64_t, uint64_t>>{{0, 4}}));
  EXPECT_EQ(ranges[0].block_insts, *launch.blocks.find_u64(column::kWaveInsts));
}

}  // namespace
}  // namespace strobe::sampling::profile
