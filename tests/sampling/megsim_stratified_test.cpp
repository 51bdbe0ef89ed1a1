// megsim-stratified: MEGsim's clusters as strata of a random sample of frames, with Neyman
// allocation by the clusters' spread of functional work and an interval on every total.
#include <gtest/gtest.h>

#include <cmath>

#include "sampling/megsim/stratified_frames.h"
#include "sampling/numeric/mix.h"

namespace strobe::sampling::megsim {
namespace {

/// Two clusters: 40 alike frames (work 100) and 60 frames whose work spreads from 100 to 690.
FrameSelection two_clusters(std::vector<double>& proxy) {
  FrameSelection s;
  s.clusters.resize(2);
  for (size_t r = 0; r < 100; ++r) {
    const bool flat = r < 40;
    proxy.push_back(flat ? 100.0 : 100.0 + 10.0 * double(r - 40));
    s.clusters[flat ? 0 : 1].members.push_back(r);
  }
  s.clusters[0].representative = 0;
  s.clusters[1].representative = 70;
  return s;
}

TEST(MegsimStratified, NeymanAllocationDrawsTheSpreadClusterHarderAndEveryClusterTwice) {
  std::vector<double> proxy;
  const FrameSelection s = two_clusters(proxy);
  const StratifiedFrames d = draw_stratified_frames(s, proxy, 12, 7);
  ASSERT_EQ(d.rows.size(), 2u);
  EXPECT_EQ(d.rows[0].size(), 2u) << "no spread: the minimum of two";
  EXPECT_GE(d.rows[1].size(), 10u);
  EXPECT_DOUBLE_EQ(d.proxy_sd[0], 0.0);
  for (size_t h = 0; h < 2; ++h)
    for (size_t r : d.rows[h])
      EXPECT_NE(std::find(s.clusters[h].members.begin(), s.clusters[h].members.end(), r), s.clusters[h].members.end());
  // The same seed draws the same frames; another seed other frames.
  EXPECT_EQ(draw_stratified_frames(s, proxy, 12, 7).rows, d.rows);
  EXPECT_NE(draw_stratified_frames(s, proxy, 12, 8).rows, d.rows);
}

TEST(MegsimStratified, AStatisticProportionalToWorkIsEstimatedExactlyByTheRatioEstimator) {
  std::vector<double> proxy;
  const FrameSelection s = two_clusters(proxy);
  const StratifiedFrames d = draw_stratified_frames(s, proxy, 8, 3);
  double truth = 0;
  for (double p : proxy) truth += 3 * p;
  const StratifiedTotal t = estimate_stratified_total(s, d, proxy, [&](size_t r) { return 3 * proxy[r]; }, 0.95);
  EXPECT_EQ(t.estimator, "ratio");
  EXPECT_NEAR(t.estimate.total, truth, 1e-6 * truth);
  EXPECT_NEAR(t.estimate.half_width, 0.0, 1e-6 * truth);
}

TEST(MegsimStratified, FramesWithNoWorkFallBackToTheExpansionEstimator) {
  std::vector<double> proxy;
  FrameSelection s = two_clusters(proxy);
  for (size_t r : s.clusters[0].members) proxy[r] = 0;  // loading frames: no draws
  const StratifiedFrames d = draw_stratified_frames(s, proxy, 8, 3);
  const StratifiedTotal t = estimate_stratified_total(s, d, proxy, [&](size_t r) { return 5.0 + proxy[r]; }, 0.95);
  EXPECT_EQ(t.estimator, "expansion");
  double truth = 0;
  for (double p : proxy) truth += 5.0 + p;
  EXPECT_LE(std::abs(t.estimate.total - truth), 4 * t.estimate.total_se + 1e-9);
}

TEST(MegsimStratified, NinetyFivePercentIntervalsCoverTheTrueTotalAboutNinetyFivePercentOfTheTime) {
  // Cycles that follow work with noise (sd 8% of the frame's cycles): over 1000 seeds, the
  // intervals hold the known total in 90-98% of draws (the t interval at the Satterthwaite df
  // allows for the variance estimated from a few frames per cluster).
  std::vector<double> proxy;
  const FrameSelection s = two_clusters(proxy);
  std::vector<double> cycles;
  double truth = 0;
  uint64_t state = 11;
  for (double p : proxy) {
    // A sum of uniforms: roughly normal noise, fixed on every platform.
    double u = 0;
    for (int i = 0; i < 12; ++i) u += double(splitmix64(state) >> 11) * 0x1.0p-53;
    cycles.push_back(2.5 * p * (1 + 0.08 * (u - 6)) + 40);
    truth += cycles.back();
  }
  int covered = 0;
  constexpr int kDraws = 1000;
  for (int seed = 0; seed < kDraws; ++seed) {
    const StratifiedFrames d = draw_stratified_frames(s, proxy, 16, uint64_t(seed));
    const StratifiedTotal t = estimate_stratified_total(s, d, proxy, [&](size_t r) { return cycles[r]; }, 0.95);
    covered += std::abs(t.estimate.total - truth) <= t.estimate.half_width;
  }
  EXPECT_GE(covered, 900) << covered << " of " << kDraws;
  EXPECT_LE(covered, 980) << covered << " of " << kDraws;
}

}  // namespace
}  // namespace strobe::sampling::megsim
