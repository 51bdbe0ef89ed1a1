#include "timing/cu/cu_memory.h"

#include <algorithm>
#include <bit>

#include "timing/cu/coalesce.h"
#include "timing/engine/events.h"

namespace strobe::timing {

using Space = emu::MemAccessInfo::Space;

CuMemory::CuMemory(const CuMemoryParams& p, uint32_t slots, Engine& engine, RequestPool& pool, Component* owner,
                   Component* l1v, Component* scache, Component* l1i, CuCounters& counters)
    : p_(p), engine_(engine), pool_(pool), owner_(owner), l1v_(l1v), scache_(scache), l1i_(l1i), c_(counters) {
  ops_.resize(size_t(slots) * (kMaxVm + kMaxLgkm + 2));
  reset();
}

void CuMemory::reset() {
  free_ops_.clear();
  for (uint32_t i = uint32_t(ops_.size()); i-- > 0;) free_ops_.push_back(i);
}

uint32_t CuMemory::alloc_op(uint32_t s) {
  const uint32_t op = free_ops_.back();
  free_ops_.pop_back();
  ops_[op] = MemOp{s, 0, AccessProgress{}, false, false, false};
  return op;
}

uint32_t CuMemory::send(Component* to, Cycle when, uint32_t op, uint64_t line, ReqKind kind, uint32_t tag) {
  const uint32_t r = pool_.make(line, kind, owner_, tag);
  pool_[r].progress = op == UINT32_MAX ? nullptr : &ops_[op].progress;
  engine_.schedule(when, to, kMemRequest, r);
  return r;
}

void CuMemory::push_vm(WaveState& ws, uint32_t op) {
  ws.vm_fifo[(ws.vm_head + ws.vm_count) % kVmFifo] = op;
  ++ws.vm_count;
  ++ws.vm;
}

void CuMemory::fetch(WaveState& ws, uint32_t s, uint64_t code_base, Cycle now) {
  ++c_.fetches;
  const uint64_t addr = code_base + ws.ib.hi;
  send(l1i_, now, UINT32_MAX, addr >> p_.line_bits, ReqKind::Read, ws.ib.start_fetch(s).encode());
}

bool CuMemory::issue_vmem(WaveState& ws, uint32_t s, const InstInfo& info, Cycle now) {
  if (mi_.space == Space::Lds) {  // FLAT into the LDS aperture
    issue_lds(ws, s, now, true);
    return true;
  }
  const uint32_t op = alloc_op(s);
  MemOp& o = ops_[op];
  o.in_vm = true;
  o.counts_lgkm = info.is_flat;  // FLAT counts in both vmcnt and lgkmcnt
  if (info.is_flat) ++ws.lgkm;
  push_vm(ws, op);
  if (info.is_store) {
    ++ws.exp;
    engine_.schedule(now + uint64_t(info.busy), owner_, kCuExportDone, s);
  }
  // Coalesce: the distinct lines the active lanes touch, in lane order.
  uint64_t lines[kMaxCoalescedLines];
  const uint32_t n = coalesce_lines(mi_, p_.line_bits, lines);
  c_.vmem_lines += n;
  if (n == 0) {  // no active lane: retires after address processing
    engine_.schedule(now + uint64_t(info.busy), owner_, kCuOpDone, op);
    return false;
  }
  o.pending = uint16_t(n);
  const ReqKind kind = mi_.is_atomic ? ReqKind::Atomic : mi_.is_store ? ReqKind::Write : ReqKind::Read;
  // One request carries every line: the L1V looks them up in order, as separate requests
  // arriving together would be, and answers its hits with one response.
  const uint32_t r = send(l1v_, now, op, lines[0], kind, op);
  if (n > 1) {
    MemReq& q = pool_[r];
    q.lines = pool_.alloc_lines(lines, n);
    q.count = uint16_t(n);
  }
  return false;
}

void CuMemory::issue_smem(WaveState& ws, uint32_t s, Cycle now) {
  const uint32_t op = alloc_op(s);
  ++ws.lgkm;
  ws.last_smem_op = op;
  if (mi_.lane_mask == 0) {
    engine_.schedule(now + 1, owner_, kCuOpDone, op);
    return;
  }
  const uint64_t a = mi_.lane_addr[0];
  const uint64_t first = a >> p_.line_bits, last = (a + std::max<uint32_t>(1, mi_.bytes_per_lane) - 1) >> p_.line_bits;
  ops_[op].pending = uint16_t(last - first + 1);
  const ReqKind kind = mi_.is_store ? ReqKind::Write : ReqKind::Read;
  for (uint64_t line = first; line <= last; ++line) send(scache_, now, op, line, kind, op);
}

uint32_t CuMemory::lds_cycles() const {
  // Lanes are served in groups; within a group each bank serves one distinct dword per cycle
  // (lanes reading the same dword share it), so a group takes as many cycles as its most
  // contended bank has distinct dwords, for each dword of the access. Dword d of every lane is
  // the lane's first dword + d, which only rotates the banks, so every dword of the access
  // costs the same as the first.
  const uint32_t banks = p_.lds_banks, group = p_.lds_lanes_per_cycle;
  const uint32_t dwords = std::max<uint32_t>(1, (mi_.bytes_per_lane + 3) / 4);
  const bool pow2 = (banks & (banks - 1)) == 0;
  uint32_t total = 0;
  for (uint32_t g0 = 0; g0 < uint32_t(emu::kWaveSize); g0 += group) {
    const uint64_t gm = (group >= 64 ? ~uint64_t{0} : ((uint64_t{1} << group) - 1) << g0) & mi_.lane_mask;
    if (!gm) continue;
    uint32_t worst = 1;
    // Common case first: every bank is asked for at most one distinct dword (conflict-free or
    // broadcast), checked in one pass.
    bool conflict = banks > 64;
    if (!conflict) {
      uint64_t used = 0;
      uint32_t first[64];
      for (uint64_t m = gm; m && !conflict; m &= m - 1) {
        const uint32_t v = uint32_t(mi_.lane_addr[std::countr_zero(m)] / 4);
        const uint32_t b = pow2 ? v & (banks - 1) : v % banks;
        if (!(used >> b & 1)) {
          used |= uint64_t{1} << b;
          first[b] = v;
        } else {
          conflict = first[b] != v;
        }
      }
    }
    if (conflict) {
      // The group's distinct dwords (insertion sort dropping duplicates), counted per bank.
      uint32_t dw[emu::kWaveSize];
      uint32_t n = 0;
      for (uint64_t m = gm; m; m &= m - 1) {
        const uint32_t v = uint32_t(mi_.lane_addr[std::countr_zero(m)] / 4);
        uint32_t i = n;
        for (; i > 0 && dw[i - 1] > v; --i) dw[i] = dw[i - 1];
        if (i > 0 && dw[i - 1] == v) {  // already present: undo the shift
          for (; i < n; ++i) dw[i] = dw[i + 1];
          continue;
        }
        dw[i] = v;
        ++n;
      }
      uint8_t count[256] = {};
      for (uint32_t i = 0; i < n; ++i) worst = std::max<uint32_t>(worst, ++count[dw[i] % banks]);
    }
    total += worst * dwords;
  }
  return std::max<uint32_t>(1, total);
}

void CuMemory::issue_lds(WaveState& ws, uint32_t s, Cycle now, bool via_flat) {
  const uint32_t cycles = lds_cycles();
  const uint32_t ideal = std::max<uint32_t>(
      1, uint32_t(std::popcount(mi_.lane_mask) + p_.lds_lanes_per_cycle - 1) / p_.lds_lanes_per_cycle *
             std::max<uint32_t>(1, (mi_.bytes_per_lane + 3) / 4));
  if (cycles > ideal) c_.lds_conflict_cycles += cycles - ideal;
  const Cycle start = max(now, lds_free_);
  lds_free_ = start + uint64_t(cycles);
  c_.busy[size_t(IssueType::Lds)] += cycles;
  const uint32_t op = alloc_op(s);
  ++ws.lgkm;
  if (via_flat) {  // a FLAT instruction counts in both vmcnt and lgkmcnt
    ops_[op].in_vm = true;
    ops_[op].counts_lgkm = true;
    push_vm(ws, op);
  }
  engine_.schedule(start + uint64_t(cycles) + p_.lds_latency, owner_, kCuOpDone, op);
}

uint32_t CuMemory::complete(std::vector<WaveState>& waves, uint32_t op) {
  MemOp& o = ops_[op];
  const uint32_t s = o.slot;
  WaveState& ws = waves[s];
  if (!ws.active) return UINT32_MAX;  // launch aborted
  if (o.in_vm) {
    o.done = true;
    while (ws.vm_count && ops_[ws.vm_fifo[ws.vm_head]].done) {  // vmcnt retires in issue order
      const uint32_t h = ws.vm_fifo[ws.vm_head];
      ws.vm_head = uint8_t((ws.vm_head + 1) % kVmFifo);
      --ws.vm_count;
      --ws.vm;
      if (ops_[h].counts_lgkm) --ws.lgkm;
      free_ops_.push_back(h);
    }
  } else {
    --ws.lgkm;
    if (ws.last_smem_op == op) ws.last_smem_op = UINT32_MAX;
    free_ops_.push_back(op);
  }
  return s;
}

}  // namespace strobe::timing
