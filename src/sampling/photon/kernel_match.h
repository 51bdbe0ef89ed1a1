// Photon's kernel sampling: which earlier kernel, if any, a new launch can take its IPC from.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace strobe::sampling {

/// An earlier launch that kernel sampling can match.
struct KernelRecord {
  uint32_t launch = 0;
  std::string kernel;
  std::vector<double> gpu_bbv;
  uint64_t warps = 0;
  double insts_per_sampled_warp = 0;  ///< of its online analysis
  uint64_t instructions = 0;          ///< wave instructions it executed
  double ipc = 0;                     ///< wave instructions per cycle it ran at
  bool first_of_kernel = false;       ///< the first launch of its kernel timed in detail (it may have run cold)
  bool superseded = false;            ///< replaced by a later detailed launch that matched it; never matches
};

/// A match: the record's index in the history and its GPU BBV distance.
struct KernelMatch {
  size_t index = 0;
  double distance = 0;
};

/// The earlier launch whose GPU BBV lies within `threshold` of `gpu_bbv` and whose warp count is
/// closest to `warps` (ties: the smaller distance, then the earlier launch). A launch with fewer
/// warps than the GPU has compute units only matches one with the same warp count, since its
/// time depends on how few cores it occupies. A record whose warp count or sampled instructions
/// per warp differ from the launch's by more than a factor `max_ratio` never matches: the BBV
/// holds instruction fractions, blind to trip counts, and the same loop over a quarter of the
/// warps or a ninth of the depth runs at another IPC. Records without an IPC, and superseded ones,
/// never match.
std::optional<KernelMatch> match_kernel(const std::vector<KernelRecord>& history, const std::vector<double>& gpu_bbv,
                                        uint64_t warps, double insts_per_sampled_warp, uint32_t num_cus,
                                        double threshold, uint32_t dims,
                                        double max_ratio = std::numeric_limits<double>::infinity());

/// Instructions Photon predicts for a launch from its sample and its match: the match's count
/// scaled by the ratio of sampled instructions per warp and by the warp counts.
uint64_t predict_instructions(const KernelRecord& match, double insts_per_sampled_warp, uint64_t warps);

}  // namespace strobe::sampling
