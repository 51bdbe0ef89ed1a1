// The compute unit's memory pipeline: coalescing per-lane addresses into line requests to the
// L1V, scalar requests to the scalar cache, instruction fetches to the L1I, LDS bank-conflict
// serialisation, and the in-order (vmcnt) or any-order (lgkmcnt for SMEM) retirement of
// outstanding memory instructions. It owns the op records caches report progress into.
#pragma once

#include <cstdint>
#include <vector>

#include "emu/executor.h"
#include "timing/cu/inst_buffer.h"
#include "timing/cu/inst_info.h"
#include "timing/cu/wave_state.h"
#include "timing/engine/engine.h"
#include "timing/mem/mem_req.h"

namespace strobe::timing {

/// The pipeline's parameters.
struct CuMemoryParams {
  uint32_t lds_banks = 32, lds_lanes_per_cycle = 32, lds_latency = 64;
  uint32_t line_bits = 6;
};

/// One CU's memory pipeline. Completions come back to `owner` (the CU) as kCuOpDone,
/// kCuExportDone and memory responses, which it hands to complete() and response().
class CuMemory {
 public:
  /// Sized for `slots` waves, each with its full complement of outstanding memory ops.
  CuMemory(const CuMemoryParams& p, uint32_t slots, Engine& engine, RequestPool& pool, Component* owner,
           Component* l1v, Component* scache, Component* l1i, CuCounters& counters);

  /// The access description the emulator fills while executing a memory instruction; clear()
  /// it before the instruction runs.
  emu::MemAccessInfo& access() { return mi_; }
  /// Forgets the previous access (no lanes, no space).
  void clear() {
    mi_.lane_mask = 0;
    mi_.space = emu::MemAccessInfo::Space::None;
  }
  /// A vector memory instruction of wave `ws` (slot `s`) just executed; sends its lines (or,
  /// FLAT into the LDS aperture, serves it from the LDS). Returns true if it went to the LDS
  /// (the caller then occupies the LDS issue port).
  bool issue_vmem(WaveState& ws, uint32_t s, const InstInfo& info, Cycle now);
  /// A scalar memory instruction just executed: sends its lines to the scalar cache.
  void issue_smem(WaveState& ws, uint32_t s, Cycle now);
  /// An LDS instruction (or FLAT into the LDS aperture, `via_flat`) just executed: occupies
  /// the LDS for its bank-conflict cycles (counted as the LDS unit's busy time).
  void issue_lds(WaveState& ws, uint32_t s, Cycle now, bool via_flat);
  /// Sends wave `s`'s instruction buffer fetch of the block at `ws.ib.hi` of `code_base`.
  void fetch(WaveState& ws, uint32_t s, uint64_t code_base, Cycle now);
  /// Op `op` has no outstanding lines: retires what its wave may retire. Returns the wave's
  /// slot, or UINT32_MAX if the wave is gone (a fault aborted the launch).
  uint32_t complete(std::vector<WaveState>& waves, uint32_t op);
  /// A response answering `lines` lines of op `op`; true when the op has none left (then call
  /// complete()).
  bool answer(uint32_t op, uint32_t lines) {
    ops_[op].pending = uint16_t(ops_[op].pending - lines);
    return ops_[op].pending == 0;
  }
  /// How far op `op`'s oldest access has travelled (for the CPI stack).
  const AccessProgress& progress(uint32_t op) const { return ops_[op].progress; }
  /// Frees every op record (after a fault aborted the launch).
  void reset();

  /// Cycles an LDS access with the current access's lanes takes (bank conflicts included).
  uint32_t lds_cycles() const;

 private:
  struct MemOp {
    uint32_t slot = 0;
    uint16_t pending = 0;
    AccessProgress progress;
    bool done = false, in_vm = false, counts_lgkm = false;
  };
  uint32_t alloc_op(uint32_t s);
  /// Sends a request for one line to `to` at `when`; returns its pool index.
  uint32_t send(Component* to, Cycle when, uint32_t op, uint64_t line, ReqKind kind, uint32_t tag);
  /// Appends op `op` to the wave's in-order vmcnt FIFO.
  static void push_vm(WaveState& ws, uint32_t op);

  CuMemoryParams p_;
  Engine& engine_;
  RequestPool& pool_;
  Component *owner_, *l1v_, *scache_, *l1i_;
  CuCounters& c_;
  std::vector<MemOp> ops_;
  std::vector<uint32_t> free_ops_;
  Cycle lds_free_{0};
  emu::MemAccessInfo mi_;
};

}  // namespace strobe::timing
