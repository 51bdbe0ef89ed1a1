// TBPoint's run-time region sampling driven by a constructed launch: a toy dispatcher with a
// fixed number of slots, fixed group durations and a scripted GPU-wide issue rate, so every
// sampling unit's IPC and every transition is known in advance.
#include "sampling/tbpoint/state_machine.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <vector>

namespace strobe::sampling::tbpoint {
namespace {

/// Groups of 100 wave instructions: groups 0-7 at p = 0.8, 8-31 at p = 0.1, 32-39 at p = 0.8;
/// with occupancy 4 these are three regions.
LaunchProfile three_region_launch() {
  LaunchProfile l;
  for (int i = 0; i < 40; ++i) l.groups.push_back({6400, 100, (i >= 8 && i < 32) ? 10u : 80u});
  return l;
}

/// The paper's rule: warming may begin at the first unit's end (no generations awaited).
Params paper_rule() {
  Params p;
  p.open_generations = 0;
  p.open_after_l2_fill = false;
  return p;
}

/// Runs the launch on `slots` slots, each simulated group taking `duration` cycles, skipped
/// groups taking none; `issued(cycle)` is the GPU-wide issued count. Returns the end cycle.
/// Retirements at one cycle are handled in group order, each followed by refilling its slot.
uint64_t drive(RegionSampler& s, size_t groups, int slots, uint64_t duration,
               const std::function<uint64_t(uint64_t)>& issued) {
  std::multimap<uint64_t, size_t> running;  // end cycle -> group
  size_t next = 0;
  auto fill = [&](uint64_t now) {
    while (next < groups && static_cast<int>(running.size()) < slots) {
      const size_t wg = next++;
      if (s.dispatch(wg, now, issued(now)).simulate) running.emplace(now + duration, wg);
    }
  };
  fill(0);
  uint64_t now = 0;
  while (!running.empty()) {
    now = running.begin()->first;
    std::vector<size_t> done;
    for (auto it = running.begin(); it != running.end() && it->first == now;) done.push_back(it->second), it = running.erase(it);
    std::sort(done.begin(), done.end());
    for (size_t wg : done) {
      s.retire(wg, now, issued(now));
      fill(now);
    }
  }
  return now;
}

/// Issue rate 1.0/cycle before 400, 1.5 in [400, 500), 1.6 from 500: the first two warming
/// units of the middle region differ by 50%, the next two by 6.7%.
uint64_t warming_issue(uint64_t c) {
  if (c < 400) return c;
  if (c < 500) return 400 + (c - 400) * 3 / 2;
  return 550 + (c - 500) * 16 / 10;
}

TEST(TbpointStateMachine, WalksDetailedWarmingFastForwardAndExitOnAConstructedLaunch) {
  const LaunchProfile l = three_region_launch();
  const Params p = paper_rule();
  RegionSampler s(find_regions(l, 4, p), l.groups, p);
  ASSERT_EQ(s.table().regions.size(), 3u);
  const uint64_t end = drive(s, l.groups.size(), 4, 100, warming_issue);

  using S = SamplerState;
  const std::vector<Transition>& t = s.transitions();
  ASSERT_EQ(t.size(), 6u);
  // 100: group 0 (unit 1) retires with 1-3 resident, all region 0: warm region 0.
  EXPECT_EQ(t[0].cycle, 100u); EXPECT_EQ(t[0].to, S::Warming); EXPECT_EQ(t[0].region, 0);
  // 200: group 8 of region 1 is dispatched while region 0 is still warming: back to detailed.
  EXPECT_EQ(t[1].cycle, 200u); EXPECT_EQ(t[1].to, S::Detailed); EXPECT_EQ(t[1].region, 0);
  // 300: group 8 (unit 3) retires with 9-11 resident: warm region 1.
  EXPECT_EQ(t[2].cycle, 300u); EXPECT_EQ(t[2].to, S::Warming); EXPECT_EQ(t[2].region, 1);
  // Units 4 (IPC 1.0) and 5 (1.5) differ by 50%, units 5 and 6 (1.6) by 6.7%: fast-forward at 600.
  EXPECT_EQ(t[3].cycle, 600u); EXPECT_EQ(t[3].from, S::Warming); EXPECT_EQ(t[3].to, S::FastForward);
  EXPECT_EQ(t[3].region, 1);
  // Groups 24-31 are skipped at once; group 32 of region 2 exits.
  EXPECT_EQ(t[4].cycle, 600u); EXPECT_EQ(t[4].from, S::FastForward); EXPECT_EQ(t[4].to, S::Detailed);
  // 700: group 32 (unit 7) retires with 33-35 resident: warm region 2, which ends before settling.
  EXPECT_EQ(t[5].cycle, 700u); EXPECT_EQ(t[5].to, S::Warming); EXPECT_EQ(t[5].region, 2);
  EXPECT_EQ(s.state(), S::Warming);
  EXPECT_EQ(end, 800u);

  const std::vector<SamplingUnit>& u = s.units();
  ASSERT_EQ(u.size(), 8u);
  const size_t wg[] = {0, 4, 8, 12, 16, 20, 32, 36};
  const int warming[] = {-1, 0, -1, 1, 1, 1, -1, 2};
  const double ipc[] = {1.0, 1.0, 1.0, 1.0, 1.5, 1.6, 1.6, 1.6};
  for (size_t i = 0; i < u.size(); ++i) {
    EXPECT_EQ(u[i].wg, wg[i]) << i;
    EXPECT_EQ(u[i].warming_region, warming[i]) << i;
    EXPECT_DOUBLE_EQ(u[i].ipc, ipc[i]) << i;
  }

  ASSERT_EQ(s.sampled_regions().size(), 1u);
  const SampledRegion& r = s.sampled_regions()[0];
  EXPECT_EQ(r.region, 1);
  EXPECT_DOUBLE_EQ(r.ipc, 1.6);
  EXPECT_EQ(r.skipped_wgs, 8u);
  EXPECT_EQ(r.skipped_insts, 800u);

  // 800 simulated cycles plus 800 skipped instructions at 1.6 IPC.
  const LaunchEstimate e = s.estimate(end);
  EXPECT_DOUBLE_EQ(e.cycles, 1300.0);
  EXPECT_EQ(e.insts, 4000u);
  EXPECT_EQ(e.detailed_insts, 3200u);
  EXPECT_EQ(e.skipped_insts, 800u);
  EXPECT_DOUBLE_EQ(e.cpi, 1300.0 / 4000.0);
}

TEST(TbpointStateMachine, SkippedGroupsArePredictedAtTheRegionIpc) {
  const LaunchProfile l = three_region_launch();
  const Params p = paper_rule();
  RegionSampler s(find_regions(l, 4, p), l.groups, p);
  // Constant IPC 2: region 1 settles on its second warming unit.
  drive(s, l.groups.size(), 4, 100, [](uint64_t c) { return 2 * c; });
  ASSERT_EQ(s.sampled_regions().size(), 1u);
  EXPECT_DOUBLE_EQ(s.sampled_regions()[0].ipc, 2.0);
  // Warming began at 300 (units 4 and 5 ended at 400 and 500), so groups 20-31 were skipped.
  EXPECT_EQ(s.sampled_regions()[0].skipped_wgs, 12u);
  EXPECT_DOUBLE_EQ(s.estimate(0).cycles, 1200 / 2.0);  // 12 groups of 100 instructions at IPC 2
}

TEST(TbpointStateMachine, AnIpcChangeOfExactlyTenPercentIsNotStable) {
  LaunchProfile l;
  for (int i = 0; i < 8; ++i) l.groups.push_back({64, 1, 0});
  const Params p = paper_rule();
  RegionSampler s(find_regions(l, 1, p), l.groups, p);  // occupancy 1: one group at a time
  ASSERT_EQ(s.table().regions.size(), 1u);
  // Unit 1 (group 0) ends with nothing resident, so warming cannot start yet: dispatch group 1
  // first. Units then run one group each, back to back.
  s.dispatch(0, 0, 0);
  s.dispatch(1, 0, 0);  // a toy with two in flight at the start, so group 1 is resident at 100
  s.retire(0, 100, 1000);
  ASSERT_EQ(s.state(), SamplerState::Warming);
  s.dispatch(2, 100, 1000);  // unit 2 begins
  s.retire(1, 150, 1500);
  s.retire(2, 200, 2000);  // unit 2: IPC 10
  s.dispatch(3, 200, 2000);
  s.retire(3, 300, 3100);  // unit 3: IPC 11, exactly +10%
  EXPECT_EQ(s.state(), SamplerState::Warming);
  s.dispatch(4, 300, 3100);
  s.retire(4, 400, 4150);  // unit 4: IPC 10.5, -4.5%
  EXPECT_EQ(s.state(), SamplerState::FastForward);
  const WorkGroupDecision d = s.dispatch(5, 400, 4150);
  EXPECT_FALSE(d.simulate);
  EXPECT_DOUBLE_EQ(d.ipc, 10.5);
  EXPECT_DOUBLE_EQ(d.predicted_cycles, 1 / 10.5);
}

TEST(TbpointStateMachine, OutlierRegionsAreNeverEntered) {
  // Every epoch mixes tiny and huge groups: all outliers, nothing samplable.
  LaunchProfile l;
  for (int i = 0; i < 40; ++i) l.groups.push_back({6400, i % 2 ? 100u : 10u, 10});
  const Params p = paper_rule();
  RegionSampler s(find_regions(l, 2, p), l.groups, p);
  for (const Region& r : s.table().regions) ASSERT_FALSE(r.samplable);
  drive(s, l.groups.size(), 2, 100, [](uint64_t c) { return c; });
  EXPECT_TRUE(s.transitions().empty());
  EXPECT_EQ(s.estimate(2000).detailed_insts, s.estimate(2000).insts);
}

/// Forty groups of one region, run 4 at a time for 100 cycles each, while the GPU issues 2
/// instructions a cycle until 300 and 1 from then on: the first generations run ahead, as a
/// bandwidth-bound launch's do while DRAM's queues fill. Returns the IPC the region was
/// fast-forwarded at.
double fast_head_region_ipc(const Params& p, uint64_t l2_lines = 0) {
  LaunchProfile l;
  for (int i = 0; i < 40; ++i) l.groups.push_back({6400, 100, 80});
  RegionSampler s(find_regions(l, 4, p), l.groups, p, l2_lines);
  drive(s, l.groups.size(), 4, 100, [](uint64_t c) { return c < 300 ? 2 * c : 600 + (c - 300); });
  return s.sampled_regions().empty() ? 0 : s.sampled_regions()[0].ipc;
}

// The paper's rule warms on the units right after the initial fill, which agree at the fast
// IPC; waiting for the first generation to retire puts the units in the steady state.
TEST(TbpointStateMachine, WarmingAfterTheFirstGenerationMissesTheFastHead) {
  EXPECT_DOUBLE_EQ(fast_head_region_ipc(paper_rule()), 2.0);
  Params p;
  p.open_generations = 1;
  EXPECT_DOUBLE_EQ(fast_head_region_ipc(p), 1.0);
}

// Groups of 80 lines fill a 640-line L2 after 8 of them, two generations: warming waits for
// them, so it too misses the fast head. A launch that never fills the L2 waits for nothing.
TEST(TbpointStateMachine, WarmingAfterTheGroupsThatFillTheL2MissesTheFastHead) {
  Params p = paper_rule();
  p.open_after_l2_fill = true;
  EXPECT_DOUBLE_EQ(fast_head_region_ipc(p, 640), 1.0);
  EXPECT_DOUBLE_EQ(fast_head_region_ipc(p, 40 * 80), 2.0);
}

TEST(TbpointStateMachine, RejectsATableOfAnotherLaunch) {
  const LaunchProfile l = three_region_launch();
  const Params p = paper_rule();
  const std::vector<WorkGroupCounts> fewer(l.groups.begin(), l.groups.begin() + 10);
  EXPECT_THROW(RegionSampler(find_regions(l, 4, p), fewer, p), std::invalid_argument);
}

}  // namespace
}  // namespace strobe::sampling::tbpoint
