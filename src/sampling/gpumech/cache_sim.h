// GPUMech's cache-only simulation [D §4.5.2, METHODS.md §2.1, §2.9.5]: the traced vector memory
// instructions of a launch replayed through per-CU L1V tag arrays and the banked L2's, with no
// timing. Work-groups are placed as the dispatcher places them (placement.h); each round every
// CU feeds one memory instruction of its next resident wave, round-robin over its waves. The
// result is, per static instruction, how often it hit the L1, hit the L2 or missed the L2, a
// divergent instruction counted by its longest request.
#pragma once

#include <cstdint>
#include <vector>

#include "sampling/gpumech/launch_trace.h"
#include "sampling/gpumech/static_inst.h"
#include "sampling/gpumech/trace.h"
#include "timing/config/gpu_config.h"

namespace strobe::sampling::gpumech {

/// Miss events of one static memory instruction, counted over its dynamic executions.
struct PcEvents {
  uint64_t l1_hit = 0, l2_hit = 0, l2_miss = 0;

  /// Dynamic executions counted.
  uint64_t total() const { return l1_hit + l2_hit + l2_miss; }
  /// The counts as probabilities (all zero when nothing was counted).
  MissEvents distribution() const;
};

/// What the cache-only simulation found for a launch.
struct CacheSimResult {
  std::vector<PcEvents> per_pc;        ///< indexed by program instruction; zero for non-memory PCs
  std::vector<uint32_t> cu_of_group;   ///< the CU each work-group ran on
  uint64_t instructions = 0;           ///< memory instructions fed (those with at least one line)
  uint64_t requests = 0;               ///< lines fed
  uint64_t l1_hits = 0, l2_hits = 0, l2_misses = 0;  ///< per request (line)
};

/// Replays `trace` (of a program that `statics` describes) through the caches of `cfg` with
/// `groups_per_cu` work-groups resident per CU (the launch's occupancy). Replacement, sizes,
/// associativity, line size, banking and seeds are the detailed model's (timing::CacheParams):
/// the L1V is write-through without write-allocate and atomics pass it (invalidating a present
/// line), the L2 is write-back with write-allocate and performs atomics. A write or atomic that
/// allocates an L2 line counts as an L2 miss: the line goes to DRAM later (written back) or now
/// (an atomic's fetch). Throws InputError when the trace's line size is not the configuration's.
CacheSimResult simulate_caches(const LaunchTrace& trace, const std::vector<StaticInst>& statics,
                               const timing::GpuConfig& cfg, uint32_t groups_per_cu);

}  // namespace strobe::sampling::gpumech
