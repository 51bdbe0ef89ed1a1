// TBPoint's inter-launch features, clustering, representatives and extrapolation on launches
// whose normalised features are computed by hand.
#include "sampling/tbpoint/inter_launch.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace strobe::sampling::tbpoint {
namespace {

/// A launch of `kernel` with one group per entry of `threads`; wave instructions and memory
/// requests are given per group too (default: threads / 64 and threads / 128).
LaunchProfile launch(const char* kernel, std::vector<uint64_t> threads, std::vector<uint64_t> waves = {},
                     std::vector<uint64_t> mem = {}) {
  LaunchProfile l;
  l.kernel = kernel;
  l.local = {64, 1, 1};
  l.grid = {static_cast<uint32_t>(64 * threads.size()), 1, 1};
  for (size_t i = 0; i < threads.size(); ++i)
    l.groups.push_back({threads[i], waves.empty() ? threads[i] / 64 : waves[i], mem.empty() ? threads[i] / 128 : mem[i]});
  return l;
}

TEST(TbpointInterLaunch, CvOfGroupSizeIsThePopulationCoefficientOfVariation) {
  EXPECT_DOUBLE_EQ(cv_group_size(launch("k", {100, 300})), 0.5);  // std 100 (not 141 = sample std)
  EXPECT_DOUBLE_EQ(cv_group_size(launch("k", {200, 400})), 1.0 / 3.0);
  EXPECT_EQ(cv_group_size(launch("k", {640, 640, 640})), 0.0);
  EXPECT_EQ(cv_group_size(launch("k", {})), 0.0);
  EXPECT_EQ(cv_group_size(launch("k", {0, 0})), 0.0);
}

TEST(TbpointInterLaunch, FeaturesAreNormalisedByTheScopeAverageExceptTheCv) {
  const std::vector<LaunchProfile> ls{launch("k", {100, 300}, {2, 4}, {1, 0}), launch("k", {200, 400}, {3, 6}, {2, 2}),
                                      launch("k", {500}, {10}, {3})};
  const Eigen::MatrixXd f = launch_features(ls, false);
  ASSERT_EQ(f.rows(), 3);
  ASSERT_EQ(f.cols(), kLaunchFeatures);
  // Thread insts 400, 600, 500 (avg 500); wave 6, 9, 10 (avg 25/3); mem 1, 4, 3 (avg 8/3).
  const double expect[3][4] = {{0.8, 6 / (25 / 3.0), 1 / (8 / 3.0), 0.5},
                               {1.2, 9 / (25 / 3.0), 4 / (8 / 3.0), 1.0 / 3.0},
                               {1.0, 10 / (25 / 3.0), 3 / (8 / 3.0), 0.0}};
  for (int i = 0; i < 3; ++i)
    for (int c = 0; c < 4; ++c) EXPECT_NEAR(f(i, c), expect[i][c], 1e-12) << i << "," << c;
}

TEST(TbpointInterLaunch, AFeatureAbsentFromTheWholeScopeIsZeroNotNan) {
  const std::vector<LaunchProfile> ls{launch("k", {64}, {1}, {0}), launch("k", {128}, {2}, {0})};
  const Eigen::MatrixXd f = launch_features(ls, false);
  EXPECT_EQ(f(0, kMemReqs), 0.0);
  EXPECT_EQ(f(1, kMemReqs), 0.0);
}

TEST(TbpointInterLaunch, LaunchesWithinSigmaMergeAndBeyondSplit) {
  Params p;  // sigma_inter = 0.1
  // Only thread insts differ: 2(b - a)/(a + b) = 0.08 for 96/104, 0.12 for 94/106.
  const std::vector<LaunchProfile> close{launch("k", {96}, {1}, {1}), launch("k", {104}, {1}, {1})};
  const std::vector<LaunchProfile> far{launch("k", {94}, {1}, {1}), launch("k", {106}, {1}, {1})};
  EXPECT_EQ(cluster_launches(close, p).members.size(), 1u);
  EXPECT_EQ(cluster_launches(far, p).members.size(), 2u);
  p.sigma_inter = 0.15;
  EXPECT_EQ(cluster_launches(far, p).members.size(), 1u);
}

TEST(TbpointInterLaunch, RepresentativeIsTheLaunchNearestTheCentroid) {
  // Normalised thread insts 0.984, 0.993, 1.023 around a centroid of 1: the middle launch.
  const std::vector<LaunchProfile> ls{launch("k", {100}, {1}, {1}), launch("k", {101}, {1}, {1}),
                                      launch("k", {104}, {1}, {1})};
  const LaunchClusters c = cluster_launches(ls, Params{});
  ASSERT_EQ(c.members.size(), 1u);
  EXPECT_EQ(c.members[0], (std::vector<size_t>{0, 1, 2}));
  EXPECT_EQ(c.representative[0], 1u);
}

TEST(TbpointInterLaunch, SmallAndLargeLaunchesOfAKernelFormTwoClusters) {
  std::vector<LaunchProfile> ls;
  for (int i = 0; i < 6; ++i) ls.push_back(launch("k", std::vector<uint64_t>(i % 2 ? 20 : 10, 640)));
  const LaunchClusters c = cluster_launches(ls, Params{});
  EXPECT_EQ(c.cluster, (std::vector<int>{0, 1, 0, 1, 0, 1}));
  EXPECT_EQ(c.members[0], (std::vector<size_t>{0, 2, 4}));
  EXPECT_EQ(c.representative[0], 0u);  // all equal: the earliest
  EXPECT_EQ(c.representative[1], 1u);
}

TEST(TbpointInterLaunch, WithWarmingIdenticalLaunchesAreRepresentedByTheMiddleOneNotTheColdFirst) {
  // hotspot launches one kernel ten times on the same sizes; only the first starts with cold
  // caches. With functional warming the launches before a later representative warm them, so
  // ties go to the middle launch in launch order (the later of two).
  std::vector<LaunchProfile> ls;
  for (int i = 0; i < 10; ++i) ls.push_back(launch("k", std::vector<uint64_t>(16, 640)));
  EXPECT_EQ(cluster_launches(ls, Params{}, Ties::Middle).representative[0], 5u);
  EXPECT_EQ(cluster_launches(ls, Params{}, Ties::Earliest).representative[0], 0u);
  ls.resize(2);
  EXPECT_EQ(cluster_launches(ls, Params{}, Ties::Middle).representative[0], 1u);
}

TEST(TbpointInterLaunch, ClustersNeverSpanKernelsUnlessCrossKernelIsOn) {
  // Two kernels with identical launches: alike in every feature, different code.
  const std::vector<LaunchProfile> ls{launch("x", {640, 640}), launch("y", {640, 640}), launch("x", {640, 640}),
                                      launch("y", {640, 640})};
  const LaunchClusters same = cluster_launches(ls, Params{});
  EXPECT_EQ(same.cluster, (std::vector<int>{0, 1, 0, 1}));
  Params cross;
  cross.cross_kernel = true;
  const LaunchClusters all = cluster_launches(ls, cross);
  EXPECT_EQ(all.cluster, (std::vector<int>{0, 0, 0, 0}));
}

TEST(TbpointInterLaunch, NormalisationScopeFollowsTheClusteringScope) {
  // Kernel y is 10x kernel x; per kernel each launch is exactly average, across kernels not.
  const std::vector<LaunchProfile> ls{launch("x", {640}), launch("y", {6400})};
  EXPECT_DOUBLE_EQ(launch_features(ls, false)(1, kThreadInsts), 1.0);
  EXPECT_NEAR(launch_features(ls, true)(1, kThreadInsts), 6400 / 3520.0, 1e-12);
}

TEST(TbpointInterLaunch, ExtrapolationScalesTheRepresentativeCpiByInstructions) {
  const std::vector<LaunchProfile> ls{launch("k", {6400}, {100}), launch("k", {12800}, {200}),
                                      launch("k", {3200}, {50}), launch("k", {640}, {7})};
  LaunchClusters c;
  c.cluster = {0, 0, 0, 1};
  c.members = {{0, 1, 2}, {3}};
  c.representative = {1, 3};
  const std::vector<double> rep_cycles{1000, 77};
  const std::vector<double> cycles = extrapolate_cycles(c, ls, rep_cycles);
  EXPECT_EQ(cycles, (std::vector<double>{500, 1000, 250, 77}));  // CPI 5 in cluster 0
  const std::vector<double> w = cluster_weights(c, ls);
  EXPECT_DOUBLE_EQ(w[0], 350.0 / 357.0);
  EXPECT_DOUBLE_EQ(w[1], 7.0 / 357.0);
  EXPECT_THROW(extrapolate_cycles(c, ls, std::vector<double>{1000}), std::invalid_argument);
}

TEST(TbpointInterLaunch, SingletonClustersGiveEveryLaunchItsOwnClusterWithTheSameFeatures) {
  // Identical launches, which cluster_launches would merge, stay apart.
  const std::vector<LaunchProfile> ls{launch("k", {100, 300}), launch("k", {100, 300}), launch("j", {640})};
  const LaunchClusters c = singleton_clusters(ls, Params{});
  ASSERT_EQ(c.members.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(c.cluster[i], int(i));
    EXPECT_EQ(c.representative[i], i);
    EXPECT_EQ(c.members[i], std::vector<size_t>{i});
  }
  EXPECT_TRUE(c.features.isApprox(launch_features(ls, false)));
  EXPECT_EQ(cluster_launches(ls, Params{}).members.size(), 2u);
}

}  // namespace
}  // namespace strobe::sampling::tbpoint
