// The line accesses functionally executed instructions make, as the caches would see them: one
// walk shared by functional warming (warmer.h), which applies them to a GPU's caches, and by a
// workload capture (src/capture), which records them at a fixed granule with no GPU at all.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>

#include "emu/executor.h"
#include "emu/semantics.h"
#include "timing/cu/coalesce.h"
#include "timing/mem/mem_req.h"

namespace strobe::timing {

/// One line access of functionally executed work: which cache it starts in (the CU's L1V, its
/// shader array's scalar cache or L1I, or the L2 for the graphics fixed-function stages), the unit that made it (a CU when warming, a work-group
/// when capturing), the line and the access kind, and how far its wave was into the launch (its
/// instructions executed before the access: where the access falls in the group's lifetime).
struct WarmAccess {
  enum Path : uint8_t { L1v, Scalar, L1i, L2 };
  uint64_t line;
  uint32_t unit;
  Path path;
  ReqKind kind;
  uint32_t step = 0;
};

/// Walks functionally executed waves and hands each line access they make to a callback, lines
/// being `line_bytes` wide (a power of two): vector accesses coalesced as the CU coalesces them
/// (coalesce.h), scalar accesses as every line they span, and the instruction lines a wave
/// fetches as it reaches them.
class AccessWalker {
 public:
  explicit AccessWalker(uint32_t line_bytes) : line_bits_(uint32_t(std::countr_zero(line_bytes))) {}
  /// log2 of the line size.
  uint32_t line_bits() const { return line_bits_; }

  /// emit_accesses() for an access whose lanes' distinct first-byte lines it did not count.
  static constexpr uint32_t kLinesUncounted = UINT32_MAX;

  /// The line accesses of one emulated instruction `mi` of `unit`, made after `step` of its
  /// wave's instructions, to `emit(WarmAccess)`. Returns how many distinct lines the active
  /// lanes' first bytes fall in when that is what it emitted (a vector access no lane of which
  /// spans two lines: a profile's request count, found without counting again), else
  /// kLinesUncounted.
  template <class Emit>
  uint32_t emit_accesses(uint32_t unit, const emu::MemAccessInfo& mi, Emit&& emit, uint32_t step = 0) const {
    using Space = emu::MemAccessInfo::Space;
    if (mi.lane_mask == 0 || mi.space == Space::None || mi.space == Space::Lds) return kLinesUncounted;
    if (mi.space == Space::Scalar) {
      const uint64_t a = mi.lane_addr[0];
      const uint64_t first = a >> line_bits_, last = (a + std::max<uint32_t>(1, mi.bytes_per_lane) - 1) >> line_bits_;
      const ReqKind kind = mi.is_store ? ReqKind::Write : ReqKind::Read;
      for (uint64_t line = first; line <= last; ++line) emit(WarmAccess{line, unit, WarmAccess::Scalar, kind, step});
      return kLinesUncounted;
    }
    uint64_t lines[kMaxCoalescedLines];
    bool spans = false;
    const uint32_t n = coalesce_lines(mi, line_bits_, lines, &spans);
    const ReqKind kind = mi.is_atomic ? ReqKind::Atomic : mi.is_store ? ReqKind::Write : ReqKind::Read;
    for (uint32_t i = 0; i < n; ++i) emit(WarmAccess{lines[i], unit, WarmAccess::L1v, kind, step});
    return spans ? kLinesUncounted : n;
  }

  /// Runs wave `w` of `wg` until it halts or reaches a barrier, one Executor::step at a time
  /// (counting into `stats` as the executor does, with `mi` as the emulator's access record),
  /// handing every access of `unit` to `emit`. With `ends`, reports each basic block to `fn`
  /// exactly as Executor::run_wave_blocks does. `steps` counts the wave's instructions (it
  /// carries on across barriers when the caller keeps it).
  template <class Emit>
  void walk_wave(uint32_t unit, const emu::Executor& ex, emu::Wave& w, emu::WorkGroup& wg, emu::DispatchStats& stats,
                 emu::MemAccessInfo& mi, Emit&& emit, const uint8_t* ends = nullptr,
                 emu::Executor::BlockFn fn = nullptr, void* ctx = nullptr, uint32_t* steps = nullptr) const {
    uint32_t own = 0;
    uint32_t& step = steps ? *steps : own;
    const isa::Program& prog = *ex.dispatch().program;
    const uint32_t n = uint32_t(prog.insts.size());
    wg.ctx.mem_info = &mi;
    uint64_t code_line = UINT64_MAX;  // the instruction line the wave last fetched
    uint32_t start = w.pc, len = 0;
    while (!w.halted && !w.at_barrier) {
      const uint32_t pc = w.pc;
      if (pc < n) {  // else step() faults, naming the wave
        // A wave fetches each line its instructions occupy as it reaches it (the instruction
        // buffer's sequential prefetch and the redirect after a branch both land on these lines).
        const uint64_t line = (prog.base_address + prog.offsets[pc]) >> line_bits_;
        if (line != code_line) emit(WarmAccess{code_line = line, unit, WarmAccess::L1i, ReqKind::Read, step});
      }
      if (len == 0) start = pc;
      ++len;
      mi.lane_mask = 0;
      mi.space = emu::MemAccessInfo::Space::None;
      ex.step(w, wg, stats);
      emit_accesses(unit, mi, emit, step++);
      if (ends && ends[pc]) {
        fn(ctx, start, len);
        len = 0;
      }
    }
    if (ends && len) fn(ctx, start, len);
    wg.ctx.mem_info = nullptr;  // `mi` is the caller's; the next user of the group must not write into it
  }

  /// Runs every wave of `wg` to completion, honouring barriers, as walk_wave() does: the
  /// accesses of one work-group reach `emit` wave after wave.
  template <class Emit>
  void walk_workgroup(uint32_t unit, const emu::Executor& ex, emu::WorkGroup& wg, emu::DispatchStats& stats,
                      emu::MemAccessInfo& mi, Emit&& emit) const {
    uint32_t steps[kMaxWavesPerGroup] = {};
    do {
      for (size_t i = 0; i < wg.waves.size(); ++i)
        walk_wave(unit, ex, wg.waves[i], wg, stats, mi, emit, nullptr, nullptr, nullptr,
                  &steps[std::min<size_t>(i, kMaxWavesPerGroup - 1)]);
    } while (emu::Executor::try_release_barrier(wg));
    stats.wavefronts += wg.waves.size();
    ++stats.workgroups;
  }

 private:
  static constexpr size_t kMaxWavesPerGroup = 16;  // 1024 work-items of 64 lanes
  uint32_t line_bits_;
};

}  // namespace strobe::timing
