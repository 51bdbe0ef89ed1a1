// Tests of GPUMech's multithreading model (Eqs. 10, 16-25) against METHODS.md §2.4's vectors.
#include <gtest/gtest.h>

#include <vector>

#include "sampling/gpumech/multithreading.h"

namespace strobe::sampling::gpumech {
namespace {

constexpr double kTol = 1e-5;  // METHODS.md quotes five significant digits

// [D Fig. 24]: W = 4, one interval of 3 instructions and 6 stall cycles.
const std::vector<Interval> kFig24 = {{0, 3, 6, -1}};
// [D Fig. 18]: W = 3, intervals [1, 10] and [4, 10].
const std::vector<Interval> kFig18 = {{0, 1, 10, -1}, {1, 4, 10, -1}};

TEST(GpumechMultithreading, Fig24RoundRobin) {
  const Multithreading m = multithreading(kFig24, 4, Policy::RoundRobin, 1);
  EXPECT_DOUBLE_EQ(m.total_slots, 9);
  EXPECT_NEAR(m.issue_prob, 1.0 / 3, kTol);
  EXPECT_NEAR(m.total_nonoverlapped, 2, kTol);
  EXPECT_NEAR(m.cpi, 0.91667, kTol);
}

TEST(GpumechMultithreading, Fig24GreedyThenOldestIssuesNineWithThreeNonOverlapped) {
  const Multithreading m = multithreading(kFig24, 4, Policy::GreedyThenOldest, 1);
  EXPECT_NEAR(m.issue_prob, 1.0 / 3, kTol);
  EXPECT_DOUBLE_EQ(m.avg_interval_insts, 3);
  // issue_prob_in_stall = min(6/3, 1) = 1: the 3 other waves issue 9 instructions, 3 beyond the stall.
  EXPECT_NEAR(m.total_nonoverlapped, 3, kTol);
  EXPECT_NEAR(m.cpi, 1.0, kTol);
}

TEST(GpumechMultithreading, Fig24Naive) { EXPECT_NEAR(naive_cpi(kFig24, 4, 1), 0.75, kTol); }

TEST(GpumechMultithreading, Fig18RoundRobin) {
  const Multithreading m = multithreading(kFig18, 3, Policy::RoundRobin, 1);
  EXPECT_DOUBLE_EQ(m.total_slots, 25);
  EXPECT_NEAR(m.issue_prob, 0.2, kTol);
  ASSERT_EQ(m.nonoverlapped.size(), 2u);
  EXPECT_NEAR(m.nonoverlapped[0], 0, kTol);  // one instruction: no waiting slot
  EXPECT_NEAR(m.nonoverlapped[1], 1.2, kTol);
  EXPECT_NEAR(m.total_nonoverlapped, 1.2, kTol);
  EXPECT_NEAR(m.cpi, 1.74667, kTol);
}

TEST(GpumechMultithreading, Fig18GreedyThenOldest) {
  const Multithreading m = multithreading(kFig18, 3, Policy::GreedyThenOldest, 1);
  EXPECT_NEAR(m.total_nonoverlapped, 0, kTol);
  EXPECT_NEAR(m.cpi, 1.66667, kTol);
}

TEST(GpumechMultithreading, Fig18Naive) { EXPECT_NEAR(naive_cpi(kFig18, 3, 1), 1.66667, kTol); }

TEST(GpumechMultithreading, OneWaveHasNothingToOverlap) {
  for (const Policy policy : {Policy::RoundRobin, Policy::GreedyThenOldest}) {
    const Multithreading m = multithreading(kFig18, 1, policy, 1);
    EXPECT_DOUBLE_EQ(m.total_nonoverlapped, 0);
    EXPECT_DOUBLE_EQ(m.cpi, 25.0 / 5);  // the wave alone
  }
}

TEST(GpumechMultithreading, MoreWavesHideMoreLatency) {
  // A latency-bound profile: long stalls, short intervals.
  const std::vector<Interval> p = {{0, 2, 40, -1}, {2, 3, 60, -1}, {5, 2, 30, -1}};
  for (const Policy policy : {Policy::RoundRobin, Policy::GreedyThenOldest}) {
    double previous = multithreading(p, 1, policy, 1).cpi;
    for (int w = 2; w <= 10; ++w) {
      const double cpi = multithreading(p, w, policy, 1).cpi;
      EXPECT_LT(cpi, previous) << "W = " << w;
      previous = cpi;
    }
  }
}

TEST(GpumechMultithreading, NonOverlapOnlyAddsToNaive) {
  const std::vector<Interval> p = {{0, 5, 4, -1}, {5, 8, 2, -1}, {13, 1, 20, -1}};
  for (const Policy policy : {Policy::RoundRobin, Policy::GreedyThenOldest}) {
    for (int w = 1; w <= 10; ++w) EXPECT_GE(multithreading(p, w, policy, 1).cpi, naive_cpi(p, w, 1) - 1e-12);
  }
}

TEST(GpumechMultithreading, GreedyThenOldestNonOverlapNeedsMoreWorkThanTheStall) {
  // Eq. 25 clamps at zero: one other wave issuing 2 instructions into a 10-cycle stall.
  const Interval i{0, 2, 10, -1};
  EXPECT_DOUBLE_EQ(nonoverlapped_gto(i, 0.5, 2, 2, 1), 0);
  // Eq. 24 caps the in-stall probability at 1: 9 other waves x 4 instructions = 36 > 10.
  EXPECT_DOUBLE_EQ(nonoverlapped_gto(i, 0.5, 4, 10, 1), 26);
}

TEST(GpumechMultithreading, EmptyProfileIsZero) {
  EXPECT_DOUBLE_EQ(multithreading({}, 4, Policy::RoundRobin, 1).cpi, 0);
  EXPECT_DOUBLE_EQ(naive_cpi({}, 4, 1), 0);
}

}  // namespace
}  // namespace strobe::sampling::gpumech
