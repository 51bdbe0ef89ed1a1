// The aggregates of a sampling evaluation, checked against values computed by hand.
#include <gtest/gtest.h>

#include <cmath>

#include "sampling/eval/compare_stats.h"

namespace strobe::sampling {
namespace {

TEST(CompareStats, ErrorIsRelativeToTheFullCycles) {
  EXPECT_DOUBLE_EQ(error_pct(110, 100), 10.0);
  EXPECT_DOUBLE_EQ(error_pct(90, 100), 10.0);
  EXPECT_DOUBLE_EQ(error_pct(0, 0), 0.0);
  EXPECT_DOUBLE_EQ(error_pct(5, 0), 100.0);
}

TEST(CompareStats, IpcErrorIsTheFullOverTheEstimateLessOne) {
  // Same instructions, so IPC_est / IPC_full = full / estimate: an estimate 25% high has an IPC
  // 20% low, one 20% low an IPC 25% high.
  EXPECT_DOUBLE_EQ(ipc_error_pct(125, 100), 20.0);
  EXPECT_DOUBLE_EQ(ipc_error_pct(80, 100), 25.0);
  EXPECT_DOUBLE_EQ(ipc_error_pct(100, 100), 0.0);
  EXPECT_DOUBLE_EQ(ipc_error_pct(0, 100), 100.0);
  EXPECT_DOUBLE_EQ(ipc_error_pct(0, 0), 0.0);
}

TEST(CompareStats, GeomeanIpcErrorFloorsExactRunsAndSampleSizeSumsInstructions) {
  RunScore exact{100, 100, 1, 1, 1, false, 10, 100};
  RunScore off{100, 80, 1, 1, 1, false, 30, 100};  // IPC error 25%
  const Aggregate a = aggregate({exact, off});
  EXPECT_NEAR(a.geomean_ipc_error_pct, std::sqrt(kGeomeanErrorFloorPct * 25.0), 1e-12);
  EXPECT_DOUBLE_EQ(a.sample_size, 40.0 / 200.0);  // Σ detailed / Σ timed, not a mean of shares
}

TEST(CompareStats, MedianOfAnEvenCountIsTheMeanOfTheMiddleTwo) {
  EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2.0);
  EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_DOUBLE_EQ(median({}), 0.0);
  const Spread s = spread_of({2.0, 5.0, 3.0});
  EXPECT_DOUBLE_EQ(s.median, 3.0);
  EXPECT_DOUBLE_EQ(s.min, 2.0);
  EXPECT_DOUBLE_EQ(s.max, 5.0);
}

TEST(CompareStats, FallbackMeansEveryLaunchDetailed) {
  EXPECT_TRUE(is_fallback({"detailed", "detailed"}));
  EXPECT_FALSE(is_fallback({"detailed", "kernel"}));
  EXPECT_FALSE(is_fallback({}));
}

// Three runs: a long one sampled well, a short one sampled badly, and a fallback.
//   run   full cyc  est cyc  full s  sampled s  speedup  error
//   A     1000      1100     80      10         8        10%
//   B     100       70       2       1          2        30%
//   C     500       500      10      10         1        0% (fallback)
TEST(CompareStats, AggregatesOfThreeRunsWithAFallbackMatchHandComputedValues) {
  const std::vector<RunScore> runs = {
      {1000, 1100, 80, 10, 8, false},
      {100, 70, 2, 1, 2, false},
      {500, 500, 10, 10, 1, true},
  };
  const Aggregate a = aggregate(runs);
  EXPECT_EQ(a.runs, 3u);
  EXPECT_DOUBLE_EQ(a.total_speedup, 92.0 / 21.0);                // Σ full s / Σ sampled s
  EXPECT_NEAR(a.geomean_speedup, std::cbrt(8.0 * 2.0 * 1.0), 1e-12);  // (8·2·1)^(1/3) = 2.52
  EXPECT_DOUBLE_EQ(a.mean_abs_error_pct, 40.0 / 3.0);            // (10 + 30 + 0) / 3
  EXPECT_DOUBLE_EQ(a.max_abs_error_pct, 30.0);
  EXPECT_DOUBLE_EQ(a.summed_cycles_error_pct, 70.0 / 1600.0 * 100.0);  // |1670 - 1600| / 1600
  EXPECT_EQ(a.fallback_runs, 1u);
  EXPECT_EQ(a.sampled_runs, 2u);
  EXPECT_DOUBLE_EQ(a.mean_abs_error_pct_sampled, 20.0);  // (10 + 30) / 2: the fallback's 0% left out
}

TEST(CompareStats, OpposingErrorsCancelInTheSummedCyclesButNotInTheMean) {
  const Aggregate a = aggregate({{100, 120, 1, 1, 1, false}, {100, 80, 1, 1, 1, false}});
  EXPECT_DOUBLE_EQ(a.summed_cycles_error_pct, 0.0);
  EXPECT_DOUBLE_EQ(a.mean_abs_error_pct, 20.0);
}

TEST(CompareStats, AllFallbackRunsHaveNoSampledMean) {
  const Aggregate a = aggregate({{100, 100, 1, 1, 1, true}});
  EXPECT_EQ(a.sampled_runs, 0u);
  EXPECT_DOUBLE_EQ(a.mean_abs_error_pct_sampled, 0.0);
  EXPECT_EQ(aggregate({}).runs, 0u);
}

TEST(CompareStats, AFailedRunIsCountedApartAndLeftOutOfEveryOtherAggregate) {
  RunScore failed{700, 0, 50, 0, 0, false};
  failed.failure = "not implemented: something";
  const Aggregate with = aggregate({{1000, 1100, 80, 10, 8, false}, failed, {100, 70, 2, 1, 2, false}});
  const Aggregate without = aggregate({{1000, 1100, 80, 10, 8, false}, {100, 70, 2, 1, 2, false}});
  EXPECT_EQ(with.runs, 2u);
  EXPECT_EQ(with.failed_runs, 1u);
  EXPECT_EQ(without.failed_runs, 0u);
  EXPECT_DOUBLE_EQ(with.total_speedup, without.total_speedup);
  EXPECT_DOUBLE_EQ(with.mean_abs_error_pct, without.mean_abs_error_pct);
  EXPECT_DOUBLE_EQ(with.summed_cycles_error_pct, without.summed_cycles_error_pct);
  EXPECT_DOUBLE_EQ(with.geomean_speedup, without.geomean_speedup);
  const Aggregate only_failed = aggregate({failed});
  EXPECT_EQ(only_failed.runs, 0u);
  EXPECT_EQ(only_failed.failed_runs, 1u);
  EXPECT_DOUBLE_EQ(only_failed.total_speedup, 0.0);
}

}  // namespace
}  // namespace strobe::sampling
