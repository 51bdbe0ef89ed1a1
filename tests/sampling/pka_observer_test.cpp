// PKA's IPC-stability rule driven with constructed poll sequences whose IPC and launch overhead
// are known, so the window's start and the projection can be checked exactly.
#include "sampling/common/ipc_stability.h"

#include <gtest/gtest.h>

#include "emu/emu_test_util.h"
#include "emu/executor.h"

namespace strobe::sampling {
namespace {

constexpr uint64_t kInterval = 100;
constexpr uint64_t kOverhead = 1000;  // cycles from the launch to the first issued instruction
constexpr double kIpc = 10;           // instructions per cycle from the first issue on

/// Polls `o` as the model would for a launch starting at cycle 0 that issues nothing for
/// kOverhead cycles, then kIpc instructions a cycle; reports the first block (issued at
/// kOverhead) once it has ended, 50 cycles later. Stops polling at `last` or the stop.
void drive(IpcStabilityObserver& o, uint64_t last) {
  o.wave_begin(0, kOverhead - 20);
  for (uint64_t c = kInterval; c <= last && !o.stopped(); c += kInterval) {
    if (c >= kOverhead + 50 && c - kInterval < kOverhead + 50) o.basic_block(0, 0, 4, kOverhead, kOverhead + 50);
    const uint64_t insts = c > kOverhead ? uint64_t(kIpc * double(c - kOverhead)) : 0;
    o.poll(c, insts);
  }
}

// Regression: the window opened at the launch, so the cumulative IPC counted the launch
// overhead's idle cycles, rose slowly towards the steady IPC, stopped below it, and the
// projection stretched the overhead over the whole kernel.
TEST(IpcStability, WindowOpensAtTheFirstIssuedInstructionNotAtTheLaunch) {
  IpcStabilityObserver o(kInterval, 3 * kInterval, 1e-6, 0, 0, false);
  drive(o, 100000);
  ASSERT_TRUE(o.stopped());
  EXPECT_DOUBLE_EQ(o.stop_ipc(), kIpc);
  // Three samples after the first issue (at 1100, 1200, 1300) already agree exactly.
  EXPECT_EQ(o.stop_cycles(), 300u);
  EXPECT_EQ(o.lead_cycles(), kOverhead);
}

TEST(IpcStability, ProjectionAddsTheMeasuredLeadOnceAndScalesOnlyTheRest) {
  IpcStabilityObserver o(kInterval, 3 * kInterval, 1e-6, 0, 0, false);
  drive(o, 100000);
  ASSERT_TRUE(o.stopped());
  // A launch of 1,000,000 instructions at 10 per cycle after a 1000-cycle lead.
  EXPECT_EQ(o.projected_cycles(1000000), kOverhead + 100000);
}

TEST(IpcStability, FirstIssueIsTheEarliestBlockIssueWhateverTheOrderBlocksEnd) {
  IpcStabilityObserver o(kInterval, 3 * kInterval, 1e-6, 0, 0, false);
  o.poll(kInterval, 0);  // the launch began at cycle 0
  // A block issued later but shorter ends first.
  o.basic_block(1, 8, 2, 600, 650);
  o.basic_block(0, 0, 4, 500, 700);
  for (uint64_t c = 800; !o.stopped() && c < 10000; c += kInterval) o.poll(c, uint64_t(kIpc * double(c - 500)));
  ASSERT_TRUE(o.stopped());
  EXPECT_EQ(o.lead_cycles(), 500u);
  EXPECT_DOUBLE_EQ(o.stop_ipc(), kIpc);
}

TEST(IpcStability, BeforeAnyBlockEndsTheEarliestWaveStartBoundsTheFirstIssue) {
  IpcStabilityObserver o(kInterval, 3 * kInterval, 1e9, 0, 0, false);
  o.poll(kInterval, 0);
  o.wave_begin(3, 450);
  o.wave_begin(0, 400);
  EXPECT_EQ(o.lead_cycles(), 0u);  // no instruction seen yet
  o.poll(2 * kInterval + 400, 50);
  EXPECT_EQ(o.lead_cycles(), 400u);
}

TEST(IpcStability, IdleLaunchOverheadIsNotMistakenForAStableIpc) {
  // The overhead's polls see no instructions: however long, they are not samples.
  IpcStabilityObserver o(kInterval, 3 * kInterval, 1e-6, 0, 0, false);
  for (uint64_t c = kInterval; c <= 50 * kInterval; c += kInterval) o.poll(c, 0);
  EXPECT_FALSE(o.stopped());
}

TEST(IpcStability, DoesNotStopWhileTheIpcStillVaries) {
  IpcStabilityObserver o(kInterval, 3 * kInterval, 1e-6, 0, 0, false);
  o.basic_block(0, 0, 4, 0, 10);
  uint64_t insts = 0;
  for (uint64_t c = kInterval; c <= 20 * kInterval; c += kInterval) {
    insts += (c / kInterval) % 2 ? 100 : 2000;  // alternating bursts
    o.poll(c, insts);
  }
  EXPECT_FALSE(o.stopped());
}

/// A launch whose first generation of `groups` work-groups runs at twice the steady IPC, as a
/// bandwidth-bound kernel's does while DRAM's queues fill: from the first issue (cycle 0) the
/// GPU issues 20 instructions a cycle until the generation retires at `head`, then 10. Polls
/// every kInterval cycles; the generation's groups retire together at `head`, and later groups
/// one per interval.
void drive_fast_head(IpcStabilityObserver& o, uint64_t groups, uint64_t head, uint64_t last) {
  o.wave_begin(0, 0);
  o.basic_block(0, 0, 4, 0, 10);
  // The groups dispatched before the first retirement: one generation, simulated in detail.
  emu::test::AsmLaunch l("s_endpgm\n", emu::test::KdSpec{}, {64, 1, 1}, {64, 1, 1});
  emu::Executor ex(l.d, l.mem);
  emu::WorkGroup wg;
  ex.init_workgroup(wg, 0);
  emu::DispatchStats stats;
  for (uint64_t g = 0; g < groups; ++g) ASSERT_FALSE(o.predict_workgroup(ex, wg, stats, 0, 0).has_value());
  for (uint64_t c = kInterval; c <= last && !o.stopped(); c += kInterval) {
    if (c == head)
      for (uint64_t g = 0; g < groups; ++g) o.workgroup_end(g, 0, c);
    if (c > head) o.workgroup_end(groups + c, c, c);
    o.poll(c, c <= head ? 20 * c : 20 * head + 10 * (c - head));
  }
}

// Regression (relu, docs/sampling.md): the IPC from the first issue passed PKA's rule while the
// first generation still ran ahead of DRAM, and the launch was projected at twice its IPC.
TEST(IpcStability, PkasRuleStopsInAFastFirstGeneration) {
  IpcStabilityObserver o(kInterval, 3 * kInterval, 1e-6, 0, 0, true);
  drive_fast_head(o, 8, 5000, 100000);
  ASSERT_TRUE(o.stopped());
  EXPECT_DOUBLE_EQ(o.stop_ipc(), 20.0);
}

TEST(IpcStability, WindowOpenedAfterAGenerationMeasuresTheSteadyIpcAndKeepsTheHead) {
  IpcStabilityObserver o(kInterval, 3 * kInterval, 1e-6, 1, 0, true);
  drive_fast_head(o, 8, 5000, 100000);
  ASSERT_TRUE(o.stopped());
  EXPECT_DOUBLE_EQ(o.stop_ipc(), 10.0);
  // The head, 5000 cycles and 100,000 instructions, is kept as it ran; the rest at 10 a cycle.
  EXPECT_EQ(o.projection().head_cycles, 5000u);
  EXPECT_EQ(o.projection().head_insts, 100000u);
  EXPECT_EQ(o.projected_cycles(1000000), 5000u + 90000u);
  // A shorter launch of the same kernel runs at the head's own IPC.
  EXPECT_EQ(o.projected_cycles(50000), 2500u);
}

TEST(IpcStability, WindowOpensOnlyOnceTheGroupsThatFillTheL2HaveRetired) {
  // No generation awaited, but 20 groups: 8 retire at 5000, then one every 100 cycles.
  IpcStabilityObserver o(kInterval, 3 * kInterval, 1e-6, 0, 20, true);
  drive_fast_head(o, 8, 5000, 100000);
  ASSERT_TRUE(o.stopped());
  EXPECT_DOUBLE_EQ(o.stop_ipc(), 10.0);
  EXPECT_EQ(o.projection().head_cycles, 6200u);
  EXPECT_EQ(o.projection().head_insts, 20u * 5000 + 10u * 1200);
}

TEST(IpcStability, WindowNeverOpensBeforeTheGenerationsRetire) {
  IpcStabilityObserver o(kInterval, 3 * kInterval, 1e-6, 2, 0, true);
  drive_fast_head(o, 8, 5000, 5000);
  EXPECT_FALSE(o.stopped());
}

// A stop after the last group was dispatched predicts nothing: the launch runs to its end in
// detail and its measured cycles, not the projection, are its time. The projection applies
// once the stop has predicted a group.
TEST(IpcStability, ProjectsOnlyOnceTheStopHasPredictedAGroup) {
  IpcStabilityObserver o(kInterval, 3 * kInterval, 1e-6, 1, 0, true);
  drive_fast_head(o, 8, 5000, 100000);
  ASSERT_TRUE(o.stopped());
  EXPECT_EQ(o.predicted_groups(), 0u);
  EXPECT_FALSE(o.projects());
  emu::test::AsmLaunch l("s_endpgm\n", emu::test::KdSpec{}, {64, 1, 1}, {64, 1, 1});
  emu::Executor ex(l.d, l.mem);
  emu::WorkGroup wg;
  ex.init_workgroup(wg, 0);
  emu::DispatchStats stats;
  EXPECT_EQ(o.predict_workgroup(ex, wg, stats, 0, 0), std::optional<uint64_t>(0));
  EXPECT_EQ(o.predicted_groups(), 1u);
  EXPECT_TRUE(o.projects());
}

}  // namespace
}  // namespace strobe::sampling
