// MEGsim's selection over every frame's functional counts (METHODS.md §4.1-4.5): the features,
// the BIC scan and its clusters, with the description the reports print. Every MEGsim variant
// starts from it, and `strobe run gfx:... --sampling megsim` stops at it.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sampling/frame_method.h"
#include "sampling/megsim/frame_selection.h"
#include "sampling/megsim/params.h"

namespace strobe::sampling::megsim {

/// Why MEGsim's estimate has no interval (completes "the estimate is ...").
inline constexpr const char* kNoIntervalWhy =
    "one representative frame per cluster scaled by the cluster's size: one frame per stratum gives no variance";

/// The frames MEGsim chose and why.
struct Selection {
  FrameSelection clusters;             ///< rows index the counts selected from
  std::vector<uint64_t> representatives;  ///< trace frame numbers, in cluster order
  /// The features, the BIC scan, each cluster with its representative (by trace frame number),
  /// the frame reduction and the similarity matrix.
  nlohmann::json description;
  std::string text;                    ///< a few lines for the terminal
};

/// Clusters `frames` under `p`; InputError for fewer than two frames.
Selection select(const std::vector<FrameCounts>& frames, const Params& p);

/// The sum over clusters of the representative's value (`value(frame)`) times the cluster's size,
/// for every statistic: MEGsim's extrapolation.
FrameMeasure extrapolate(const Selection& s, const std::map<uint64_t, TimedFrame>& timed);

/// Each representative's weight in extrapolate(): its cluster's size.
std::map<uint64_t, double> weights(const Selection& s);

/// The total shader work of a frame (vertex and pixel programs, texture-weighted): the per-frame
/// proxy MEGsim's variants allocate and scale by.
double shader_work(const FrameCounts& f);

}  // namespace strobe::sampling::megsim
