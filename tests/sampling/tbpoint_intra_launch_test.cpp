// TBPoint's epochs, epoch features, outlier rule and homogeneous-region table on constructed
// launches, including the paper's Figure 6 example.
#include "sampling/tbpoint/intra_launch.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

namespace strobe::sampling::tbpoint {
namespace {

/// Appends `n` groups of `waves` wave instructions and `mem` memory requests.
void add(LaunchProfile& l, int n, uint64_t waves, uint64_t mem) {
  for (int i = 0; i < n; ++i) l.groups.push_back({waves * 64, waves, mem});
}

TEST(TbpointIntraLaunch, EpochsHaveOccupancySizeAndTheLastMayBePartial) {
  LaunchProfile l;
  add(l, 10, 10, 1);
  const std::vector<Epoch> e = make_epochs(l.groups, 4, 0.3);
  ASSERT_EQ(e.size(), 3u);
  EXPECT_EQ(e[0].first_wg, 0u);
  EXPECT_EQ(e[0].last_wg, 3u);
  EXPECT_EQ(e[1].first_wg, 4u);
  EXPECT_EQ(e[2].first_wg, 8u);
  EXPECT_EQ(e[2].last_wg, 9u);
  EXPECT_THROW(make_epochs(l.groups, 0, 0.3), std::invalid_argument);
}

TEST(TbpointIntraLaunch, StallProbabilityIsTheMeanOfPerGroupRatios) {
  // Ratios 1/10, 4/10, 6/20, 40/20 (above 1: a divergent access touches many lines): mean 0.7.
  // The ratio of sums would be 51/60 = 0.85.
  const std::vector<WorkGroupCounts> g{{640, 10, 1}, {640, 10, 4}, {1280, 20, 6}, {1280, 20, 40}};
  const std::vector<Epoch> e = make_epochs(g, 4, 0.3);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_DOUBLE_EQ(e[0].stall_probability, 0.7);
  EXPECT_DOUBLE_EQ(stall_probability(g[3]), 2.0);
  EXPECT_EQ(stall_probability(WorkGroupCounts{}), 0.0);
}

TEST(TbpointIntraLaunch, VariationFactorIsTheLargerCovOfRequestsAndInstructions) {
  // mem {2,2,2,8}: mean 3.5, population std sqrt(6.75); waves {10,10,10,10}: CoV 0.
  const std::vector<WorkGroupCounts> g{{640, 10, 2}, {640, 10, 2}, {640, 10, 2}, {640, 10, 8}};
  const std::vector<Epoch> e = make_epochs(g, 4, 0.3);
  EXPECT_NEAR(e[0].variation_factor, std::sqrt(6.75) / 3.5, 1e-12);
  EXPECT_TRUE(e[0].outlier);
  EXPECT_FALSE(make_epochs(g, 4, 0.8)[0].outlier);
  const std::vector<double> v{1, 3};
  EXPECT_DOUBLE_EQ(coefficient_of_variation(v), 0.5);
}

// Figure 6: eight epochs, the first four at p = 0.2 and the rest at another p; the third and
// fourth hold outlier groups. Two samplable regions result: epochs 0-1 and epochs 4-7.
TEST(TbpointIntraLaunch, ReproducesThePapersFigureSixExample) {
  LaunchProfile l;
  add(l, 8, 10, 2);  // epochs 0, 1: p = 0.2
  for (int e = 0; e < 2; ++e) {
    add(l, 3, 10, 2);  // epochs 2, 3: p = 0.2 too, but one group four times as large
    add(l, 1, 40, 8);
  }
  add(l, 16, 10, 8);  // epochs 4-7: p = 0.8
  const RegionTable t = find_regions(l, 4, Params{});
  ASSERT_EQ(t.epochs.size(), 8u);
  EXPECT_EQ(t.epochs[0].cluster, t.epochs[1].cluster);
  EXPECT_TRUE(t.epochs[2].outlier);
  EXPECT_TRUE(t.epochs[3].outlier);
  EXPECT_NE(t.epochs[2].cluster, t.epochs[3].cluster);
  EXPECT_NE(t.epochs[0].cluster, t.epochs[4].cluster);
  ASSERT_EQ(t.regions.size(), 4u);
  const size_t first[] = {0, 8, 12, 16}, last[] = {7, 11, 15, 31};
  const bool samplable[] = {true, false, false, true};
  for (size_t r = 0; r < 4; ++r) {
    EXPECT_EQ(t.regions[r].id, static_cast<int>(r));
    EXPECT_EQ(t.regions[r].first_wg, first[r]);
    EXPECT_EQ(t.regions[r].last_wg, last[r]);
    EXPECT_EQ(t.regions[r].samplable, samplable[r]);
  }
  EXPECT_EQ(t.regions[3].epochs, 4u);
  EXPECT_EQ(t.region_of(0).id, 0);
  EXPECT_EQ(t.region_of(9).id, 1);
  EXPECT_EQ(t.region_of(31).id, 3);
  EXPECT_THROW(t.region_of(32), std::out_of_range);
}

TEST(TbpointIntraLaunch, EpochClusteringIsCompleteLinkageAtSigmaIntra) {
  // p = 0.1, 0.2, 0.35, 0.45: neighbours within 0.2, but 0.1..0.35 spans 0.25, so complete
  // linkage makes two regions where single linkage would chain them into one.
  LaunchProfile l;
  for (uint64_t mem : {2, 4, 7, 9}) add(l, 2, 20, mem);
  const RegionTable t = find_regions(l, 2, Params{});
  ASSERT_EQ(t.regions.size(), 2u);
  EXPECT_EQ(t.regions[0].last_wg, 3u);
  Params wide;
  wide.sigma_intra = 0.4;
  EXPECT_EQ(find_regions(l, 2, wide).regions.size(), 1u);
}

TEST(TbpointIntraLaunch, RegionsAreRunsOfConsecutiveEpochs) {
  // Clusters A, B, A: the two A runs are separate regions sharing a cluster.
  LaunchProfile l;
  add(l, 4, 10, 1);
  add(l, 4, 10, 9);
  add(l, 4, 10, 1);
  const RegionTable t = find_regions(l, 2, Params{});
  ASSERT_EQ(t.regions.size(), 3u);
  EXPECT_EQ(t.regions[0].cluster, t.regions[2].cluster);
  EXPECT_NE(t.regions[0].cluster, t.regions[1].cluster);
  EXPECT_EQ(t.regions[1].first_wg, 4u);
  EXPECT_EQ(t.regions[1].last_wg, 7u);
}

TEST(TbpointIntraLaunch, TableIsRebuiltForAnotherOccupancy) {
  LaunchProfile l;
  add(l, 6, 10, 1);
  add(l, 6, 10, 9);
  const RegionTable four = find_regions(l, 4, Params{});  // epoch 1 mixes both kinds
  const RegionTable six = find_regions(l, 6, Params{});
  EXPECT_EQ(four.occupancy, 4u);
  EXPECT_EQ(four.epochs.size(), 3u);
  EXPECT_TRUE(four.epochs[1].outlier);  // mem {1,1,9,9}: CoV 0.8
  EXPECT_EQ(six.epochs.size(), 2u);
  ASSERT_EQ(six.regions.size(), 2u);
  EXPECT_EQ(six.regions[1].first_wg, 6u);
}

TEST(TbpointIntraLaunch, EmptyLaunchHasNoRegions) {
  const RegionTable t = find_regions(LaunchProfile{}, 8, Params{});
  EXPECT_TRUE(t.epochs.empty());
  EXPECT_TRUE(t.regions.empty());
}

}  // namespace
}  // namespace strobe::sampling::tbpoint
