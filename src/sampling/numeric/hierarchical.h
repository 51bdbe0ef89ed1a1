// Complete-linkage agglomerative clustering cut at a distance threshold: the clustering TBPoint
// uses for launches and epochs, kept generic so other methods can reuse it.
#pragma once

#include <span>
#include <vector>

#include <Eigen/Core>

namespace strobe::sampling {

/// A flat clustering: one label per point.
struct ClusterLabels {
  std::vector<int> labels;  ///< cluster of each point, in [0, k), numbered in order of each cluster's first point
  int k = 0;                ///< number of clusters
};

/// Complete-linkage agglomerative clustering of the rows of `points` under Euclidean distance,
/// cut at `threshold`: clusters are merged while the closest pair's complete-linkage distance
/// (the diameter of their union) is <= threshold, so no cluster's diameter exceeds it.
///
/// Deterministic: a cluster is named by its lowest row index, and among pairs at the same
/// distance the pair with the lowest (lower name, higher name) merges first. Cost: the
/// condensed distance matrix, n(n-1)/2 doubles (about 64 MB at n = 4000, 800 MB at 14,000,
/// so callers with more points than a few thousand should use the 1-D variant where it applies),
/// and O(n^2) time on typical inputs (O(n^3) in the worst case of the nearest-neighbour cache).
/// A negative or NaN threshold merges nothing; no rows gives k = 0.
ClusterLabels complete_linkage(const Eigen::MatrixXd& points, double threshold);

/// The same clustering for scalar values in O(n log n) time and O(n) memory. In one dimension a
/// complete-linkage cluster is an interval of the sorted values and the closest pair is always
/// two neighbouring intervals, so only neighbours are compared. Without exact distance ties this
/// yields the same partition as complete_linkage on a one-column matrix; among tied neighbouring
/// pairs the one lower in sorted order (values, then index) merges first.
ClusterLabels complete_linkage_1d(std::span<const double> values, double threshold);

/// Euclidean distance between rows i and j, summed in column order so every caller that needs
/// to agree bit for bit with the clustering (tests, tie checks) gets the same value.
double row_distance(const Eigen::MatrixXd& points, Eigen::Index i, Eigen::Index j);

/// Renumbers arbitrary cluster ids to [0, k) in order of first appearance.
ClusterLabels canonical_labels(std::span<const int> ids);

}  // namespace strobe::sampling
