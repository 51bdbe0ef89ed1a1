// TBPoint's thresholds in one place, with the paper's defaults (Huang et al., IPDPS'14, §IV-V).
#pragma once

#include <cstdint>

namespace strobe::sampling::tbpoint {

/// Every tunable of TBPoint. Defaults are the paper's (METHODS.md §1.6); the epoch size is not
/// here because it is not a choice: it is the system occupancy of the configured GPU.
struct Params {
  /// Inter-launch complete-linkage threshold on the 4-D launch feature vector [T §V-A].
  double sigma_inter = 0.1;
  /// Intra-launch complete-linkage threshold on the raw epoch stall probability [T §V-A]. Not
  /// normalised, as Eq. 5 implies, so nearly all non-outlier epochs of a launch merge.
  double sigma_intra = 0.2;
  /// An epoch whose variation factor max(CoV(mem reqs), CoV(wave insts)) exceeds this holds
  /// outlier work-groups and gets a cluster of its own [T §V-A].
  double variation_factor = 0.3;
  /// Two consecutive sampling units whose IPCs differ by less than this fraction of the earlier
  /// one end warming: the cache state is considered stable [T §IV-B2].
  double ipc_stability = 0.10;
  /// Cluster launches of different kernels together. Off in the paper, which clusters the
  /// launches of one kernel [T §I, §V-A]; on, it is strobe's extension.
  bool cross_kernel = false;

  /// Monte-Carlo samples of the Markov-chain lemma's validation [T §IV-A].
  int markov_samples = 10000;
  /// Half-width of M's 95% range as a fraction of its mean: sigma_M = spread * mu / 1.96 [T §IV-A].
  double markov_m_spread = 0.1;
  /// The lemma's band: a sample's IPC within this fraction of the mean IPC counts as close [T §IV-A].
  double markov_ipc_band = 0.1;
};

}  // namespace strobe::sampling::tbpoint
