// PKA's parameters, declared once: the struct the method reads and the schema --sampling-set
// validates against both come from this list.
#pragma once

#include <cstdint>

#include "sampling/common/ipc_stability.h"
#include "sampling/method.h"

namespace strobe::sampling {

// X(type, name, default, lo, hi, doc)
#define STROBE_PKA_PARAMS(X)                                                                                    \
  X(double, ipc_variance, kIpcRule.variance, 0.0, 1e9, "s: IPC variance threshold over the window")           \
  X(uint64_t, ipc_window, kIpcRule.window, 1, 1e9, "cycles of IPC history the variance is taken over")         \
  X(uint64_t, ipc_interval, kIpcRule.interval, 1, 1e6, "cycles between IPC samples")                           \
  X(uint32_t, open_generations, kIpcRule.generations, 0, 1000,                                                  \
    "strobe's extension: generations of work-groups that retire before the window opens (0: PKA's rule)")      \
  X(bool, open_after_l2_fill, 0, 0, 1,                                                                          \
    "strobe's extension: the window opens only once the groups that fill the L2 have retired (0: PKA's rule)") \
  X(bool, centroid_representative, 1, 0, 1,                                                                     \
    "strobe's extension: a cluster's representative is its launch nearest the centroid (0: its first, as PKA)") \
  X(bool, parallelism, 1, 0, 1,                                                                                 \
    "strobe's extension: a member's time scales by its representative's parallelism over its own (0: PKA)")      \
  X(double, group_exponent, 0.5, 0.0, 1.0,                                                                      \
    "with parallelism: how a CU's rate grows with the groups it holds (0: one saturates it; 1: linearly)")      \
  X(double, pca_variance, 0.95, 0.01, 1.0, "share of feature variance the kept principal components explain")  \
  X(int, max_clusters, 20, 1, 1000, "largest k tried")                                                         \
  X(double, cluster_explained, 0.95, 0.0, 1.0, "smallest k whose clustering explains this share of the variance")

/// PKA's parameters (names as --sampling-set spells them).
STROBE_METHOD_PARAMS(PkaParams, STROBE_PKA_PARAMS);

}  // namespace strobe::sampling
