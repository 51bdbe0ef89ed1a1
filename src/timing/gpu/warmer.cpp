#include "timing/gpu/warmer.h"

#include <algorithm>
#include <bit>

#include "timing/cu/coalesce.h"
#include "timing/mem/cache.h"

namespace strobe::timing {

using Space = emu::MemAccessInfo::Space;

Warmer::Warmer(std::vector<Cache*> l1v, std::vector<Cache*> scache, std::vector<Cache*> l1i, std::vector<Cache*> l2,
               uint32_t cus_per_array, uint32_t line_bytes)
    : l1v_(std::move(l1v)),
      scache_(std::move(scache)),
      l1i_(std::move(l1i)),
      l2_(std::move(l2)),
      cus_per_array_(std::max(1u, cus_per_array)),
      line_bits_(uint32_t(std::countr_zero(line_bytes))) {
  l2_pow2_ = std::has_single_bit(l2_.size());
  l2_mask_ = l2_.size() - 1;
}

void Warmer::access(Cache& l1, uint64_t line, ReqKind kind) {
  if (!l1.warm(line, kind)) return;
  // The L1 fetched or forwarded the line: the L2 sees a read for a fill, else the write or atomic.
  l2_[l2_pow2_ ? line & l2_mask_ : line % l2_.size()]->warm(line, kind);
}

void Warmer::apply(const WarmAccess& a) {
  Cache* l1 = a.path == WarmAccess::L1v      ? l1v_[a.cu]
              : a.path == WarmAccess::Scalar ? scache_[a.cu / cus_per_array_]
                                             : l1i_[a.cu / cus_per_array_];
  access(*l1, a.line, a.kind);
}

template <class Emit>
void Warmer::emit_accesses(uint32_t cu, const emu::MemAccessInfo& mi, Emit&& emit) const {
  if (mi.lane_mask == 0 || mi.space == Space::None || mi.space == Space::Lds) return;
  if (mi.space == Space::Scalar) {
    const uint64_t a = mi.lane_addr[0];
    const uint64_t first = a >> line_bits_, last = (a + std::max<uint32_t>(1, mi.bytes_per_lane) - 1) >> line_bits_;
    const ReqKind kind = mi.is_store ? ReqKind::Write : ReqKind::Read;
    for (uint64_t line = first; line <= last; ++line) emit(WarmAccess{line, cu, WarmAccess::Scalar, kind});
    return;
  }
  uint64_t lines[kMaxCoalescedLines];
  const uint32_t n = coalesce_lines(mi, line_bits_, lines);
  const ReqKind kind = mi.is_atomic ? ReqKind::Atomic : mi.is_store ? ReqKind::Write : ReqKind::Read;
  for (uint32_t i = 0; i < n; ++i) emit(WarmAccess{lines[i], cu, WarmAccess::L1v, kind});
}

void Warmer::vector_access(uint32_t cu, const emu::MemAccessInfo& mi) {
  if (mi.space == Space::Scalar) return;
  emit_accesses(cu, mi, [this](const WarmAccess& a) { apply(a); });
}

void Warmer::scalar_access(uint32_t cu, const emu::MemAccessInfo& mi) {
  if (mi.space != Space::Scalar) return;
  emit_accesses(cu, mi, [this](const WarmAccess& a) { apply(a); });
}

void Warmer::instruction_line(uint32_t cu, uint64_t line) { access(*l1i_[cu / cus_per_array_], line, ReqKind::Read); }

template <class Emit>
void Warmer::walk_wave(uint32_t cu, const emu::Executor& ex, emu::Wave& w, emu::WorkGroup& wg,
                       emu::DispatchStats& stats, emu::MemAccessInfo& mi, Emit&& emit, const uint8_t* ends,
                       emu::Executor::BlockFn fn, void* ctx) const {
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
      if (line != code_line) emit(WarmAccess{code_line = line, cu, WarmAccess::L1i, ReqKind::Read});
    }
    if (len == 0) start = pc;
    ++len;
    mi.lane_mask = 0;
    mi.space = Space::None;
    ex.step(w, wg, stats);
    emit_accesses(cu, mi, emit);
    if (ends && ends[pc]) {
      fn(ctx, start, len);
      len = 0;
    }
  }
  if (ends && len) fn(ctx, start, len);
  wg.ctx.mem_info = nullptr;  // `mi` is the caller's; the next user of the group must not write into it
}

void Warmer::run_wave(uint32_t cu, const emu::Executor& ex, emu::Wave& w, emu::WorkGroup& wg,
                      emu::DispatchStats& stats, const uint8_t* ends, emu::Executor::BlockFn fn, void* ctx) {
  walk_wave(cu, ex, w, wg, stats, mi_, [this](const WarmAccess& a) { apply(a); }, ends, fn, ctx);
}

void Warmer::run_workgroup(uint32_t cu, const emu::Executor& ex, emu::WorkGroup& wg, emu::DispatchStats& stats) {
  do {
    for (emu::Wave& w : wg.waves) run_wave(cu, ex, w, wg, stats);
  } while (emu::Executor::try_release_barrier(wg));
  stats.wavefronts += wg.waves.size();
  ++stats.workgroups;
}

void Warmer::record_workgroup(uint32_t cu, const emu::Executor& ex, emu::WorkGroup& wg, emu::DispatchStats& stats,
                              emu::MemAccessInfo& mi, std::vector<WarmAccess>& log) const {
  auto record = [&log](const WarmAccess& a) { log.push_back(a); };
  do {
    for (emu::Wave& w : wg.waves) walk_wave(cu, ex, w, wg, stats, mi, record, nullptr, nullptr, nullptr);
  } while (emu::Executor::try_release_barrier(wg));
  stats.wavefronts += wg.waves.size();
  ++stats.workgroups;
}

void Warmer::replay(const std::vector<WarmAccess>& log) {
  for (const WarmAccess& a : log) apply(a);
}

}  // namespace strobe::timing
