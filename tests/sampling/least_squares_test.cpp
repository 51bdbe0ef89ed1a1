// Tests of fit_line and StabilityDetector.
#include <gtest/gtest.h>

#include <vector>

#include "sampling/numeric/least_squares.h"

namespace strobe::sampling {
namespace {

TEST(FitLine, RecoversKnownLineExactly) {
  std::vector<double> x, y;
  for (int i = 0; i < 20; ++i) {
    x.push_back(i * 3.0 - 7.0);
    y.push_back(2.5 * x.back() - 4.0);
  }
  const LineFit f = fit_line(x.data(), y.data(), x.size());
  ASSERT_TRUE(f.ok);
  EXPECT_DOUBLE_EQ(f.slope, 2.5);
  EXPECT_DOUBLE_EQ(f.intercept, -4.0);
}

TEST(FitLine, RejectsFewerThanTwoPoints) {
  const double x[] = {1.0}, y[] = {2.0};
  EXPECT_FALSE(fit_line(x, y, 0).ok);
  EXPECT_FALSE(fit_line(x, y, 1).ok);
}

TEST(FitLine, RejectsConstantX) {
  const double x[] = {0.1, 0.1, 0.1, 0.1}, y[] = {1, 2, 3, 4};
  EXPECT_FALSE(fit_line(x, y, 4).ok);
}

TEST(FitLine, KeepsPrecisionForCycleCountsNear1e9) {
  std::vector<double> x, y;
  for (int i = 0; i < 1000; ++i) {
    x.push_back(1e9 + i * 7.0);
    y.push_back(x.back() * 1.001 + 123.0);  // an uncentred fit loses all digits of the slope here
  }
  const LineFit f = fit_line(x.data(), y.data(), x.size());
  ASSERT_TRUE(f.ok);
  EXPECT_NEAR(f.slope, 1.001, 1e-12);
  EXPECT_NEAR(f.intercept, 123.0, 1e-3);
}

TEST(StabilityDetector, NotStableBefore2nPairs) {
  StabilityDetector d(100, 0.05);
  for (int i = 0; i < 199; ++i) {
    d.add(i * 10.0, i * 10.0 + 100);
    EXPECT_FALSE(d.stable());
  }
  d.add(1990, 2090);
  EXPECT_TRUE(d.stable());
  EXPECT_EQ(d.count(), 200u);
  EXPECT_EQ(d.window(), 100u);
}

TEST(StabilityDetector, StableForConstantDuration) {
  StabilityDetector d(1000, 0.05);
  for (int i = 0; i < 5000; ++i) d.add(1e9 + i * 13.0, 1e9 + i * 13.0 + 100);
  EXPECT_TRUE(d.stable());
  EXPECT_NEAR(d.last_slope(), 1.0, 1e-9);
}

TEST(StabilityDetector, UnstableWhenDurationGrows) {
  StabilityDetector d(100, 0.05);
  for (int i = 1; i <= 1000; ++i) d.add(i * 10.0, i * 15.0);
  EXPECT_FALSE(d.stable());
  EXPECT_NEAR(d.last_slope(), 1.5, 1e-9);
}

TEST(StabilityDetector, StepChangeUnstableInsideWindowStableAfter) {
  const size_t n = 100;
  StabilityDetector d(n, 0.05);
  double t = 0;
  auto push = [&](double dur) {
    d.add(t, t + dur);
    t += 10;
  };
  for (size_t i = 0; i < 2 * n; ++i) push(100);
  EXPECT_TRUE(d.stable());
  // The step is large so that even one new pair moves the means apart by more than delta;
  // once it has left the last n but is still in the last 2n, only the means disagree.
  for (size_t i = 0; i < n + n / 2; ++i) {
    push(5000);
    EXPECT_FALSE(d.stable()) << "after " << i + 1 << " post-step pairs";
  }
  EXPECT_NEAR(d.last_slope(), 1.0, 1e-9);
  for (size_t i = n + n / 2; i < 2 * n; ++i) push(5000);
  EXPECT_TRUE(d.stable());
}

TEST(StabilityDetector, MeanDurationExact) {
  StabilityDetector d(4, 0.1);
  EXPECT_EQ(d.mean_duration(4), 0.0);
  for (int i = 1; i <= 10; ++i) d.add(100.0 * i, 100.0 * i + i);  // durations 1..10
  EXPECT_DOUBLE_EQ(d.mean_duration(1), 10.0);
  EXPECT_DOUBLE_EQ(d.mean_duration(4), (7 + 8 + 9 + 10) / 4.0);
  EXPECT_DOUBLE_EQ(d.mean_duration(8), (3 + 4 + 5 + 6 + 7 + 8 + 9 + 10) / 8.0);
  StabilityDetector e(4, 0.1);
  e.add(0, 5);
  e.add(0, 7);
  EXPECT_DOUBLE_EQ(e.mean_duration(8), 6.0);  // only two pairs seen
}

TEST(StabilityDetector, VerdictCachedBetweenLazyEvaluations) {
  const size_t n = 640;  // re-evaluates every 10 additions
  StabilityDetector d(n, 0.05);
  double t = 0;
  for (size_t i = 0; i < 2 * n; ++i, t += 10) d.add(t, t + 100);
  ASSERT_TRUE(d.stable());
  for (int i = 0; i < 9; ++i, t += 10) {
    d.add(t, t + 100000);
    EXPECT_TRUE(d.stable()) << "re-evaluated early after " << i + 1 << " additions";
  }
  d.add(t, t + 100000);
  EXPECT_FALSE(d.stable());
}

TEST(StabilityDetector, ZeroDurationStreamIsStable) {
  StabilityDetector d(10, 0.05);
  for (int i = 0; i < 20; ++i) d.add(i, i);
  EXPECT_TRUE(d.stable());
}

}  // namespace
}  // namespace strobe::sampling
