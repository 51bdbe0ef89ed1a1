// The per-work-group counts TBPoint clusters on, as a functional profile would record them.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace strobe::sampling::tbpoint {

/// What functional emulation counts for one work-group (one thread block in the paper).
struct WorkGroupCounts {
  /// Active lanes summed over the group's instructions (popcount(EXEC)); scalar instructions
  /// count their wave's active lanes too, mimicking CUDA's per-thread count.
  uint64_t thread_insts = 0;
  /// Issued wave instructions of every type.
  uint64_t wave_insts = 0;
  /// Coalesced global and private (scratch) requests: distinct cache lines per wave memory
  /// instruction at the profile's line size. LDS is excluded (CUDA's "local" is scratch).
  uint64_t mem_reqs = 0;
};

/// One kernel launch (AQL dispatch) of the profile.
struct LaunchProfile {
  std::string kernel;                    ///< kernel symbol name, the scope of same-kernel clustering
  std::array<uint32_t, 3> grid{1, 1, 1};   ///< work-items per dimension, as in emu::Dispatch
  std::array<uint32_t, 3> local{1, 1, 1};  ///< work-group size per dimension
  std::vector<WorkGroupCounts> groups;   ///< indexed by flattened work-group ID, which is dispatch order

  /// Σ thread instructions over the launch's groups.
  uint64_t thread_insts() const {
    uint64_t s = 0;
    for (const auto& g : groups) s += g.thread_insts;
    return s;
  }
  /// Σ wave instructions over the launch's groups.
  uint64_t wave_insts() const {
    uint64_t s = 0;
    for (const auto& g : groups) s += g.wave_insts;
    return s;
  }
  /// Σ memory requests over the launch's groups.
  uint64_t mem_reqs() const {
    uint64_t s = 0;
    for (const auto& g : groups) s += g.mem_reqs;
    return s;
  }
};

/// A whole workload's profile: its launches in program order.
struct ProgramProfile {
  /// Cache-line size the memory requests were coalesced at; a different size means re-profiling.
  uint32_t line_bytes = 64;
  std::vector<LaunchProfile> launches;  ///< in launch order
};

}  // namespace strobe::sampling::tbpoint
