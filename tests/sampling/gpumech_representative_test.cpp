// Tests of GPUMech's representative-wave selection (Eqs. 14-15, k-means with k = 2).
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "sampling/gpumech/representative.h"
#include "gpumech_trace_builder.h"

namespace strobe::sampling::gpumech {
namespace {

using testing::paper_units;

/// A profile of `n` intervals of `insts` instructions, each followed by `stall` slots.
IntervalProfile profile(int n, uint32_t insts, double stall) {
  IntervalProfile p;
  for (int i = 0; i < n; ++i) p.intervals.push_back({static_cast<uint32_t>(i) * insts, insts, stall, -1});
  return p;
}

TEST(GpumechRepresentative, FeaturesAreNormalisedByTheirMeans) {
  // perf 10/20 = 0.5 and 10/(10+30) = 0.25 (mean 0.375); insts 10 and 30 (mean 20).
  const std::vector<IntervalProfile> p = {profile(1, 10, 10), profile(3, 10, 10)};
  const std::vector<IntervalProfile> q = {profile(1, 10, 10), profile(1, 10, 30)};
  const Eigen::MatrixXd f = wave_features(p, 1);
  EXPECT_DOUBLE_EQ(f(0, 0), 1);  // same perf
  EXPECT_DOUBLE_EQ(f(0, 1), 0.5);
  EXPECT_DOUBLE_EQ(f(1, 1), 1.5);
  const Eigen::MatrixXd g = wave_features(q, 1);
  EXPECT_DOUBLE_EQ(g(0, 0), 0.5 / 0.375);
  EXPECT_DOUBLE_EQ(g(1, 0), 0.25 / 0.375);
  EXPECT_DOUBLE_EQ(g(0, 1), 1);
}

TEST(GpumechRepresentative, PicksTheMajorityClusterWaveNearestItsCentre) {
  // Seven ordinary waves around 10 intervals (one exactly at their mean) and two outliers that
  // ran far longer (a divergent loop): the representative must be the ordinary mean wave.
  std::vector<IntervalProfile> p;
  for (const int n : {9, 11, 10, 9, 11, 10, 10}) p.push_back(profile(n, 4, 12));
  p.push_back(profile(80, 4, 40));
  p.push_back(profile(85, 4, 40));
  ModelParams params = paper_units(4);
  const Representative r = choose_representative(p, params);
  EXPECT_EQ(r.considered.size(), 9u);
  ASSERT_EQ(r.cluster.size(), 9u);
  EXPECT_NE(r.cluster[7], r.majority);
  EXPECT_NE(r.cluster[8], r.majority);
  for (size_t w = 0; w < 7; ++w) EXPECT_EQ(r.cluster[w], r.majority) << w;
  // Waves 2, 5 and 6 are identical and nearest the centre; the earliest wins.
  EXPECT_EQ(r.wave, 2u);
}

TEST(GpumechRepresentative, MaxAndMinTakeTheExtremePerformance) {
  const std::vector<IntervalProfile> p = {profile(4, 4, 20), profile(4, 4, 4), profile(4, 4, 80)};
  ModelParams params = paper_units(1);
  params.representative = RepresentativeChoice::MaxPerf;
  EXPECT_EQ(choose_representative(p, params).wave, 1u);
  params.representative = RepresentativeChoice::MinPerf;
  EXPECT_EQ(choose_representative(p, params).wave, 2u);
}

TEST(GpumechRepresentative, WavesWithoutInstructionsAreSkipped) {
  const std::vector<IntervalProfile> p = {IntervalProfile{}, profile(3, 2, 5)};
  const Representative r = choose_representative(p, paper_units(1));
  EXPECT_EQ(r.wave, 1u);
  EXPECT_EQ(r.considered, std::vector<size_t>{1});
}

TEST(GpumechRepresentative, NoInstructionsAnywhereIsAnError) {
  const std::vector<IntervalProfile> p = {IntervalProfile{}, IntervalProfile{}};
  EXPECT_THROW(choose_representative(p, paper_units(1)), std::invalid_argument);
}

TEST(GpumechRepresentative, DeterministicForTheSameSeed) {
  std::vector<IntervalProfile> p;
  for (int i = 0; i < 40; ++i) p.push_back(profile(5 + i % 7, 3 + i % 3, 10 + (i * 7) % 13));
  const ModelParams params = paper_units(8);
  const Representative a = choose_representative(p, params), b = choose_representative(p, params);
  EXPECT_EQ(a.wave, b.wave);
  EXPECT_EQ(a.cluster, b.cluster);
}

}  // namespace
}  // namespace strobe::sampling::gpumech
