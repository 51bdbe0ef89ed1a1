// MEGsim's per-frame feature vectors (METHODS.md §4.1-4.2): vertex-shader work per program,
// pixel-shader work per program and the primitives the tiler receives, each group normalised
// and weighted by its pipeline stage's share of activity. Independent of the graphics pipeline:
// the caller fills a FrameCounts per frame from whatever counted the frame.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <Eigen/Core>

#include "sampling/frame_method.h"

namespace strobe::sampling::megsim {

/// One frame's work, as MEGsim's features read it: vertex-shader work by program (VSCV),
/// pixel-shader work by program, texture-weighted (FSCV), and primitives reaching the tiler (PRIM).
using FrameWork = FrameCounts;

/// How a group of columns is scaled before weighting.
enum class Normalisation {
  GroupTotal,  ///< every element / the group's sum over all frames and columns (the paper's reading)
  Column,      ///< every element / its column's sum, over the group's column count
};

/// Weights of the three groups: the paper's Mali-450 power shares by default.
struct StageWeights {
  double geometry = 0.108;  ///< vertex-shader columns
  double raster = 0.745;    ///< pixel-shader columns
  double tiling = 0.147;    ///< the primitive column
};

using sampling::StageActivity;

/// Weights proportional to each stage's share of `a`, summing to 1: the paper's power shares,
/// with activity measured on the simulated pipeline in their place. std::invalid_argument when
/// an activity is negative or not finite, or all are zero.
StageWeights weights_from_activity(const StageActivity& a);

/// The frames x (p + q + 1) matrix the clustering reads.
struct FeatureMatrix {
  Eigen::MatrixXd x;                 ///< one row per frame
  std::vector<std::string> columns;  ///< "vs:NAME" (sorted), then "ps:NAME" (sorted), then "prim"
  int vertex_columns = 0, pixel_columns = 0;
};

/// Builds the weighted, normalised matrix. A group whose values are all zero stays zero. Weights
/// must be non-negative and finite (std::invalid_argument otherwise).
FeatureMatrix frame_features(const std::vector<FrameWork>& frames, Normalisation norm, const StageWeights& w);

}  // namespace strobe::sampling::megsim
