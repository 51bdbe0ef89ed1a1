// The Bayesian information criterion of a k-means clustering, as X-means defines it (Pelleg and
// Moore, in Foglia's corrected form), and MEGsim's rule for choosing k with it (METHODS.md §4.5).
// Generic: any method that clusters rows may reuse it.
#pragma once

#include <cstdint>
#include <vector>

#include <Eigen/Core>

#include "sampling/numeric/kmeans.h"

namespace strobe::sampling {

/// BIC = l(D) - (p/2) ln R of the clustering `c` of the rows of `points`, with R rows, d columns,
/// K the non-empty clusters, RSS = c.inertia, sigma^2 = RSS / (d (R - K)) clamped to 1e-300,
/// l(D) = sum_n R_n ln R_n - R ln R - (R d / 2) ln(2 pi sigma^2) - (d / 2)(R - K) and
/// p = K (d + 1). Requires R > K (std::invalid_argument otherwise).
double xmeans_bic(const Eigen::MatrixXd& points, const KMeansResult& c);

/// The clustering the BIC rule chose, and the scores it chose from.
struct BicChoice {
  KMeansResult clustering;   ///< the chosen k's clustering
  int k = 1;                 ///< clusters chosen
  std::vector<double> bic;   ///< BIC for k = 1, 2, ... (index k - 1), as computed
  double threshold = 0;      ///< min + T (max - min) over `bic`
  bool stopped_at_decrease = false;  ///< the scan ended at the first k whose BIC fell, not at a cap
};

/// MEGsim's rule: for k = 1, 2, ... (each k the lowest inertia of `restarts` k-means runs seeded
/// from `seed`) compute the BIC, stopping at the first k whose BIC is below the previous one, or
/// at min(max_k, R - 1, distinct rows). Then the smallest k whose BIC reaches
/// min + fraction (max - min) over every k computed. One row, or rows all identical, give k = 1.
BicChoice choose_k_by_bic(const Eigen::MatrixXd& points, int max_k, double fraction, uint64_t seed, int restarts);

}  // namespace strobe::sampling
