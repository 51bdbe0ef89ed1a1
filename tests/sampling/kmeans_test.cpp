// Tests of kmeans and kmeans_choose_k.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>
#include <vector>

#include "sampling/numeric/kmeans.h"

namespace strobe::sampling {
namespace {

/// 3 blobs of `per` points around (0,0), (10,0), (0,10), with a fixed jitter pattern; truth[i] is the blob.
Eigen::MatrixXd blobs(int per, std::vector<int>* truth) {
  const double cx[] = {0, 10, 0}, cy[] = {0, 0, 10};
  Eigen::MatrixXd p(3 * per, 2);
  for (int i = 0; i < 3 * per; ++i) {
    const int b = i % 3;  // interleaved so no blob owns a contiguous index range
    p(i, 0) = cx[b] + 0.5 * std::sin(i * 1.7);
    p(i, 1) = cy[b] + 0.5 * std::cos(i * 2.3);
    if (truth) truth->push_back(b);
  }
  return p;
}

/// Whether `labels` equals `truth` up to a renaming of clusters.
bool same_partition(const std::vector<int>& labels, const std::vector<int>& truth) {
  std::map<int, int> fwd, back;
  for (size_t i = 0; i < labels.size(); ++i) {
    if (fwd.emplace(labels[i], truth[i]).first->second != truth[i]) return false;
    if (back.emplace(truth[i], labels[i]).first->second != labels[i]) return false;
  }
  return true;
}

TEST(KMeans, FindsThreeSeparatedBlobs) {
  std::vector<int> truth;
  const Eigen::MatrixXd p = blobs(30, &truth);
  for (uint64_t seed = 0; seed < 5; ++seed) {
    const KMeansResult r = kmeans(p, 3, seed);
    ASSERT_EQ(r.k, 3);
    ASSERT_EQ(r.labels.size(), p.rows());
    EXPECT_TRUE(same_partition(r.labels, truth)) << "seed " << seed;
    EXPECT_LT(r.inertia, 90 * 0.5);
    EXPECT_EQ(r.centroids.rows(), 3);
    EXPECT_EQ(r.centroids.cols(), 2);
  }
}

TEST(KMeans, DeterministicForSeed) {
  const Eigen::MatrixXd p = blobs(20, nullptr);
  const KMeansResult a = kmeans(p, 4, 42), b = kmeans(p, 4, 42);
  EXPECT_EQ(a.labels, b.labels);
  EXPECT_EQ(a.centroids, b.centroids);
  EXPECT_EQ(a.inertia, b.inertia);
}

TEST(KMeans, ClampsK) {
  const Eigen::MatrixXd p = blobs(2, nullptr);  // 6 rows
  const KMeansResult big = kmeans(p, 50, 1);
  EXPECT_EQ(big.k, 6);
  EXPECT_EQ(std::set<int>(big.labels.begin(), big.labels.end()).size(), 6u);
  EXPECT_NEAR(big.inertia, 0.0, 1e-12);
  const KMeansResult small = kmeans(p, 0, 1);
  EXPECT_EQ(small.k, 1);
  for (int l : small.labels) EXPECT_EQ(l, 0);
  EXPECT_TRUE(small.centroids.row(0).isApprox(p.colwise().mean()));
}

TEST(KMeans, EmptyInputGivesNoClusters) {
  const KMeansResult r = kmeans(Eigen::MatrixXd(0, 3), 4, 7);
  EXPECT_EQ(r.k, 0);
  EXPECT_TRUE(r.labels.empty());
}

TEST(KMeans, HandlesDuplicatePoints) {
  Eigen::MatrixXd same = Eigen::MatrixXd::Constant(10, 2, 3.5);
  const KMeansResult r = kmeans(same, 3, 9);
  EXPECT_EQ(r.k, 3);
  EXPECT_EQ(r.inertia, 0.0);
  for (int l : r.labels) EXPECT_TRUE(l >= 0 && l < 3);

  Eigen::MatrixXd two(8, 2);  // two distinct points, four copies each, asked for three clusters
  for (int i = 0; i < 8; ++i) two.row(i) = i % 2 ? Eigen::RowVector2d(1, 1) : Eigen::RowVector2d(-1, 4);
  const KMeansResult t = kmeans(two, 3, 5);
  EXPECT_EQ(t.inertia, 0.0);
  for (int i = 2; i < 8; ++i) EXPECT_EQ(t.labels[i], t.labels[i % 2]);
  EXPECT_NE(t.labels[0], t.labels[1]);
}

TEST(KMeans, IdenticalRowsWhoseMeanRoundsAwayDoNotOscillate) {
  // GPUMech's wave features of a regular kernel: 16384 equal rows whose computed mean is a few
  // ulps off. The empty second cluster used to steal a row, pull every copy to its exact centre,
  // empty the first, and swap back until max_iter, on every restart.
  const Eigen::MatrixXd same = Eigen::MatrixXd::Constant(16384, 2, 1.0000000000000109);
  ASSERT_NE(same.colwise().mean()(0), same(0, 0));  // the rounding this test is about
  const KMeansResult r = kmeans(same, 2, 1);
  EXPECT_LT(r.iterations, 5);
  EXPECT_LT(r.inertia, 1e-20);
}

TEST(KMeans, OutlierGetsItsOwnCluster) {
  // One outlier far from a tight group: with k = 2 it must end up alone whatever the seed.
  Eigen::MatrixXd p(7, 1);
  p << 0, 0.1, 0.2, 0.3, 0.4, 0.5, 100;
  for (uint64_t seed = 0; seed < 8; ++seed) {
    const KMeansResult r = kmeans(p, 2, seed);
    for (int i = 1; i < 6; ++i) EXPECT_EQ(r.labels[i], r.labels[0]);
    EXPECT_NE(r.labels[6], r.labels[0]);
  }
}

TEST(KMeans, EveryRowEndsOnItsNearestCentroidAsAFullScanFindsItThoughMostScansAreSkipped) {
  // The bounds skip rows whose label cannot change; a wrongly skipped row would be left on a
  // centroid that is not its nearest. Overlapping clouds with exact duplicates and rows on the
  // midpoint between centres (ties) at many k: at convergence every label is the full scan's
  // (the nearest, the lower index on a tie) and every centroid the mean of its rows.
  Eigen::MatrixXd p(600, 3);
  for (int i = 0; i < 600; ++i) {
    const double t = 0.37 * i;
    p(i, 0) = (i % 5) + 0.8 * std::sin(t);
    p(i, 1) = (i % 7) * 0.5 + 0.8 * std::cos(1.3 * t);
    p(i, 2) = i % 50 == 0 ? 0.0 : 0.3 * std::sin(2.9 * t);
  }
  for (int i = 0; i < 40; ++i) p.row(300 + i) = p.row(i);  // duplicates
  for (int i = 0; i < 20; ++i) p.row(400 + i) << 0.5, 0.25, 0.0;  // midpoints
  for (int k : {2, 5, 9, 17, 33}) {
    const KMeansResult r = kmeans(p, k, 7, 1000);
    ASSERT_LT(r.iterations, 1000) << "k " << k << " converged";
    for (Eigen::Index i = 0; i < p.rows(); ++i) {
      int best = 0;
      double best_d = (p.row(i) - r.centroids.row(0)).squaredNorm();
      for (int j = 1; j < r.k; ++j) {
        const double d = (p.row(i) - r.centroids.row(j)).squaredNorm();
        if (d < best_d) best_d = d, best = j;
      }
      EXPECT_EQ(r.labels[size_t(i)], best) << "k " << k << " row " << i;
    }
    for (int j = 0; j < r.k; ++j) {
      Eigen::RowVectorXd sum = Eigen::RowVectorXd::Zero(3);
      int n = 0;
      for (Eigen::Index i = 0; i < p.rows(); ++i)
        if (r.labels[size_t(i)] == j) sum += p.row(i), ++n;
      if (n) EXPECT_LT((sum / n - r.centroids.row(j)).norm(), 1e-9) << "k " << k << " centroid " << j;
    }
  }
}

TEST(KMeansChooseK, PicksThreeOnThreeBlobs) {
  const Eigen::MatrixXd p = blobs(30, nullptr);
  const KMeansResult r = kmeans_choose_k(p, 8, 0.95, 11);
  EXPECT_EQ(r.k, 3);
}

TEST(KMeansChooseK, IdenticalPointsGiveOneCluster) {
  const KMeansResult r = kmeans_choose_k(Eigen::MatrixXd::Constant(5, 3, 2.0), 4, 0.9, 3);
  EXPECT_EQ(r.k, 1);
}

TEST(KMeansChooseK, FallsBackToLastTriedK) {
  const Eigen::MatrixXd p = blobs(30, nullptr);
  EXPECT_EQ(kmeans_choose_k(p, 2, 0.999999, 11).k, 2);
}

}  // namespace
}  // namespace strobe::sampling
