// Photon's online analysis (MICRO'23 §4): emulate a sample of a kernel's warps before timing it,
// and derive the basic-block distribution, the warp types and the GPU BBV.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "emu/dispatch.h"
#include "emu/memory.h"
#include "sampling/numeric/mix.h"

namespace strobe::sampling {

/// Warps that executed the same basic blocks the same number of times.
struct WarpType {
  uint64_t key = 0;      ///< warp_type_key() of its blocks
  uint32_t warps = 0;    ///< sampled warps of this type
  uint64_t instructions = 0;  ///< per warp
  std::vector<double> projected;  ///< its BBV (instruction fractions) randomly projected
};

/// What the sample says about a kernel.
struct OnlineAnalysis {
  uint64_t workgroups = 0;          ///< in the whole grid
  uint64_t warps = 0;               ///< in the whole grid
  uint64_t sampled_workgroups = 0, sampled_warps = 0, sampled_instructions = 0;
  std::vector<WarpType> types;      ///< by descending warp count (ties: ascending key)
  std::vector<double> bb_share;     ///< per instruction index: share of sampled instructions in blocks starting there
  std::vector<uint32_t> bb_length;  ///< per instruction index: length of the block starting there (0: none seen)
  std::vector<double> mean_bb_count;  ///< per instruction index: executions per sampled warp
  std::vector<double> gpu_bbv;      ///< weighted projected BBVs of the types, in type order
  uint32_t entry_pc = 0;            ///< the kernel's entry: block keys and projections are relative to it
  /// Share of sampled warps in the most common type.
  double dominant_share() const { return types.empty() ? 0.0 : double(types[0].warps) / double(sampled_warps); }
  double instructions_per_warp() const { return sampled_warps ? double(sampled_instructions) / double(sampled_warps) : 0.0; }
  /// The longest sampled warp's instructions over the mean: 1 when every warp does equal work.
  double warp_imbalance() const {
    uint64_t longest = 0;
    for (const WarpType& t : types) longest = std::max(longest, t.instructions);
    const double mean = instructions_per_warp();
    return mean > 0 ? double(longest) / mean : 1.0;
  }
};

/// Order-independent key of a warp's basic-block multiset, accumulated one block at a time
/// (the timing model's observer and the analysis build it the same way), keyed relative to the
/// kernel's entry so that it does not depend on where the code object places the kernel.
inline uint64_t block_key(uint32_t start_pc, uint32_t entry_pc) {
  return mix64(uint64_t(start_pc - entry_pc) + 0x9E3779B97F4A7C15ull);  // callees before the entry wrap: still unique
}

/// One sampled warp's basic blocks: start instruction index -> executions.
using WarpBlocks = std::map<uint32_t, uint32_t>;

/// The projection seed of a kernel: different kernels get unrelated projection directions, so
/// their GPU BBVs do not match by accident.
uint64_t kernel_seed(const std::string& kernel_name);

/// Builds the analysis of sampled warps: warps with the same blocks executed the same number of
/// times form one type; `bb_length[pc]` is the length of the block starting at `pc` (the
/// program size long). Blocks are projected by their index relative to `entry_pc`, so a kernel's
/// BBV does not depend on where its code object places it. Leaves the grid-level counts
/// (workgroups, warps) at zero.
OnlineAnalysis build_analysis(const std::vector<WarpBlocks>& warps, const std::vector<uint32_t>& bb_length,
                              uint64_t kernel_seed, uint32_t dims, uint32_t entry_pc = 0);

/// Emulates max(1, round(fraction * work-groups)) evenly spaced work-groups of `d` on a memory
/// overlay (the image is unchanged afterwards) and analyses their warps. `ends` is
/// timing::basic_block_ends() of the program; `dims` the projection size. Throws FaultError if
/// the sample faults.
OnlineAnalysis analyze_sample(const emu::Dispatch& d, emu::GlobalMemory& mem, const std::vector<uint8_t>& ends,
                              double fraction, uint32_t dims);

/// Distance between two GPU BBVs: mean absolute difference per dimension, the shorter padded
/// with zeros. 0 for identical kernels; about 2/3 for unrelated ones.
double gpu_bbv_distance(const std::vector<double>& a, const std::vector<double>& b, uint32_t dims);

}  // namespace strobe::sampling
