// Functional execution of a dispatch: work-groups in order (or spread over host threads with a
// result identical to that order), each work-group's waves interleaved at s_barrier granularity.
// The timing model drives the same pieces one instruction at a time.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "emu/dispatch.h"
#include "emu/dispatch_abi.h"
#include "emu/graphics.h"
#include "emu/semantics.h"
#include "emu/wave.h"

namespace strobe::emu {

class GlobalMemory;

/// One resident work-group: its waves, its LDS and the context its handlers see.
/// Do not move or copy after init_workgroup(): ctx.lds points into `lds`.
struct WorkGroup {
  std::array<uint32_t, 3> id{};    ///< work-group coordinates
  std::array<uint32_t, 3> size{};  ///< actual size (smaller than the enqueued size at the grid edge)
  std::vector<Wave> waves;
  std::vector<uint8_t> lds;
  ExecContext ctx;
  /// A graphics wave's interpolation inputs and counters (ctx.gfx points here); made by the
  /// graphics executor that first runs a wave in this group, null for compute.
  std::unique_ptr<GraphicsIo> gfx_io;
  WorkGroup() = default;
  WorkGroup(const WorkGroup&) = delete;
  WorkGroup& operator=(const WorkGroup&) = delete;
};

/// Executes one dispatch. Construction validates the launch and allocates the scratch backing
/// (and an AQL packet / amd_queue_t when the Dispatch carries none); destruction frees them.
/// A graphics stage derives from it to set its waves up from the draw's inputs instead of a
/// kernel's dispatch ABI (init_workgroup is the one virtual; step() and the loops are not).
class Executor {
 public:
  /// `slots` is how many work-groups may be resident at once (each gets its own scratch).
  Executor(const Dispatch& d, GlobalMemory& mem, uint32_t slots = 1);
  virtual ~Executor();
  Executor(const Executor&) = delete;
  Executor& operator=(const Executor&) = delete;

  /// Number of work-groups in the grid (partial ones at the edges included).
  uint64_t workgroup_count() const { return uint64_t(groups_[0]) * groups_[1] * groups_[2]; }
  /// Work-groups per dimension.
  const std::array<uint32_t, 3>& groups() const { return groups_; }
  /// Prepares `wg` to run work-group `linear_id` (x fastest) in resident slot `slot`.
  virtual void init_workgroup(WorkGroup& wg, uint64_t linear_id, uint32_t slot = 0);
  /// Runs `w` until it halts or reaches s_barrier. Faults throw FaultError.
  void run_wave(Wave& w, WorkGroup& wg, DispatchStats& stats) const;
  /// Receives a basic block run_wave_blocks() completed: `start_pc` and its instruction count.
  using BlockFn = void (*)(void* ctx, uint32_t start_pc, uint32_t instructions);
  /// run_wave() that also reports every basic block the wave completes: a block ends after an
  /// instruction whose `ends[pc]` is non-zero, and the partial block before a halt or barrier
  /// is reported too. As fast as run_wave() (the sampling methods' predicted work runs here).
  void run_wave_blocks(Wave& w, WorkGroup& wg, DispatchStats& stats, const uint8_t* ends, BlockFn fn,
                       void* ctx) const;
  /// Executes exactly one instruction of `w` (the timing model's entry point).
  void step(Wave& w, WorkGroup& wg, DispatchStats& stats) const;
  /// Releases waves waiting at a barrier once every non-halted wave has arrived; true if released.
  static bool try_release_barrier(WorkGroup& wg);
  /// Runs every wave of `wg` to completion, honouring barriers.
  void run_workgroup(WorkGroup& wg, DispatchStats& stats) const;
  /// Runs the whole grid and returns its counters. With `threads` > 1 (at most the executor's
  /// slots), runs of consecutive work-groups execute on that many host threads, with memory,
  /// counters, past-the-end log and the fault reported (the first in work-group order) as one
  /// thread leaves them, on two conditions: work-groups of a correct kernel do not race on
  /// plain loads and stores, and a kernel with global atomics (whose results can depend on the
  /// order) runs on one thread, as does memory under an overlay (see
  /// GlobalMemory::concurrent_kernels_allowed).
  DispatchStats run(uint32_t threads = 1);
  /// Dispatch being executed (with packet/queue addresses filled in).
  const Dispatch& dispatch() const { return d_; }
  /// Scratch geometry of this dispatch.
  const ScratchLayout& scratch() const { return scratch_; }
  /// Instruction index of the kernel entry.
  uint32_t entry_pc() const { return entry_pc_; }
  /// The memory the dispatch runs against.
  GlobalMemory& memory() const { return mem_; }

 private:
  Dispatch d_;
  GlobalMemory& mem_;
  std::array<uint32_t, 3> groups_{};
  uint32_t waves_per_group_ = 0, slots_ = 1, lds_bytes_ = 0, entry_pc_ = 0, vgpr_storage_ = 0;
  ScratchLayout scratch_;
  uint64_t owned_packet_ = 0, owned_queue_ = 0;
  uint64_t wave_budget_ = max_wave_instructions();  // instructions a wave may execute
  /// Faults `w`, which has executed its whole budget and would run `next`, naming the budget and
  /// its option.
  [[noreturn]] void over_budget(Wave& w, const isa::Inst& next, ExecContext& ctx) const;
  /// run() on `threads` threads (workgroup_threads.cpp).
  DispatchStats run_threads(uint32_t threads);
};

/// True if `p` holds a global-memory atomic (FLAT, MUBUF or MIMG): work-groups then see each
/// other's updates in an order that can change the results, so they run in order.
bool has_global_atomics(const isa::Program& p);

/// Executes every work-group of `d` against `mem` and returns the dispatch's counters; with
/// `threads` > 1, on that many host threads (Executor::run).
DispatchStats run_dispatch(const Dispatch& d, GlobalMemory& mem, uint32_t threads = 1);

}  // namespace strobe::emu
