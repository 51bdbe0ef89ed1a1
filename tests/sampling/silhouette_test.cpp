// The silhouette coefficient against a hand-computed case, and SimProf's rule for k: the smallest
// k within 90% of the best silhouette, with its k = 1 fallbacks named.
#include "sampling/numeric/silhouette.h"

#include <gtest/gtest.h>

#include <cmath>

namespace strobe::sampling {
namespace {

TEST(Silhouette, MatchesAHandComputedCase) {
  // Points 0, 1 in cluster 0 and 4, 6 in cluster 1 (one dimension):
  //  0: a = 1, b = 5   -> 0.8;   1: a = 1, b = 4 -> 0.75;
  //  4: a = 2, b = 3.5 -> 3/7;   6: a = 2, b = 5.5 -> 7/11.
  Eigen::MatrixXd p(4, 1);
  p << 0, 1, 4, 6;
  const double expected = (0.8 + 0.75 + 1.5 / 3.5 + 3.5 / 5.5) / 4;
  EXPECT_NEAR(silhouette(p, {0, 0, 1, 1}, 2), expected, 1e-12);
  // A singleton scores 0; one non-empty cluster has no silhouette.
  Eigen::MatrixXd q(3, 1);
  q << 0, 1, 10;
  EXPECT_NEAR(silhouette(q, {0, 0, 1}, 2), (0.9 + 8.0 / 9.0 + 0.0) / 3, 1e-12);  // 0: 9/10, 1: 8/9, 10: alone
  EXPECT_TRUE(std::isnan(silhouette(q, {1, 1, 1}, 2)));
}

TEST(Silhouette, TheRuleTakesTheSmallestKWithinTheFractionOfTheBest) {
  // Three tight, evenly spaced blobs: k = 2 must merge two of them and scores below 90% of the
  // best, k = 3 separates them and is within it, so 3 is chosen.
  Eigen::MatrixXd p(30, 2);
  for (int i = 0; i < 30; ++i) {
    const double cx = i < 10 ? 0 : (i < 20 ? 12 : 24), jitter = 0.03 * (i % 10);
    p.row(i) << cx + jitter, 0.5 * jitter;
  }
  const SilhouetteChoice c = choose_k_by_silhouette(p, 20, 0.9, 1, 4);
  EXPECT_EQ(c.k, 3);
  EXPECT_TRUE(c.fallback.empty());
  EXPECT_GE(c.scores[1], 0.9 * c.best);
  EXPECT_LT(c.scores[0], 0.9 * c.best);
  // A looser threshold accepts the coarser k = 2.
  const SilhouetteChoice loose = choose_k_by_silhouette(p, 20, c.scores[0] / c.best, 1, 4);
  EXPECT_EQ(loose.k, 2);
}

TEST(Silhouette, FallsBackToOneClusterAndSaysWhy) {
  EXPECT_EQ(choose_k_by_silhouette(Eigen::MatrixXd::Zero(2, 3), 20, 0.9, 1, 2).fallback, "fewer than 3 units");
  EXPECT_EQ(choose_k_by_silhouette(Eigen::MatrixXd::Constant(8, 2, 3.0), 20, 0.9, 1, 2).fallback,
            "every unit has the same signature");
  const SilhouetteChoice one = choose_k_by_silhouette(Eigen::MatrixXd::Constant(8, 2, 3.0), 20, 0.9, 1, 2);
  EXPECT_EQ(one.k, 1);
  EXPECT_EQ(one.clustering.labels, std::vector<int>(8, 0));
}

}  // namespace
}  // namespace strobe::sampling
