// MEGsim's clusters as the strata of a stratified random sample of frames, so that its estimate
// comes with a confidence interval (METHODS.md §3.3's machinery, clusters as strata). MEGsim's
// own estimate, one frame nearest each centroid, is chosen on purpose, not at random, and one
// frame per stratum gives no variance: it has no interval. Here each cluster is sampled at random
// instead, with Neyman allocation, and each statistic's total is estimated with its standard
// error.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "sampling/megsim/frame_selection.h"
#include "sampling/numeric/stratified.h"

namespace strobe::sampling::megsim {

/// The frames drawn from each cluster.
struct StratifiedFrames {
  std::vector<std::vector<size_t>> rows;  ///< per cluster, in the selection's order: rows drawn, ascending
  std::vector<double> proxy_sd;           ///< per cluster: the proxy's spread the allocation used
};

/// Draws about `n` frames over the clusters of `s`: Neyman allocation with each cluster's
/// standard deviation of `proxy` (a per-frame value known for every frame, which the statistics
/// should follow: the frame's functional work) as S_h and at least two frames from each cluster
/// that has two, then a simple random sample within each cluster from `seed`.
StratifiedFrames draw_stratified_frames(const FrameSelection& s, std::span<const double> proxy, uint64_t n,
                                        uint64_t seed);

/// A statistic's total estimated from its values on the drawn frames, and how.
struct StratifiedTotal {
  StratifiedEstimate estimate;  ///< total, standard error, Student t interval at the confidence asked
  std::string estimator;        ///< "ratio" (to the proxy) or "expansion"
};

/// The total of a statistic from `value(row)` on the frames of `d`, with a Student t interval at
/// `confidence`. The separate ratio estimator to `proxy` where every sampled cluster has some
/// proxy (frames' cycles follow their work), else the expansion estimator.
StratifiedTotal estimate_stratified_total(const FrameSelection& s, const StratifiedFrames& d,
                                          std::span<const double> proxy, const std::function<double(size_t)>& value,
                                          double confidence);

}  // namespace strobe::sampling::megsim
