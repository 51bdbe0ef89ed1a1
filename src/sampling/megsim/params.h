// MEGsim's tunables, declared once (names as --sampling-set spells them): the paper's T and
// stage weights, and strobe's choices where the paper is silent (METHODS.md §4.2-4.5).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sampling/megsim/frame_features.h"
#include "sampling/method.h"

namespace strobe::sampling::megsim {

/// The names --sampling-set normalisation= takes.
inline std::vector<std::string> param_choices(Normalisation) { return {"group", "column"}; }

#define STROBE_MEGSIM_PARAMS(X)                                                                                   \
  X(double, bic_fraction, 0.85, 0, 1, "T: the smallest k whose BIC reaches min + T (max - min) is chosen")        \
  X(int, max_k, 64, 1, 100000, "largest k the BIC scan tries")                                                     \
  X(uint64_t, seed, 1, 0, 1e15, "k-means++ seed of the first restart")                                             \
  X(int, restarts, 5, 1, 100, "k-means restarts per k (the lowest within-cluster sum of squares wins)")          \
  X(Normalisation, normalisation, Normalisation::GroupTotal, 0, 1,                                               \
    "group (each group / its total over all frames and columns, the paper's reading) or column")                 \
  X(double, geometry_weight, 0.108, 0, 1, "weight of the vertex-shader group (the paper's Mali-450 power share)") \
  X(double, raster_weight, 0.745, 0, 1, "weight of the pixel-shader group")                                       \
  X(double, tiling_weight, 0.147, 0, 1, "weight of the primitive count")                                          \
  X(int, similarity_side, 256, 1, 4096, "the similarity matrix holds every step-th frame, at most this many")     \
  X(int, strata_frames, 0, 0, 1000000,                                                                           \
    "megsim-stratified: frames drawn over the clusters, Neyman-allocated (0: two per cluster)")                  \
  X(double, confidence, 0.95, 0.5, 0.999, "megsim-stratified: the confidence of its intervals")

/// Every tunable of MEGsim.
STROBE_METHOD_PARAMS(Params, STROBE_MEGSIM_PARAMS);

/// `sets` ("KEY=VALUE") resolved against MEGsim's parameters; InputError names an unknown key or
/// a bad value.
inline Params params_from(const std::vector<std::string>& sets) {
  MethodOptions o;
  resolve_params(Params::schema(), sets, o, true);
  return Params::from(o);
}

}  // namespace strobe::sampling::megsim
