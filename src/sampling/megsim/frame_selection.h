// MEGsim's choice of representative frames (METHODS.md §4.4-4.7): k-means on the feature
// matrix with k chosen by the BIC rule, the frame nearest each centroid as its cluster's
// representative, and statistics extrapolated by cluster size; and the random sub-sampling
// baseline the paper compares it with.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <Eigen/Core>

#include "sampling/numeric/bic.h"

namespace strobe::sampling::megsim {

/// MEGsim's clustering parameters (the paper's T; the rest are strobe's, METHODS.md §4.4-4.5).
struct SelectionOptions {
  double bic_fraction = 0.85;  ///< T: the smallest k reaching min + T (max - min) of the BIC
  int max_k = 64;              ///< cap on k
  uint64_t seed = 1;           ///< k-means++ seed of the first restart
  int restarts = 5;            ///< k-means restarts per k (lowest inertia wins)
};

/// One cluster of frames and the frame that stands for it.
struct FrameCluster {
  size_t representative = 0;   ///< row (frame position) nearest the centroid; of a tie, the middle one
  std::vector<size_t> members;  ///< rows, ascending
};

/// The frames chosen and why.
struct FrameSelection {
  std::vector<FrameCluster> clusters;  ///< by first member
  BicChoice choice;                    ///< the BIC scan and the clustering it chose
};

/// Clusters the rows of `x` (frames x features) and picks a representative per cluster.
FrameSelection select_frames(const Eigen::MatrixXd& x, const SelectionOptions& o);

/// Sum over clusters of `rep_value[c]` x the cluster's size: MEGsim's extrapolation of any
/// per-frame statistic measured on the representatives only (rep_value in cluster order).
double extrapolate(const FrameSelection& s, std::span<const double> rep_value);

/// The random baseline: `k` distinct frames of `frames`, drawn from `seed` (ascending), each
/// standing for frames / k of them.
std::vector<size_t> random_frames(size_t frames, size_t k, uint64_t seed);

/// Euclidean distances between the rows of `x` (frames), of every `step`-th frame from the first
/// so that the matrix has at most `max_side` rows: the frame-similarity matrix a report draws, at
/// a cost of side^2 distances whatever the frame count. Returns the matrix and sets `step`.
Eigen::MatrixXd similarity_matrix(const Eigen::MatrixXd& x, size_t max_side, size_t& step);

}  // namespace strobe::sampling::megsim
