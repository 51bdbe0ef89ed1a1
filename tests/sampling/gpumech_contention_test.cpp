// Tests of GPUMech's contention model: MSHR queueing (Eqs. 27-29) and M/D/1 DRAM queueing
// (Eqs. 30-32), against METHODS.md §2.5's vectors.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "sampling/gpumech/contention.h"
#include "gpumech_trace_builder.h"

namespace strobe::sampling::gpumech {
namespace {

using testing::paper_units;
using testing::TraceBuilder;

constexpr double kTol = 1e-5;

// [D Fig. 25] / METHODS.md §2.5 [CHECK]: 6 MSHRs, 8 requests -> Σ ceil(j/6) = 10, delay 0.25 L.
TEST(GpumechMshr, Fig25QueueDelayIsAQuarterOfTheMissLatency) {
  EXPECT_DOUBLE_EQ(mshr_queue_delay(8, 6, 1.0), 0.25);
  EXPECT_DOUBLE_EQ(mshr_queue_delay(8, 6, 200), 50);
}

TEST(GpumechMshr, Fig25ThroughTheIntervalModel) {
  // Two compute instructions and one load of two requests that both miss L1; W = 4, 6 MSHRs.
  TraceBuilder t;
  t.compute(1);
  t.compute(1);
  t.vmem(MemAccess::Read, 200, 2, {0, 1, 0});
  ModelParams params = paper_units(4);
  params.mshrs_per_cu = 6;
  const std::vector<Interval> iv = {{0, 3, 0, -1}};
  for (const MshrDemand demand : {MshrDemand::L1MissingReads, MshrDemand::AllRequests}) {
    params.mshr_demand = demand;
    const Contention c = contention(t.trace(), iv, 200, params);
    ASSERT_EQ(c.intervals.size(), 1u);
    EXPECT_DOUBLE_EQ(c.intervals[0].core_reqs, 8);
    EXPECT_DOUBLE_EQ(c.intervals[0].exp_queue_delay, 50);
    EXPECT_DOUBLE_EQ(c.intervals[0].mshr_delay, 50);
    EXPECT_DOUBLE_EQ(c.mshr_delay, 50);
    EXPECT_DOUBLE_EQ(c.cpi_mshr, 50.0 / 3);  // Eq. 26 as written: one wave's instructions
  }
}

TEST(GpumechMshr, PerWNormalisationDividesEq26ByTheWavesSharingASimd) {
  // Fig. 25's interval again: 50 slots of MSHR delay over 3 instructions; W = 4 / 1 SIMD.
  TraceBuilder t;
  t.compute(1);
  t.compute(1);
  t.vmem(MemAccess::Read, 200, 2, {0, 1, 0});
  ModelParams params = paper_units(4);
  params.mshrs_per_cu = 6;
  params.rc_normalisation = RcNormalisation::PerW;
  const std::vector<Interval> iv = {{0, 3, 0, -1}};
  const Contention c = contention(t.trace(), iv, 200, params);
  EXPECT_DOUBLE_EQ(c.mshr_delay, 50);
  EXPECT_DOUBLE_EQ(c.cpi_mshr, 50.0 / (3 * params.waves_per_simd()));
}

TEST(GpumechMshr, ClosedFormMatchesTheSumOfEq28) {
  for (const int m : {1, 3, 6, 32}) {
    for (int n = 1; n <= 150; ++n) {
      double sum = 0;
      for (int j = 1; j <= n; ++j) sum += 7.0 * std::ceil(static_cast<double>(j) / m);
      const double expected = n <= m ? 0.0 : sum / n - 7.0;
      EXPECT_NEAR(mshr_queue_delay(n, m, 7.0), expected, 1e-9) << "n " << n << " m " << m;
    }
  }
}

TEST(GpumechMshr, NoDelayAtOrBelowCapacity) {
  EXPECT_DOUBLE_EQ(mshr_queue_delay(0, 6, 200), 0);
  EXPECT_DOUBLE_EQ(mshr_queue_delay(5.5, 6, 200), 0);
  EXPECT_DOUBLE_EQ(mshr_queue_delay(6, 6, 200), 0);
  EXPECT_DOUBLE_EQ(mshr_queue_delay(7, 6, 200), 200.0 / 7);  // (6 + 2) / 7 - 1
}

TEST(GpumechMshr, DelayGrowsWithDemand) {
  double previous = 0;
  for (int n = 7; n <= 200; ++n) {
    const double d = mshr_queue_delay(n, 6, 100);
    EXPECT_GE(d, previous) << n;
    previous = d;
  }
  EXPECT_GT(previous, 100);  // 200 requests on 6 entries wait many miss latencies
}

TEST(GpumechMshr, NoMemoryInstructionsNoDelay) {
  TraceBuilder t;
  for (int i = 0; i < 5; ++i) t.compute(10);
  ModelParams params = paper_units(64);
  params.mshrs_per_cu = 1;
  const Contention c = contention(t.trace(), std::vector<Interval>{{0, 5, 40, -1}}, 400, params);
  EXPECT_DOUBLE_EQ(c.mshr_delay, 0);
  EXPECT_DOUBLE_EQ(c.bandwidth_delay, 0);
}

// METHODS.md §2.5 [CHECK]: f = 1 GHz, L = 128 B, B = 192 GB/s -> s = 0.6667; 16 cores.
TEST(GpumechBandwidth, ServiceTimeOfPaperBaseline) {
  EXPECT_NEAR(paper_units(1).dram_service_slots(), 0.666667, kTol);
}

TEST(GpumechBandwidth, MethodsVectorBelowSaturation) {
  // Interval [10 insts, 300 stall], core_reqs = 8: λ = 0.412903, ρ = 0.275269, delay 0.12661.
  const double s = paper_units(1).dram_service_slots();
  EXPECT_NEAR(md1_queue_delay(8, 16, 310, s), 0.12661, kTol);
  // The same through the interval model: one load of 2 DRAM requests x 4 waves per CU.
  TraceBuilder t;
  t.vmem(MemAccess::Read, 420, 2, {0, 0, 1});
  for (int i = 0; i < 9; ++i) t.compute(1);
  ModelParams params = paper_units(4);
  const Contention c = contention(t.trace(), std::vector<Interval>{{0, 10, 300, -1}}, 420, params);
  const IntervalContention& ic = c.intervals[0];
  EXPECT_DOUBLE_EQ(ic.dram_core_reqs, 8);
  EXPECT_NEAR(ic.lambda, 0.412903, kTol);
  EXPECT_NEAR(ic.rho, 0.275269, kTol);
  EXPECT_NEAR(ic.bandwidth_delay, 0.12661, kTol);
  EXPECT_FALSE(ic.capped);
}

TEST(GpumechBandwidth, MethodsVectorSaturatedUsesTheCap) {
  // core_reqs = 64: ρ = 2.2 >= 1, so the delay is s x 64 x 16 / 2 = 341.33.
  const double s = paper_units(1).dram_service_slots();
  EXPECT_NEAR(md1_queue_delay(64, 16, 310, s), 341.33333, kTol);
  TraceBuilder t;
  t.vmem(MemAccess::Write, 420, 16, {0, 0, 1});  // writes count toward DRAM demand by default
  for (int i = 0; i < 9; ++i) t.compute(1);
  const Contention c = contention(t.trace(), std::vector<Interval>{{0, 10, 300, -1}}, 420, paper_units(4));
  const IntervalContention& ic = c.intervals[0];
  EXPECT_DOUBLE_EQ(ic.dram_core_reqs, 64);
  EXPECT_NEAR(ic.rho, 2.2, 0.005);  // METHODS.md states it to two digits: 1024 x 0.6667 / 310 = 2.2022
  EXPECT_NEAR(ic.bandwidth_delay, 341.33333, kTol);
  EXPECT_TRUE(ic.capped);
}

TEST(GpumechBandwidth, DelayGrowsWithUtilisationAndIsCapped) {
  const double s = 0.5;
  double previous = 0;
  for (int reqs = 1; reqs <= 200; ++reqs) {
    const double d = md1_queue_delay(reqs, 4, 100, s);
    const double cap = s * reqs * 4 / 2;
    EXPECT_LE(d, cap + 1e-12) << reqs;
    EXPECT_GT(d, previous) << reqs;
    const double rho = reqs * 4 / 100.0 * s;
    if (rho >= 1) EXPECT_DOUBLE_EQ(d, cap) << reqs;
    previous = d;
  }
}

TEST(GpumechBandwidth, NoRequestsNoDelay) { EXPECT_DOUBLE_EQ(md1_queue_delay(0, 16, 100, 0.7), 0); }

// The demand switches (METHODS.md §2.5 [INTERP]).
class GpumechDemand : public ::testing::Test {
 protected:
  GpumechDemand() {
    t.vmem(MemAccess::Read, 0, 4, {0.5, 0.25, 0.25});  // half its requests leave L1
    t.vmem(MemAccess::Write, 0, 8, {0, 0, 1});         // a divergent store, all to DRAM
    t.vmem(MemAccess::Read, 0, 4, {1, 0, 0});          // always hits L1
    TraceInst smem;
    smem.cls = InstClass::ScalarMemory;
    smem.access = MemAccess::Read;
    smem.requests = 1;
    smem.miss = {0, 0, 1};
    t_scalar = smem;
  }
  TraceBuilder t;
  TraceInst t_scalar;
};

TEST_F(GpumechDemand, L1MissingReadsCountsExpectedMissingReadRequests) {
  ModelParams p;
  p.mshr_demand = MshrDemand::L1MissingReads;
  const IntervalDemand d = interval_demand(t.trace(), {0, 3, 0, -1}, p);
  EXPECT_DOUBLE_EQ(d.mshr_reqs, 2);
  EXPECT_DOUBLE_EQ(d.mshr_insts, 1);
}

TEST_F(GpumechDemand, AllRequestsCountsEveryVectorRequest) {
  ModelParams p;
  p.mshr_demand = MshrDemand::AllRequests;
  const IntervalDemand d = interval_demand(t.trace(), {0, 3, 0, -1}, p);
  EXPECT_DOUBLE_EQ(d.mshr_reqs, 16);
  EXPECT_DOUBLE_EQ(d.mshr_insts, 3);
}

TEST_F(GpumechDemand, DramRequestsIncludeWritesAndScalarMisses) {
  WaveTrace w = t.trace();
  w.insts.push_back(t_scalar);
  ModelParams p;
  p.dram_demand = DramDemand::DramRequests;
  EXPECT_DOUBLE_EQ(interval_demand(w, {0, 4, 0, -1}, p).dram_reqs, 4 * 0.25 + 8 + 1);
}

TEST_F(GpumechDemand, SameAsMshrFollowsTheMshrReading) {
  ModelParams p;
  p.dram_demand = DramDemand::SameAsMshr;
  p.mshr_demand = MshrDemand::L1MissingReads;
  EXPECT_DOUBLE_EQ(interval_demand(t.trace(), {0, 3, 0, -1}, p).dram_reqs, 2);
  p.mshr_demand = MshrDemand::AllRequests;
  EXPECT_DOUBLE_EQ(interval_demand(t.trace(), {0, 3, 0, -1}, p).dram_reqs, 16);
}

TEST_F(GpumechDemand, OnlyTheIntervalsOwnInstructionsCount) {
  ModelParams p;
  p.mshr_demand = MshrDemand::AllRequests;
  EXPECT_DOUBLE_EQ(interval_demand(t.trace(), {1, 1, 0, -1}, p).mshr_reqs, 8);
}

}  // namespace
}  // namespace strobe::sampling::gpumech
