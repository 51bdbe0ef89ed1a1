// Photon's parameters, declared once: the struct the method reads and the schema --sampling-set
// validates against both come from this list.
#pragma once

#include <cstdint>

#include "sampling/method.h"

namespace strobe::sampling {

// X(type, name, default, lo, hi, doc)
#define STROBE_PHOTON_PARAMS(X)                                                                                        \
  X(double, sample_fraction, 0.01, 1e-6, 1.0, "share of work-groups emulated for the online analysis (at least one)") \
  X(uint32_t, bb_window, 2048, 2, 1 << 20, "n: instances per basic-block type in the least-squares window")           \
  X(uint32_t, warp_window, 1024, 2, 1 << 20, "n: warps of the dominant type in the least-squares window")             \
  X(double, delta, 0.03, 1e-6, 1.0, "stability threshold on |1 - slope| and on the n vs 2n mean difference")          \
  X(double, bb_stable_share, 0.95, 0.0, 1.0,                                                                           \
    "share of sampled instructions in stable block types that switches to basic-block sampling")                      \
  X(double, dominant_warp_share, 0.95, 0.0, 1.0, "share of warps the dominant type needs for warp sampling")          \
  X(double, kernel_distance, 0.05, 0.0, 2.0,                                                                           \
    "GPU BBV distance (mean absolute per dimension) within which an earlier kernel matches")                          \
  X(double, kernel_size_ratio, 1.5, 1, 1e9,                                                                            \
    "largest ratio between a launch's and its match's warp counts, and between their sampled instructions per warp")  \
  X(uint32_t, bbv_dims, 16, 1, 256, "dimensions of the random projection of a warp's BBV")                            \
  X(double, max_warp_imbalance, 8, 1, 1e9,                                                                             \
    "longest over mean sampled-warp instructions above which basic-block and warp sampling are not used")             \
  X(bool, retime_first_match, 1, 0, 1,                                                                                 \
    "1: the first launch matched to its kernel's first timed launch is timed in detail instead, and replaces it as "  \
    "the record later launches match (strobe's extension; 0: the paper's rule)")                                     \
  X(bool, throughput_bound, 1, 0, 1,                                                                                   \
    "1: a group timed by its blocks holds its slots at least as long as its share of the units its resident waves " \
    "share, the SIMD's VALU and the CU's scalar, memory and branch units (strobe's extension; 0: the paper's rule)")  \
  X(bool, kernel_level, 1, 0, 1, "1: enable kernel sampling")                                                          \
  X(bool, warp_level, 1, 0, 1, "1: enable warp sampling")                                                              \
  X(bool, bb_level, 1, 0, 1, "1: enable basic-block sampling")

/// Photon's parameters (names as --sampling-set spells them).
STROBE_METHOD_PARAMS(PhotonParams, STROBE_PHOTON_PARAMS);

}  // namespace strobe::sampling
