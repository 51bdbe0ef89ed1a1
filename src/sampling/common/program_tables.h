// What a method precomputes once per kernel program: the basic-block ends and the timing
// model's per-instruction classification. Shared by every method that reads either.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "isa/program.h"
#include "timing/config/gpu_config.h"
#include "timing/cu/inst_info.h"

namespace strobe::sampling {

/// Per-instruction tables of one program.
struct ProgramTables {
  std::vector<uint8_t> ends;             ///< timing::basic_block_ends(): 1 where a block ends
  std::vector<timing::InstInfo> info;    ///< timing::build_inst_info() at the configured timings
};

/// The tables of each program a method meets, built on first use and kept for its lifetime
/// (programs outlive the launches of a run; the cache is keyed by address).
class ProgramTableCache {
 public:
  /// `gpu`: the configuration whose instruction timings `info` reflects.
  explicit ProgramTableCache(const timing::GpuConfig& gpu);
  /// The tables of `p` (the reference stays valid for the cache's lifetime).
  const ProgramTables& get(const isa::Program& p);

 private:
  timing::InstTimingParams timing_;
  std::map<const isa::Program*, std::unique_ptr<ProgramTables>> tables_;
};

}  // namespace strobe::sampling
