// Tests of GPUMech's CPI stack (D §4.7, Table 9).
#include <gtest/gtest.h>

#include "sampling/gpumech/cpi_stack.h"
#include "sampling/gpumech/interval.h"
#include "gpumech_trace_builder.h"

namespace strobe::sampling::gpumech {
namespace {

using testing::paper_units;
using testing::TraceBuilder;

// [D §4.7]: 100 stall cycles behind a PC with L2 hit 10% and L2 miss 90% -> 10 to L2, 90 to DRAM.
TEST(GpumechCpiStack, MemoryStallSplitsByMissEvents) {
  TraceBuilder t;
  const uint32_t load = t.vmem(MemAccess::Read, 100, 1, {0, 0.1, 0.9});
  t.compute(1, {load});
  const IntervalProfile p = interval_profile(t.trace(), paper_units(1));
  ASSERT_DOUBLE_EQ(p.intervals[0].stall, 100);
  const CpiStack s = representative_stack(t.trace(), p.intervals, 1);
  // Per instruction over the wave's 2 instructions.
  EXPECT_DOUBLE_EQ(s.base, 1);
  EXPECT_DOUBLE_EQ(s.l2 * 2, 10);
  EXPECT_DOUBLE_EQ(s.dram * 2, 90);
  EXPECT_DOUBLE_EQ(s.l1, 0);
  EXPECT_DOUBLE_EQ(s.dep, 0);
}

TEST(GpumechCpiStack, ComputeAndLdsStallsAreDependencies) {
  TraceBuilder t;
  const uint32_t mul = t.compute(8);
  t.compute(0, {mul});
  t.lgkm(InstClass::Lds, 30);
  t.waitcnt(kNoWait, 0);
  const IntervalProfile p = interval_profile(t.trace(), paper_units(1));
  const CpiStack s = representative_stack(t.trace(), p.intervals, 1);
  EXPECT_DOUBLE_EQ(s.dep * 4, 8 + 30);
  EXPECT_DOUBLE_EQ(s.l1 + s.l2 + s.dram, 0);
}

TEST(GpumechCpiStack, RepresentativeStackSumsToItsCpiAlone) {
  TraceBuilder t;
  const uint32_t a = t.vmem(MemAccess::Read, 77, 2, {0.3, 0.3, 0.4});
  t.compute(1);
  const uint32_t b = t.compute(12, {a});
  const uint32_t c = t.vmem(MemAccess::Read, 25, 1, {1, 0, 0}, {b});
  t.compute(0, {c});
  const IntervalProfile p = interval_profile(t.trace(), paper_units(1));
  const CpiStack s = representative_stack(t.trace(), p.intervals, 1);
  EXPECT_NEAR(s.total(), total_slots(p.intervals, 1) / 5, 1e-12);
  EXPECT_GT(s.l1, 0);
  EXPECT_GT(s.dram, 0);
  EXPECT_GT(s.dep, 0);
}

TEST(GpumechCpiStack, FinalStackShrinksToMultithreadingAndAddsQueueing) {
  const CpiStack rep{1, 2, 0.5, 0.5, 4, 0, 0};  // CPI alone 8
  const CpiStack s = final_stack(rep, 2, 0.3, 0.7);
  EXPECT_DOUBLE_EQ(s.base, 0.25);
  EXPECT_DOUBLE_EQ(s.dep, 0.5);
  EXPECT_DOUBLE_EQ(s.dram, 1);
  EXPECT_DOUBLE_EQ(s.mshr, 0.3);
  EXPECT_DOUBLE_EQ(s.queue, 0.7);
  EXPECT_DOUBLE_EQ(s.total(), 3);
}

}  // namespace
}  // namespace strobe::sampling::gpumech
