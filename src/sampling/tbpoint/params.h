// TBPoint's thresholds, declared once with the paper's defaults (Huang et al., IPDPS'14, §IV-V):
// the struct the algorithms read and the schema --sampling-set validates both come from this list.
#pragma once

#include "sampling/method.h"

namespace strobe::sampling::tbpoint {

// X(type, name, default, lo, hi, doc). The epoch size is not here because it is not a choice:
// it is the system occupancy of the configured GPU.
//  - sigma_inter: complete-linkage threshold on the 4-D launch feature vector [T §V-A].
//  - sigma_intra: the same on the raw epoch stall probability [T §V-A]; not normalised, as
//    Eq. 5 implies, so nearly all non-outlier epochs of a launch merge.
//  - variation_factor: an epoch whose max(CoV(mem reqs), CoV(wave insts)) exceeds it holds
//    outlier work-groups and gets a cluster of its own [T §V-A].
//  - ipc_stability: two consecutive sampling units whose IPCs differ by less than this share of
//    the earlier one end warming [T §IV-B2].
//  - cross_kernel: cluster launches of different kernels together; off in the paper, which
//    clusters the launches of one kernel [T §I, §V-A]; on, it is strobe's extension.
//  - open_generations: strobe's extension; warming may begin only once this many generations
//    of work-groups (the groups dispatched before the first one retired) have retired. A
//    bandwidth-bound launch's first generations run ahead of DRAM, at up to twice the steady
//    IPC, and two units there agree within 10% (docs/sampling.md). 0 is the paper's rule.
//  - open_after_l2_fill: strobe's extension; warming also waits for the groups whose requests
//    fill the L2 to retire: before that no write-back has begun (sampling/common/steady_state.h).
//  - parallelism: strobe's extension; a member is projected from its representative's CPI times
//    its instructions (the paper) and times min(rep groups, occupancy) / min(member groups,
//    occupancy): launches smaller than a generation run their groups side by side.
#define STROBE_TBPOINT_PARAMS(X)                                                                               \
  X(double, sigma_inter, 0.1, 0.0, 1e6, "inter-launch complete-linkage distance threshold")                   \
  X(double, sigma_intra, 0.2, 0.0, 1e6, "intra-launch (epoch stall probability) linkage threshold")           \
  X(double, variation_factor, 0.3, 0.0, 1e6, "epoch variation factor above which its groups are outliers")    \
  X(double, ipc_stability, 0.10, 0.0, 10.0, "relative IPC change between sampling units that ends warming")   \
  X(bool, cross_kernel, 0, 0, 1, "1: cluster launches across kernels (strobe's extension; the paper: 0)")    \
  X(uint32_t, open_generations, 1, 0, 1000,                                                                   \
    "generations of work-groups retired before warming may begin (strobe's extension; the paper: 0)")         \
  X(bool, open_after_l2_fill, 0, 0, 1,                                                                        \
    "1: warming waits for the groups that fill the L2 to retire (strobe's extension; the paper: 0)")          \
  X(bool, parallelism, 1, 0, 1,                                                                               \
    "1: a member's projection scales by the groups it and its representative hold at once (strobe's; paper: 0)")

/// Every tunable of TBPoint (names as --sampling-set spells them).
STROBE_METHOD_PARAMS(Params, STROBE_TBPOINT_PARAMS);

}  // namespace strobe::sampling::tbpoint
