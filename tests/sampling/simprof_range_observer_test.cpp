// SimProf's work-group-range observer driven as the timing model drives it: which groups it
// simulates (measured ranges and their warm-ups) and the cycles it gives each measured range.
#include "sampling/simprof/range_observer.h"

#include <gtest/gtest.h>

#include <vector>

#include "sampling/observer_test_util.h"

namespace strobe::sampling::simprof {
namespace {

constexpr uint64_t kGroups = 12;

/// Twelve one-wave groups, in three ranges of four.
struct Fixture : test::TinyLaunch {
  Fixture() : TinyLaunch(kGroups) {}
  emu::DispatchStats stats;
  /// Asks `o` about group `id` at `cycle`; returns whether it is simulated.
  bool dispatch(RangeObserver& o, uint64_t id, uint64_t cycle) { return TinyLaunch::dispatch(o, id, cycle, stats); }
};

const std::vector<uint64_t> kBounds{0, 4, 8, 12};

TEST(RangeObserver, SimulatesTheMeasuredRangeWithItsWarmUpCoolDownAndPrimerAndSkipsTheRest) {
  Fixture f;
  RangeObserver o(kBounds, {false, false, true}, 2, 1, /*skip=*/false);
  std::vector<uint64_t> simulated;
  for (uint64_t g = 0; g < kGroups; ++g)
    if (f.dispatch(o, g, 10 * g)) simulated.push_back(g);
  // The primer (the launch's first two groups), the warm-up (6, 7) and the range; the cool-down
  // would follow it, but the launch ends.
  EXPECT_EQ(simulated, (std::vector<uint64_t>{0, 1, 6, 7, 8, 9, 10, 11}));
  EXPECT_EQ(o.warmup_groups(), 4u);
  // The skipped groups ran functionally.
  EXPECT_EQ(f.stats.workgroups, 4u);
}

TEST(RangeObserver, TheCoolDownFollowsAMeasuredRange) {
  Fixture f;
  RangeObserver o(kBounds, {false, true, false}, 1, 2, true);
  std::vector<uint64_t> simulated;
  for (uint64_t g = 0; g < kGroups; ++g)
    if (f.dispatch(o, g, 0)) simulated.push_back(g);
  EXPECT_EQ(simulated, (std::vector<uint64_t>{0, 3, 4, 5, 6, 7, 8, 9}));
}

TEST(RangeObserver, ALaunchsFirstRangeHasNoWarmUp) {
  Fixture f;
  RangeObserver o(kBounds, {true, false, false}, 3, 0, true);
  std::vector<uint64_t> simulated;
  for (uint64_t g = 0; g < kGroups; ++g)
    if (f.dispatch(o, g, 0)) simulated.push_back(g);
  EXPECT_EQ(simulated, (std::vector<uint64_t>{0, 1, 2, 3}));
  EXPECT_EQ(o.warmup_groups(), 0u);
  EXPECT_EQ(f.stats.workgroups, 0u);  // with skip, nothing else ran
}

TEST(RangeObserver, EveryRangeMeasuredTheirCyclesAddUpToTheLaunch) {
  Fixture f;
  RangeObserver o(kBounds, {true, true, true}, 2, 2, true);
  // Groups retire out of order: a range's cycles run from the latest retirement before it to
  // the latest through it, so they telescope to the launch's span.
  const uint64_t retire[kGroups] = {150, 120, 180, 140, 260, 300, 210, 280, 390, 350, 420, 400};
  for (uint64_t g = 0; g < kGroups; ++g) ASSERT_TRUE(f.dispatch(o, g, 100 + 10 * g));
  for (uint64_t g = 0; g < kGroups; ++g) o.workgroup_end(g, 100 + 10 * g, retire[g]);
  o.launch_end(100, 430);
  EXPECT_EQ(o.cycles(0), 180u - 100u);
  EXPECT_EQ(o.cycles(1), 300u - 180u);
  EXPECT_EQ(o.cycles(2), 430u - 300u);  // the last range runs to the launch's end
  EXPECT_EQ(o.cycles(0) + o.cycles(1) + o.cycles(2), 430u - 100u);
}

TEST(RangeObserver, AMeasuredRangeWithoutWarmUpCountsFromItsFirstDispatch) {
  Fixture f;
  RangeObserver o(kBounds, {false, true, false}, 0, 0, true);
  for (uint64_t g = 0; g < kGroups; ++g) f.dispatch(o, g, g < 4 ? 100 : 105 + g);
  for (uint64_t g = 4; g < 8; ++g) o.workgroup_end(g, 105 + g, 200 + g);
  o.launch_end(100, 207);
  EXPECT_EQ(o.cycles(1), 207u - 109u);
}

}  // namespace
}  // namespace strobe::sampling::simprof
