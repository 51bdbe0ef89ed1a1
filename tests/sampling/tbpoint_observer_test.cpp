// TBPoint's region observer driven as the timing model drives it: dispatch and retirement events
// with the model's issue counter, on a real (tiny) dispatch so that skipped groups are emulated.
#include "sampling/tbpoint/observer.h"

#include <gtest/gtest.h>

#include <vector>

#include "sampling/observer_test_util.h"

namespace strobe::sampling::tbpoint {
namespace {

constexpr size_t kGroups = 8;

/// Eight one-wave groups of two instructions, no memory: one homogeneous region at occupancy 2.
struct Fixture : test::TinyLaunch {
  Fixture() : TinyLaunch(kGroups) {}
  std::vector<WorkGroupCounts> groups = std::vector<WorkGroupCounts>(kGroups, WorkGroupCounts{128, 2, 0});
  LaunchProfile profile() const {
    LaunchProfile p;
    p.groups = groups;
    return p;
  }
};

/// Asks `o` about group `id` at `cycle` as the model does; returns whether it was simulated.
bool dispatch(RegionObserver& o, Fixture& f, uint64_t id, uint64_t cycle, emu::DispatchStats& stats) {
  return f.dispatch(o, id, cycle, stats);
}

/// The paper's rule: warming may begin at the first unit's end (no generations awaited).
Params paper_rule() {
  Params p;
  p.open_generations = 0;
  p.open_after_l2_fill = false;
  return p;
}

TEST(RegionObserver, FastForwardsARegionOnceTwoUnitsAgreeAndEmulatesTheSkippedGroups) {
  Fixture f;
  const Params p = paper_rule();
  RegionObserver o(find_regions(f.profile(), 2, p), f.groups, p, /*skip=*/false);
  uint64_t issued = 0;
  o.issue_counter(&issued);
  emu::DispatchStats stats;
  // Two groups resident; each unit lasts 10 cycles with 20 instructions issued GPU-wide (IPC 2).
  EXPECT_TRUE(dispatch(o, f, 0, 0, stats));
  EXPECT_TRUE(dispatch(o, f, 1, 0, stats));
  issued = 20;
  o.workgroup_end(0, 0, 10);  // unit 1 ends in Detailed; only region 0 is resident: warming
  EXPECT_EQ(o.sampler().state(), SamplerState::Warming);
  EXPECT_TRUE(dispatch(o, f, 2, 10, stats));  // designated: the first warming unit
  issued = 40;
  o.workgroup_end(1, 0, 20);
  o.workgroup_end(2, 10, 20);  // warming unit 1: IPC 2
  EXPECT_TRUE(dispatch(o, f, 3, 20, stats));
  issued = 60;
  o.workgroup_end(3, 20, 30);  // warming unit 2: IPC 2 again, within 10%: fast-forward
  ASSERT_EQ(o.sampler().state(), SamplerState::FastForward);
  EXPECT_EQ(stats.wave_instructions, 0u);  // the model ran groups 0-3, not the observer
  for (uint64_t g = 4; g < kGroups; ++g) EXPECT_FALSE(dispatch(o, f, g, 30, stats)) << g;
  EXPECT_EQ(stats.wave_instructions, 2u * (kGroups - 4));  // skipped groups emulated
  EXPECT_EQ(stats.workgroups, kGroups - 4);
  // Estimate [T Table IV]: the simulated cycles plus 4 groups x 2 instructions at IPC 2.
  const LaunchEstimate e = o.sampler().estimate(30);
  EXPECT_DOUBLE_EQ(e.cycles, 30.0 + 8.0 / 2.0);
  EXPECT_EQ(e.skipped_insts, 8u);
}

TEST(RegionObserver, WithSkipTheSkippedGroupsAreNotRun) {
  Fixture f;
  Params p = paper_rule();
  p.ipc_stability = 10.0;  // any two units agree
  RegionObserver o(find_regions(f.profile(), 2, p), f.groups, p, /*skip=*/true);
  uint64_t issued = 0;
  o.issue_counter(&issued);
  emu::DispatchStats stats;
  dispatch(o, f, 0, 0, stats);
  dispatch(o, f, 1, 0, stats);
  issued = 10, o.workgroup_end(0, 0, 10);
  dispatch(o, f, 2, 10, stats);
  issued = 20, o.workgroup_end(1, 0, 20), o.workgroup_end(2, 10, 20);
  dispatch(o, f, 3, 20, stats);
  issued = 30, o.workgroup_end(3, 20, 30);
  ASSERT_EQ(o.sampler().state(), SamplerState::FastForward);
  EXPECT_FALSE(dispatch(o, f, 4, 30, stats));
  EXPECT_EQ(stats.wave_instructions, 0u);
}

}  // namespace
}  // namespace strobe::sampling::tbpoint
