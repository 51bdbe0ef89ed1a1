// The compute unit's memory side: coalescing per-lane addresses into line requests, the
// scalar and instruction fetch requests, LDS bank-conflict serialisation, and the in-order
// (vmcnt) or any-order (lgkmcnt for SMEM) retirement of outstanding memory instructions.
#include <algorithm>
#include <bit>

#include "timing/cu/compute_unit.h"

namespace strobe::timing {

using Space = emu::MemAccessInfo::Space;

uint32_t ComputeUnit::alloc_op(uint32_t s) {
  const uint32_t op = free_ops_.back();
  free_ops_.pop_back();
  ops_[op] = MemOp{s, 0, 0, false, false, false};
  return op;
}

uint32_t ComputeUnit::send(Component* to, Cycle when, uint32_t op, uint64_t line, ReqKind kind, uint32_t tag) {
  const uint32_t r = pool_.alloc();
  MemReq& q = pool_[r];
  q.line = line;
  q.kind = kind;
  q.reply_to = this;
  q.tag = tag;
  q.stage = op == UINT32_MAX ? nullptr : &ops_[op].stage;
  engine_.schedule(when, to, kMemRequest, r);
  return r;
}

void ComputeUnit::issue_vmem(uint32_t s, const InstInfo& info, Cycle now) {
  WaveState& ws = waves_[s];
  if (mi_.space == Space::Lds) return issue_lds(s, now, true);  // FLAT into the LDS aperture
  const uint32_t op = alloc_op(s);
  MemOp& o = ops_[op];
  o.in_vm = true;
  o.counts_lgkm = info.is_flat;  // FLAT counts in both vmcnt and lgkmcnt
  if (info.is_flat) ++ws.lgkm;
  ws.vm_fifo[(ws.vm_head + ws.vm_count) % kFifo] = op;
  ++ws.vm_count;
  ++ws.vm;
  if (info.is_store) {
    ++ws.exp;
    engine_.schedule(now + uint64_t(info.busy), this, kExpDone, s);
  }
  // Coalesce: the distinct lines the active lanes touch, in lane order.
  uint64_t lines[2 * emu::kWaveSize];
  uint32_t n = 0;
  const uint32_t bytes = std::max<uint32_t>(1, mi_.bytes_per_lane);
  for (uint64_t m = mi_.lane_mask; m; m &= m - 1) {
    const uint64_t a = mi_.lane_addr[std::countr_zero(m)];
    for (uint64_t line : {a >> p_.line_bits, (a + bytes - 1) >> p_.line_bits}) {
      if (n && lines[n - 1] == line) continue;
      bool seen = false;
      for (uint32_t i = 0; i < n && !seen; ++i) seen = lines[i] == line;
      if (!seen) lines[n++] = line;
    }
  }
  c_.vmem_lines += n;
  if (n == 0) {  // no active lane: retires after address processing
    engine_.schedule(now + uint64_t(info.busy), this, kOpDone, op);
    return;
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
}

void ComputeUnit::issue_smem(uint32_t s, Cycle now) {
  WaveState& ws = waves_[s];
  const uint32_t op = alloc_op(s);
  ++ws.lgkm;
  ws.last_smem_op = op;
  if (mi_.lane_mask == 0) {
    engine_.schedule(now + 1, this, kOpDone, op);
    return;
  }
  const uint64_t a = mi_.lane_addr[0];
  const uint64_t first = a >> p_.line_bits, last = (a + std::max<uint32_t>(1, mi_.bytes_per_lane) - 1) >> p_.line_bits;
  ops_[op].pending = uint16_t(last - first + 1);
  const ReqKind kind = mi_.is_store ? ReqKind::Write : ReqKind::Read;
  for (uint64_t line = first; line <= last; ++line) send(scache_, now, op, line, kind, op);
}

uint32_t ComputeUnit::lds_cycles() const {
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

void ComputeUnit::issue_lds(uint32_t s, Cycle now, bool via_flat) {
  WaveState& ws = waves_[s];
  const uint32_t cycles = lds_cycles();
  const uint32_t ideal = std::max<uint32_t>(
      1, uint32_t(std::popcount(mi_.lane_mask) + p_.lds_lanes_per_cycle - 1) / p_.lds_lanes_per_cycle *
             std::max<uint32_t>(1, (mi_.bytes_per_lane + 3) / 4));
  if (cycles > ideal) c_.lds_conflict_cycles += cycles - ideal;
  const Cycle start = max(now, lds_free_);
  lds_free_ = start + uint64_t(cycles);
  unit_free_[size_t(IssueType::Lds)] = max(unit_free_[size_t(IssueType::Lds)], now + uint64_t(1));
  c_.busy[size_t(IssueType::Lds)] += cycles;
  const uint32_t op = alloc_op(s);
  ++ws.lgkm;
  if (via_flat) {  // a FLAT instruction counts in both vmcnt and lgkmcnt
    ops_[op].in_vm = true;
    ops_[op].counts_lgkm = true;
    ws.vm_fifo[(ws.vm_head + ws.vm_count) % kFifo] = op;
    ++ws.vm_count;
    ++ws.vm;
  }
  engine_.schedule(start + uint64_t(cycles) + p_.lds_latency, this, kOpDone, op);
}

void ComputeUnit::complete_op(uint32_t op, Cycle now) {
  MemOp& o = ops_[op];
  const uint32_t s = o.slot;
  WaveState& ws = waves_[s];
  if (!ws.active) return;  // launch aborted
  if (o.in_vm) {
    o.done = true;
    while (ws.vm_count && ops_[ws.vm_fifo[ws.vm_head]].done) {  // vmcnt retires in issue order
      const uint32_t h = ws.vm_fifo[ws.vm_head];
      ws.vm_head = uint8_t((ws.vm_head + 1) % kFifo);
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
  wake_wave(s, now);
  retire_if_done(s, now);
}

void ComputeUnit::response(Cycle now, uint32_t tag, uint32_t lines) {
  if (tag & 0x80000000u) {  // instruction fetch
    const uint32_t s = (tag >> 24) & 0x3F;
    WaveState& ws = waves_[s];
    if (!ws.active || !ws.fetching || (ws.epoch & 0xFFFFFF) != (tag & 0xFFFFFF)) return;  // stale
    ws.fetching = false;
    ws.ib_hi += p_.fetch_bytes;
    wake_wave(s, now);
    return;
  }
  ops_[tag].pending = uint16_t(ops_[tag].pending - lines);
  if (ops_[tag].pending == 0) complete_op(tag, now);
}

}  // namespace strobe::timing
