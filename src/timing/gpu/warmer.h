// Functional warming, as SMARTS does it: work that runs functionally (launches and work-groups a
// sampling method does not simulate in detail) still feeds its memory accesses into the timing
// model's own cache tags, so detailed work simulated later finds the caches as that work would
// have left them. Only tag, replacement and dirty state change: no time passes, no request
// exists and no counter moves. Each access takes the path a detailed one would take: the L1V of
// the work-group's CU, then the L2 bank of the line; scalar loads through the CU's scalar cache;
// the lines of the instructions a wave executes through its L1I. The accesses of one work-group
// reach the caches wave after wave rather than interleaved as resident waves would issue them.
#pragma once

#include <cstdint>
#include <vector>

#include "emu/executor.h"
#include "emu/semantics.h"
#include "timing/gpu/access_walk.h"
#include "timing/mem/mem_req.h"

namespace strobe::timing {

class Cache;
class Dram;

/// Feeds functionally executed instructions' accesses into a GPU's caches (see the file comment).
class Warmer {
 public:
  /// The GPU's caches: one L1V per CU, a scalar cache and an L1I per shader array of
  /// `cus_per_array` CUs, the L2 banks (a line goes to bank line % banks, as the L1s send it).
  Warmer(std::vector<Cache*> l1v, std::vector<Cache*> scache, std::vector<Cache*> l1i, std::vector<Cache*> l2,
         uint32_t cus_per_array, uint32_t line_bytes);

  /// Runs wave `w` of `wg` on CU `cu` until it halts or reaches a barrier, one Executor::step at
  /// a time (counting into `stats` as the executor does), warming the caches with every access.
  /// With `ends`, reports each basic block to `fn` exactly as Executor::run_wave_blocks does.
  void run_wave(uint32_t cu, const emu::Executor& ex, emu::Wave& w, emu::WorkGroup& wg, emu::DispatchStats& stats,
                const uint8_t* ends = nullptr, emu::Executor::BlockFn fn = nullptr, void* ctx = nullptr);
  /// Runs every wave of `wg` to completion on CU `cu`, honouring barriers (Executor::run_workgroup
  /// with warming).
  void run_workgroup(uint32_t cu, const emu::Executor& ex, emu::WorkGroup& wg, emu::DispatchStats& stats);
  /// run_workgroup() that leaves the caches alone and appends each access it would make to `log`
  /// instead, in order (with `mi` as the emulator's access record): safe on several threads at
  /// once, each with its own `mi` and `log`. replay() then warms the caches exactly as
  /// run_workgroup() would have.
  void record_workgroup(uint32_t cu, const emu::Executor& ex, emu::WorkGroup& wg, emu::DispatchStats& stats,
                        emu::MemAccessInfo& mi, std::vector<WarmAccess>& log) const;
  /// Warms the caches with recorded accesses, in order.
  void replay(const std::vector<WarmAccess>& log);

  /// A vector memory instruction of CU `cu` as the emulator recorded it: its coalesced lines
  /// (coalesce.h) through the CU's L1V and on to the L2. LDS accesses touch no cache.
  void vector_access(uint32_t cu, const emu::MemAccessInfo& mi);
  /// A scalar memory instruction of CU `cu`: every line it spans through the shader array's
  /// scalar cache and on to the L2.
  void scalar_access(uint32_t cu, const emu::MemAccessInfo& mi);
  /// Instruction line `line` (address / line size) fetched by a wave of CU `cu`.
  void instruction_line(uint32_t cu, uint64_t line);
  /// Warms the caches with one access of CU `a.unit` (a recorded one, or one a capture's warm
  /// state rebuilds for this GPU); a WarmAccess::L2 access goes straight to its L2 bank.
  void apply(const WarmAccess& a);
  /// Warms `dram`'s open rows too (null: not; the default): every line the L2 fetches or writes
  /// back opens its row, as it would have. A capture's warm state does this; the sampling
  /// methods' functional warming leaves DRAM as detailed work left it.
  void set_dram(Dram* dram) { dram_ = dram; }

 private:
  /// `line` through `l1` and, where the L1 passes it on, the L2.
  void access(Cache& l1, uint64_t line, ReqKind kind);
  /// `line` at its L2 bank (and DRAM's rows, when set_dram() asked for them).
  void l2_access(uint64_t line, ReqKind kind);
  std::vector<Cache*> l1v_, scache_, l1i_, l2_;
  Dram* dram_ = nullptr;
  uint32_t cus_per_array_;
  AccessWalker walk_;
  uint64_t l2_mask_ = 0;  // l2_.size() - 1
  bool l2_pow2_ = true;   // banks are a power of two: the bank is line & l2_mask_
  emu::MemAccessInfo mi_;
};

}  // namespace strobe::timing
