// Sieve's parameters, declared once (Naderan-Tahan and Eeckhout, ISPASS'23): the struct the
// method reads and the schema --sampling-set validates both come from this list. The defaults
// are the paper's except strobe's two adaptations, groups=geometry and warm_representative=1
// (groups=kernel warm_representative=0 is the paper's Sieve).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sampling/method.h"

namespace strobe::sampling::sieve {

/// How tier-3 kernels are cut, and which launch represents a stratum.
enum class Strata : uint8_t {
  /// The paper's: the density's valleys between the counts (a Gaussian kernel at Scott's rule
  /// bandwidth, evaluated on a grid), every stratum represented by its first launch in program
  /// order.
  Paper,
  /// The public reimplementation's (STEM-AE figure7/sampling_methods/sieve.py): the density
  /// evaluated at the sorted counts only, bandwidth 1 instruction, a cut before every count
  /// whose density is no greater than its neighbours' (ends included), and a tier-3 stratum
  /// represented by its smallest launch.
  Reimplementation,
};
/// The names of Strata's values, as --sampling-set takes them.
inline std::vector<std::string> param_choices(Strata) { return {"paper", "reimplementation"}; }

/// How a stratum's other launches are timed from its representative.
enum class Projection : uint8_t {
  /// The paper's: the representative's cycles per wave instruction times the launch's own.
  Instructions,
  /// The reimplementation's: the representative's cycles, whatever the launch's size.
  Count,
};
/// The names of Projection's values, as --sampling-set takes them.
inline std::vector<std::string> param_choices(Projection) { return {"instructions", "count"}; }

/// What launches are stratified within.
enum class Groups : uint8_t {
  Kernel,    ///< the kernel name (the paper)
  Geometry,  ///< the kernel name, grid and work-group size (strobe's; STEM's reimplementation groups so)
};
/// The names of Groups's values, as --sampling-set takes them.
inline std::vector<std::string> param_choices(Groups) { return {"kernel", "geometry"}; }

// X(type, name, default, lo, hi, doc). warm_representative is strobe's adaptation: a kernel's
// first launch finds its code, and often its data, in no cache, and on the microsecond launches
// of a simulated workload that start-up can be a third of the launch; the paper's rule makes
// that launch the representative of every tier-1 and most tier-3 strata.
#define STROBE_SIEVE_PARAMS(X)                                                                                   \
  X(double, tier2_cov, 0.4, 0.0, 1e6, "instruction-count CoV below which a kernel is one tier-2 stratum")        \
  X(double, split_cov, 0.5, 0.0, 1e6, "CoV above which a tier-3 piece is cut once more")                         \
  X(double, bandwidth, 0, 0.0, 1e18,                                                                             \
    "KDE bandwidth in wave instructions (0: the strata variant's own, Scott's rule or 1)")                      \
  X(Strata, strata, Strata::Paper, 0, 1, "tier-3 cuts and representatives: paper or reimplementation")         \
  X(Projection, projection, Projection::Instructions, 0, 1,                                                      \
    "a member's time: instructions (rep CPI x its instructions, the paper) or count (rep cycles)")           \
  X(bool, warm_representative, 1, 0, 1,                                                                         \
    "1: a stratum is never represented by its kernel's first launch when it has another (strobe's; paper: 0)") \
  X(Groups, groups, Groups::Geometry, 0, 1, "what is stratified within: kernel (the paper) or geometry (strobe's)") \
  X(bool, intra_launch, 0, 0, 1,                                                                                \
    "strobe's extension: 1 ends each representative's detailed simulation at a stable IPC (PKA's rule), "     \
    "the rest of its launch projected (0: whole launches, the paper)")

/// Every tunable of Sieve (names as --sampling-set spells them).
STROBE_METHOD_PARAMS(Params, STROBE_SIEVE_PARAMS);

}  // namespace strobe::sampling::sieve
