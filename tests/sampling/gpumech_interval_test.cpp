// Tests of GPUMech's interval algorithm (Eq. 13) and s_waitcnt dependencies.
#include <gtest/gtest.h>

#include <stdexcept>

#include "sampling/gpumech/interval.h"
#include "sampling/gpumech/latency.h"
#include "gpumech_trace_builder.h"

namespace strobe::sampling::gpumech {
namespace {

using testing::paper_units;
using testing::TraceBuilder;

const MissEvents kDramMiss{0, 0, 1};

// METHODS.md §2.2 [CHECK]: i1, i2 (latency 1), i3 = load (10), i4 independent, i5 uses i3.
TEST(GpumechInterval, MethodsWorkedTraceGivesNineStallCycles) {
  TraceBuilder t;
  t.compute(1);
  t.compute(1);
  const uint32_t load = t.vmem(MemAccess::Read, 10, 1, kDramMiss);
  t.compute(1);
  t.compute(1, {load});
  const IntervalProfile p = interval_profile(t.trace(), paper_units(1));
  ASSERT_EQ(p.issue.size(), 5u);
  EXPECT_DOUBLE_EQ(p.issue[0], 0);
  EXPECT_DOUBLE_EQ(p.issue[1], 1);
  EXPECT_DOUBLE_EQ(p.issue[2], 2);
  EXPECT_DOUBLE_EQ(p.issue[3], 3);
  EXPECT_DOUBLE_EQ(p.done[2], 12);
  EXPECT_DOUBLE_EQ(p.issue[4], 13);
  ASSERT_EQ(p.intervals.size(), 2u);
  EXPECT_EQ(p.intervals[0].first, 0u);
  EXPECT_EQ(p.intervals[0].insts, 4u);
  EXPECT_DOUBLE_EQ(p.intervals[0].stall, 9);
  EXPECT_EQ(p.intervals[0].cause, load);
  EXPECT_EQ(p.intervals[1].first, 4u);
  EXPECT_EQ(p.intervals[1].insts, 1u);
  EXPECT_DOUBLE_EQ(p.intervals[1].stall, 0);  // the trailing interval, without drain
  EXPECT_DOUBLE_EQ(total_slots(p.intervals, 1), 14);
  EXPECT_DOUBLE_EQ(wave_perf(p.intervals, 1), 5.0 / 14);
}

TEST(GpumechInterval, IndependentInstructionsFormOneInterval) {
  TraceBuilder t;
  for (int i = 0; i < 6; ++i) t.compute(50);
  const IntervalProfile p = interval_profile(t.trace(), paper_units(1));
  ASSERT_EQ(p.intervals.size(), 1u);
  EXPECT_EQ(p.intervals[0].insts, 6u);
  EXPECT_EQ(p.intervals[0].stall, 0);
  EXPECT_EQ(p.intervals[0].cause, -1);
}

TEST(GpumechInterval, ProducerDoneBeforeNextSlotCausesNoStall) {
  TraceBuilder t;
  const uint32_t a = t.compute(0);  // e.g. VALU to VALU, hidden by the issue cadence
  t.compute(0, {a});
  const IntervalProfile p = interval_profile(t.trace(), paper_units(1));
  EXPECT_EQ(p.intervals.size(), 1u);
  EXPECT_DOUBLE_EQ(p.issue[1], 1);
}

TEST(GpumechInterval, LatestOfSeveralProducersBindsTheIssue) {
  TraceBuilder t;
  const uint32_t slow = t.compute(20);
  const uint32_t fast = t.compute(3);
  const uint32_t use = t.compute(1, {fast, slow});
  const IntervalProfile p = interval_profile(t.trace(), paper_units(1));
  EXPECT_DOUBLE_EQ(p.issue[use], 21);
  ASSERT_EQ(p.intervals.size(), 2u);
  EXPECT_DOUBLE_EQ(p.intervals[0].stall, 19);
  EXPECT_EQ(p.intervals[0].cause, slow);
}

TEST(GpumechInterval, LatencyIsMeasuredInIssueSlots) {
  TraceBuilder t;
  const uint32_t load = t.vmem(MemAccess::Read, 40, 1, kDramMiss);  // 40 cycles = 10 slots of 4
  t.compute(0, {load});
  ModelParams gcn;  // default: 4-cycle slots
  const IntervalProfile p = interval_profile(t.trace(), gcn);
  EXPECT_DOUBLE_EQ(p.issue[1], 11);
  EXPECT_DOUBLE_EQ(p.intervals[0].stall, 10);
}

TEST(GpumechInterval, DrainGivesTrailingIntervalItsLastResult) {
  TraceBuilder t;
  t.compute(1);
  t.compute(1);
  const uint32_t last = t.compute(6);  // issued at 2, done at 8
  ModelParams params = paper_units(1);
  EXPECT_DOUBLE_EQ(interval_profile(t.trace(), params).intervals.back().stall, 0);
  params.include_drain = true;
  const IntervalProfile p = interval_profile(t.trace(), params);
  ASSERT_EQ(p.intervals.size(), 1u);
  EXPECT_DOUBLE_EQ(p.intervals[0].stall, 6);
  EXPECT_EQ(p.intervals[0].cause, last);
}

TEST(GpumechInterval, RejectsProducerThatIsNotEarlier) {
  WaveTrace w;
  w.insts.resize(2);
  w.insts[0].producers = {1};
  EXPECT_THROW(interval_profile(w, paper_units(1)), std::invalid_argument);
}

// §2.9.3: vmcnt(N) waits for every vector memory operation older than the N most recent.
TEST(GpumechWaitcnt, VmcntWaitsForAllButTheNewestN) {
  TraceBuilder t;
  const uint32_t a = t.vmem(MemAccess::Read, 100, 1, kDramMiss);  // issue 0, done 100
  t.vmem(MemAccess::Read, 30, 1, kDramMiss);                      // issue 1, done 31
  t.vmem(MemAccess::Read, 500, 1, kDramMiss);                     // issue 2, done 502
  const uint32_t w1 = t.waitcnt(1);                               // a and b must be done
  const IntervalProfile p = interval_profile(t.trace(), paper_units(1));
  EXPECT_DOUBLE_EQ(p.issue[w1], 101);
  EXPECT_EQ(p.intervals[0].cause, a);
}

TEST(GpumechWaitcnt, VmcntInOrderRetirementHoldsYoungerFastOps) {
  // The younger load is done long before the older one, but in-order retirement means vmcnt(0)
  // waits for the older one; vmcnt(1) waits only for the older one too.
  TraceBuilder t;
  const uint32_t old_slow = t.vmem(MemAccess::Read, 200, 1, kDramMiss);
  t.vmem(MemAccess::Write, 5, 1, kDramMiss);  // stores count in vmcnt as well
  t.waitcnt(1);
  const IntervalProfile p = interval_profile(t.trace(), paper_units(1));
  EXPECT_DOUBLE_EQ(p.issue[2], 201);
  EXPECT_EQ(p.intervals[0].cause, old_slow);
}

TEST(GpumechWaitcnt, VmcntAtOrAboveOutstandingCountDoesNotWait) {
  TraceBuilder t;
  t.vmem(MemAccess::Read, 300, 1, kDramMiss);
  t.vmem(MemAccess::Read, 300, 1, kDramMiss);
  t.waitcnt(2);
  const IntervalProfile p = interval_profile(t.trace(), paper_units(1));
  EXPECT_DOUBLE_EQ(p.issue[2], 2);
  EXPECT_EQ(p.intervals.size(), 1u);
}

TEST(GpumechWaitcnt, LgkmcntCountsLdsAndScalarMemoryNotVectorMemory) {
  TraceBuilder t;
  t.vmem(MemAccess::Read, 400, 1, kDramMiss);      // done 400: vmcnt only
  const uint32_t lds = t.lgkm(InstClass::Lds, 60);  // done 61
  t.lgkm(InstClass::ScalarMemory, 10);              // done 12
  const uint32_t w = t.waitcnt(kNoWait, 0);
  const IntervalProfile p = interval_profile(t.trace(), paper_units(1));
  EXPECT_DOUBLE_EQ(p.issue[w], 62);
  EXPECT_EQ(p.intervals[0].cause, lds);
}

TEST(GpumechWaitcnt, BothCountersTakeTheLaterBound) {
  TraceBuilder t;
  t.vmem(MemAccess::Read, 40, 1, kDramMiss);         // done 40
  const uint32_t s = t.lgkm(InstClass::ScalarMemory, 90);  // done 91
  const uint32_t w = t.waitcnt(0, 0);
  const IntervalProfile p = interval_profile(t.trace(), paper_units(1));
  EXPECT_DOUBLE_EQ(p.issue[w], 92);
  EXPECT_EQ(p.intervals[0].cause, s);
}

// [D §4.5.2] / METHODS.md §2.1 [CHECK]: 0.9 x 120 + 0.1 x 420 = 150 cycles.
TEST(GpumechLatency, AmatOfDissertationExampleIs150) {
  const ModelParams p;  // L2 120, L2 miss 420
  EXPECT_DOUBLE_EQ(amat({0, 0.9, 0.1}, p), 150);
}

TEST(GpumechLatency, AverageMissLatencyWeighsMissesOnly) {
  const ModelParams p;  // L1 25, L2 120, DRAM 420
  TraceBuilder t;
  t.vmem(MemAccess::Read, 0, 1, {1, 0, 0});      // never leaves L1: no weight
  t.vmem(MemAccess::Read, 0, 1, {0, 1, 0});      // one L2 hit
  t.vmem(MemAccess::Read, 0, 1, {0.5, 0, 0.5});  // half a DRAM access
  const WaveTrace w = t.trace();
  EXPECT_DOUBLE_EQ(avg_miss_latency({&w, 1}, p), (120 + 0.5 * 420) / 1.5);
}

}  // namespace
}  // namespace strobe::sampling::gpumech
