// The silhouette coefficient (Rousseeuw 1987) and SimProf's rule for choosing k with it
// (METHODS.md §3.2): k-means for k = 2..max_k, the smallest k whose mean silhouette is at least a
// fraction of the best. Generic: any method that clusters rows may reuse it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "sampling/numeric/kmeans.h"

namespace strobe::sampling {

/// Mean silhouette of a clustering of the rows of `points` into `k` clusters (`labels` in
/// [0, k)): per row s = (b - a) / max(a, b), with a its mean Euclidean distance to the other
/// rows of its cluster and b the lowest mean distance to the rows of another non-empty cluster;
/// s = 0 for a row alone in its cluster (Rousseeuw's convention). NaN with fewer than two
/// non-empty clusters. Exact: O(n²) distances, computed once.
double silhouette(const Eigen::MatrixXd& points, const std::vector<int>& labels, int k);

/// The clustering the silhouette rule chose, and why.
struct SilhouetteChoice {
  KMeansResult clustering;     ///< the chosen k's clustering (k = 1: every row in cluster 0)
  int k = 1;                   ///< clusters chosen
  std::vector<double> scores;  ///< mean silhouette for k = 2, 3, ... (index k - 2), as evaluated
  double best = 0;             ///< the highest score (0 when none was evaluated)
  std::string fallback;        ///< why k = 1 was chosen without the rule ("" when the rule chose)
};

/// k-means (each k: the lowest inertia of `restarts` runs seeded from `seed`) for k = 2..max_k,
/// each scored by silhouette(); the smallest k whose score is at least `fraction` of the best.
/// Falls back to k = 1 (and says so) with fewer than 3 rows, rows all identical, or no positive
/// score (no cluster structure). k stops below the number of distinct rows.
SilhouetteChoice choose_k_by_silhouette(const Eigen::MatrixXd& points, int max_k, double fraction, uint64_t seed,
                                        int restarts);

}  // namespace strobe::sampling
