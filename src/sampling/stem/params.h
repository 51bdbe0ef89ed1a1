// STEM+ROOT's parameters, declared once (MICRO'25, as ../shared/METHODS.md §7.2 gives them):
// the struct the method reads and the schema --sampling-set validates both come from this list.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sampling/method.h"

namespace strobe::sampling::stem {

/// What launches are first grouped by.
enum class Groups : uint8_t {
  Kernel,    ///< the kernel name (the paper)
  Geometry,  ///< the kernel name, grid and work-group size (the public reimplementation)
};
/// The names of Groups's values, as --sampling-set takes them.
inline std::vector<std::string> param_choices(Groups) { return {"kernel", "geometry"}; }

/// How a cluster's total is estimated from its sampled launches.
enum class Estimator : uint8_t {
  /// The paper's expansion estimator: N/n times the sampled launches' cycles; every launch not
  /// sampled is given their mean.
  Mean,
  /// strobe's: the sampled launches' cycles per unit of signature times each launch's own (the
  /// separate ratio estimator).
  Ratio,
};
/// The names of Estimator's values, as --sampling-set takes them.
inline std::vector<std::string> param_choices(Estimator) { return {"mean", "ratio"}; }

/// The proxy of a launch's silicon time that clusters and sample sizes come from (strobe has no
/// silicon time before it simulates; see docs/sampling.md, STEM).
enum class Signature : uint8_t {
  Instructions,  ///< its executed wave instructions, from the profile
  /// GPUMech's prediction of its cycles on the configuration being simulated, from the saved
  /// traces of a capture or profile made with --gpumech (or traced by the profiling pass)
  Gpumech,
};
/// The names of Signature's values, as --sampling-set takes them.
inline std::vector<std::string> param_choices(Signature) { return {"instructions", "gpumech"}; }

// X(type, name, default, lo, hi, doc). The defaults are the paper's except strobe's three
// adaptations, groups=geometry, estimator=ratio and first_apart=1 (groups=kernel estimator=mean
// first_apart=0 is the paper's STEM+ROOT).
#define STROBE_STEM_PARAMS(X)                                                                               \
  X(double, error, 0.05, 1e-6, 1.0, "epsilon: relative error bound the sample sizes are chosen for")       \
  X(double, confidence, 0.95, 0.5, 0.999999, "confidence of the bound")                                     \
  X(bool, root, 1, 0, 1, "1: ROOT splits each group while that lowers the simulated time; 0: STEM alone") \
  X(Groups, groups, Groups::Geometry, 0, 1, "first grouping: kernel (the paper) or geometry (strobe's)")    \
  X(Estimator, estimator, Estimator::Ratio, 0, 1, "a cluster's total: mean (the paper) or ratio (strobe's)") \
  X(Signature, signature, Signature::Instructions, 0, 1, "time proxy: instructions or gpumech")             \
  X(bool, first_apart, 1, 0, 1, "1: each group's first launch is a cluster of its own (strobe's; paper: 0)") \
  X(uint64_t, pilot, 0, 0, 1e6,                                                                             \
    "0: sample sizes from the signature (the paper); N: N of each cluster first, then sizes from the "       \
    "cycles' measured spread (strobe's two-stage)")                                                          \
  X(uint64_t, seed, 1, 0, 1e15, "seed of the random draw of each cluster's sample")                          \
  X(bool, intra_launch, 0, 0, 1,                                                                             \
    "strobe's extension: 1 ends each sampled launch's detailed simulation at a stable IPC (PKA's rule), "  \
    "the rest of its launch projected, outside the bound (0: whole launches, the paper)")

/// Every tunable of STEM (names as --sampling-set spells them).
STROBE_METHOD_PARAMS(Params, STROBE_STEM_PARAMS);

}  // namespace strobe::sampling::stem
