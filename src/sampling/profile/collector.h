// What the functional profiling loop (profiler.h) reports, and the collector interface through
// which a method receives it. Hooks are resolved at compile time (the loop is a template over
// the collector), so a hook a collector does not define costs nothing in the hot loop.
#pragma once

#include <cstdint>

#include "emu/semantics.h"
#include "isa/inst.h"
#include "timing/gpu/access_walk.h"

namespace strobe::sampling::profile {

/// Functional counters of one wave or one work-group.
struct Counters {
  uint64_t wave_instructions = 0;
  /// Active lanes (popcount of EXEC at issue) summed over instructions, scalar ones included,
  /// as emu::DispatchStats counts them: the CUDA per-thread count the papers use.
  uint64_t thread_instructions = 0;
  /// Coalesced requests of vector memory instructions to global memory: per instruction, the
  /// distinct lines (at the profiler's line size) its active lanes touched. Counted only at
  /// Grain::Instruction, the only grain that sees addresses.
  uint64_t global_requests = 0;
  /// The same for private (scratch) memory. LDS accesses are never requests.
  uint64_t scratch_requests = 0;

  /// Adds `o` field by field.
  void add(const Counters& o) {
    wave_instructions += o.wave_instructions;
    thread_instructions += o.thread_instructions;
    global_requests += o.global_requests;
    scratch_requests += o.scratch_requests;
  }
};

/// How finely the loop runs a work-group: each grain adds cost to the one before.
enum class Grain : uint8_t {
  WorkGroup,    ///< whole waves at full emulation speed; instruction counters only
  Block,        ///< also reports every completed basic block (Collector::block)
  Instruction,  ///< one instruction at a time; memory requests and Collector::instruction
};

/// One executed instruction, reported at Grain::Instruction after it ran.
struct Instruction {
  uint32_t wave = 0;          ///< wave index in its work-group
  uint32_t pc = 0;            ///< instruction index in the program (before it ran)
  const isa::Inst* inst = nullptr;
  uint32_t active_lanes = 0;  ///< popcount of EXEC when it issued
  /// Vector memory instructions (FLAT, MUBUF, MTBUF, MIMG) only, else null: per-lane
  /// addresses, the lanes that accessed memory and the space (global, scratch or, for FLAT into
  /// the shared aperture, LDS).
  const emu::MemAccessInfo* mem = nullptr;
  uint32_t lines = 0;         ///< distinct lines `mem`'s lanes touched (0 when `mem` is null)
};

/// The hooks a collector may define: derive from this, set kGrain and hide the hooks it needs.
/// Every hook is a plain (non-virtual) member the loop calls directly. A collector that also
/// defines `bool can_split() const`, `C split() const` and `void join(C&&)` is Splittable
/// (profiler.h): Profiler::run_launch may then run its groups on host threads, each run of
/// consecutive groups into its own split(), joined in dispatch order.
struct Collector {
  /// The grain the loop runs at for this collector.
  static constexpr Grain kGrain = Grain::WorkGroup;
  /// Grain::Block: per instruction of the program, non-zero where a basic block ends
  /// (timing::basic_block_ends()).
  const uint8_t* block_ends() const { return nullptr; }
  /// Grain::Block: wave `wave` completed the block starting at `start_pc`, `instructions` long
  /// (a partial block before a barrier or the end is reported too).
  void block(uint32_t wave, uint32_t start_pc, uint32_t instructions) {}
  /// Grain::Instruction: one instruction ran.
  void instruction(const Instruction& i) {}
  /// Grain::Instruction: whether the loop also reports every line access the work makes, as
  /// functional warming walks them (timing/gpu/access_walk.h: instruction lines, scalar and
  /// vector accesses, the unit being the work-group's linear id and the step its wave's
  /// instructions before the access), at access_line_bytes(); a workload capture's history.
  static constexpr bool kAccesses = false;
  /// The line size accesses are reported at (a power of two).
  uint32_t access_line_bytes() const { return 64; }
  /// One line access, in the order the work made them (with kAccesses).
  void access(const timing::WarmAccess& a) {}
  /// After the work-group finished: wave `wave`'s counters, for every wave in order.
  void wave_end(uint32_t wave, const Counters& c) {}
  /// After the waves: the work-group's counters; `linear_id` is its dispatch-order index.
  void workgroup_end(uint64_t linear_id, const Counters& c) {}
};

}  // namespace strobe::sampling::profile
