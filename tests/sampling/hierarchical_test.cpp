// Complete-linkage clustering checked against a deliberately naive reference (recompute every
// cluster pair's diameter from the points at every step) on random inputs, and on edge cases.
#include "sampling/numeric/hierarchical.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <vector>

#include "sampling/numeric/mix.h"

namespace strobe::sampling {
namespace {

/// O(n^3)-per-merge reference: clusters as member lists named by their lowest member, merged
/// by smallest diameter of the union, ties to the lowest (lower name, higher name) pair.
std::vector<int> naive_complete_linkage(const Eigen::MatrixXd& p, double threshold) {
  std::vector<std::vector<int>> cl;
  for (int i = 0; i < p.rows(); ++i) cl.push_back({i});
  for (;;) {
    double best = std::numeric_limits<double>::infinity();
    size_t ba = 0, bb = 0;
    for (size_t a = 0; a < cl.size(); ++a)
      for (size_t b = a + 1; b < cl.size(); ++b) {
        double diam = 0;
        for (int x : cl[a])
          for (int y : cl[b]) diam = std::max(diam, row_distance(p, x, y));
        // Clusters stay sorted by name, so (a, b) order is (lower name, higher name) order.
        if (diam < best) best = diam, ba = a, bb = b;
      }
    if (cl.size() < 2 || !(best <= threshold)) break;
    cl[ba].insert(cl[ba].end(), cl[bb].begin(), cl[bb].end());
    cl.erase(cl.begin() + static_cast<long>(bb));
  }
  std::vector<int> id(p.rows());
  for (const auto& c : cl)
    for (int x : c) id[x] = c.front();
  return canonical_labels(id).labels;
}

/// Uniform doubles in [0, 1) from a fixed seed.
struct Rng {
  uint64_t s;
  double uniform() { return static_cast<double>(splitmix64(s) >> 11) * 0x1.0p-53; }
};

Eigen::MatrixXd random_points(int n, int dims, uint64_t seed, bool grid) {
  Rng rng{seed};
  Eigen::MatrixXd p(n, dims);
  for (int i = 0; i < n; ++i)
    for (int c = 0; c < dims; ++c) p(i, c) = grid ? std::floor(rng.uniform() * 4) : rng.uniform();
  return p;
}

TEST(CompleteLinkage, MatchesNaiveReferenceOnRandomPoints) {
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    const int n = 5 + static_cast<int>(seed % 30), dims = 1 + static_cast<int>(seed % 4);
    const Eigen::MatrixXd p = random_points(n, dims, seed, false);
    for (double t : {0.05, 0.2, 0.5, 1.0}) {
      EXPECT_EQ(complete_linkage(p, t).labels, naive_complete_linkage(p, t)) << "seed " << seed << " t " << t;
    }
  }
}

// Integer coordinates make many distances tie exactly, which exercises the tie-breaking.
TEST(CompleteLinkage, MatchesNaiveReferenceUnderExactTies) {
  for (uint64_t seed = 100; seed < 130; ++seed) {
    const Eigen::MatrixXd p = random_points(20, 2, seed, true);
    for (double t : {0.0, 1.0, 1.5, 2.0, 3.0}) {
      EXPECT_EQ(complete_linkage(p, t).labels, naive_complete_linkage(p, t)) << "seed " << seed << " t " << t;
    }
  }
}

TEST(CompleteLinkage, NoClusterDiameterExceedsTheThreshold) {
  const Eigen::MatrixXd p = random_points(300, 3, 7, false);
  const ClusterLabels r = complete_linkage(p, 0.4);
  ASSERT_GT(r.k, 1);
  ASSERT_LT(r.k, 300);
  for (int i = 0; i < p.rows(); ++i)
    for (int j = i + 1; j < p.rows(); ++j)
      if (r.labels[i] == r.labels[j]) EXPECT_LE(row_distance(p, i, j), 0.4);
}

// Chaining would join 0-1-2-3 (steps of 1); complete linkage at 1 may not, as 0..3 spans 3.
TEST(CompleteLinkage, DoesNotChainLikeSingleLinkage) {
  Eigen::MatrixXd p(4, 1);
  p << 0, 1, 2, 3;
  const ClusterLabels r = complete_linkage(p, 1.0);
  EXPECT_EQ(r.k, 2);
  EXPECT_EQ(r.labels, (std::vector<int>{0, 0, 1, 1}));  // ties: (0,1) merges first, then (2,3)
}

TEST(CompleteLinkage, SinglePointIsOneCluster) {
  const ClusterLabels r = complete_linkage(Eigen::MatrixXd::Constant(1, 3, 2.5), 0.1);
  EXPECT_EQ(r.k, 1);
  EXPECT_EQ(r.labels, std::vector<int>{0});
}

TEST(CompleteLinkage, NoPointsIsNoClusters) {
  const ClusterLabels r = complete_linkage(Eigen::MatrixXd(0, 2), 0.1);
  EXPECT_EQ(r.k, 0);
  EXPECT_TRUE(r.labels.empty());
}

TEST(CompleteLinkage, IdenticalPointsMergeEvenAtThresholdZero) {
  const ClusterLabels r = complete_linkage(Eigen::MatrixXd::Constant(6, 2, 1.25), 0.0);
  EXPECT_EQ(r.k, 1);
}

TEST(CompleteLinkage, ThresholdZeroMergesOnlyIdenticalPoints) {
  Eigen::MatrixXd p(5, 2);
  p << 0, 0, 1, 0, 0, 0, 1, 1e-12, 1, 0;
  const ClusterLabels r = complete_linkage(p, 0.0);
  EXPECT_EQ(r.labels, (std::vector<int>{0, 1, 0, 2, 1}));
}

TEST(CompleteLinkage, NegativeOrNanThresholdMergesNothing) {
  const Eigen::MatrixXd p = Eigen::MatrixXd::Zero(3, 1);
  EXPECT_EQ(complete_linkage(p, -1).k, 3);
  EXPECT_EQ(complete_linkage(p, std::numeric_limits<double>::quiet_NaN()).k, 3);
  const std::vector<double> v(3, 0.0);
  EXPECT_EQ(complete_linkage_1d(v, -1).k, 3);
}

TEST(CompleteLinkage, LabelsAreNumberedInOrderOfFirstPoint) {
  Eigen::MatrixXd p(4, 1);
  p << 5, 0, 5.05, 0.01;
  EXPECT_EQ(complete_linkage(p, 0.1).labels, (std::vector<int>{0, 1, 0, 1}));
}

TEST(CompleteLinkage, ThreeThousandPointsClusterInUnderAFewSeconds) {
  const Eigen::MatrixXd p = random_points(3000, 4, 11, false);
  const auto t0 = std::chrono::steady_clock::now();
  const ClusterLabels r = complete_linkage(p, 0.3);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_GT(r.k, 1);
  EXPECT_LT(s, 10.0);  // generous: a shared machine; an O(n^3) loop would take minutes
}

TEST(CompleteLinkage1d, MatchesTheGeneralClusteringOnRandomValues) {
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    const Eigen::MatrixXd p = random_points(10 + static_cast<int>(seed * 7 % 90), 1, seed, false);
    const std::vector<double> v(p.data(), p.data() + p.rows());
    for (double t : {0.0, 0.01, 0.05, 0.2, 0.7, 2.0}) {
      EXPECT_EQ(complete_linkage_1d(v, t).labels, complete_linkage(p, t).labels) << "seed " << seed << " t " << t;
    }
  }
}

TEST(CompleteLinkage1d, EdgeCases) {
  EXPECT_EQ(complete_linkage_1d(std::vector<double>{}, 1).k, 0);
  EXPECT_EQ(complete_linkage_1d(std::vector<double>{3.0}, 0).labels, std::vector<int>{0});
  EXPECT_EQ(complete_linkage_1d(std::vector<double>(5, 0.7), 0).k, 1);
  EXPECT_EQ(complete_linkage_1d(std::vector<double>{0, 1, 2, 3}, 1.0).labels, (std::vector<int>{0, 0, 1, 1}));
}

TEST(CompleteLinkage1d, HandlesManyValues) {
  Rng rng{5};
  std::vector<double> v(50000);
  for (double& x : v) x = rng.uniform();
  const ClusterLabels r = complete_linkage_1d(v, 0.01);
  // Each cluster spans at most 0.01 of densely filled [0, 1), so there are at least ~100; no two
  // neighbours could still merge, so any two neighbours span more than 0.01: at most ~200.
  EXPECT_GE(r.k, 99);
  EXPECT_LE(r.k, 201);
}

}  // namespace
}  // namespace strobe::sampling
