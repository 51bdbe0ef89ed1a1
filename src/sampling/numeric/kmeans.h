// Deterministic k-means clustering of matrix rows, with a rule for choosing k.
#pragma once

#include <cstdint>
#include <vector>

#include <Eigen/Core>

namespace strobe::sampling {

/// Result of clustering the rows of a matrix.
struct KMeansResult {
  std::vector<int> labels;    ///< cluster of each row, in [0, k)
  Eigen::MatrixXd centroids;  ///< k x cols
  double inertia = 0;         ///< sum of squared distances of rows to their centroids
  int k = 0;
  int iterations = 0;         ///< Lloyd iterations run (max_iter when it did not converge)
};

/// Lloyd's k-means on the rows of `points` with deterministic k-means++ seeding from `seed`; k is clamped to [1, rows]. Stops when labels stop changing or after max_iter. Empty clusters are re-seeded with the point farthest from its centroid. rows == 0 returns k = 0 and no labels.
KMeansResult kmeans(const Eigen::MatrixXd& points, int k, uint64_t seed, int max_iter = 100);

/// The lowest-inertia clustering of `restarts` (at least 1) kmeans runs seeded seed, seed + 1, ...;
/// the earliest wins a tie, so the result depends on the seed alone.
KMeansResult kmeans_restarts(const Eigen::MatrixXd& points, int k, uint64_t seed, int restarts);

/// Runs kmeans for k = 1..max_k and returns the first whose explained fraction 1 - inertia/total_sum_of_squares (about the column means) reaches `explained`; the last tried k otherwise. All-identical points give k = 1.
KMeansResult kmeans_choose_k(const Eigen::MatrixXd& points, int max_k, double explained, uint64_t seed);

}  // namespace strobe::sampling
