#include "timing/cu/compute_unit.h"

#include <algorithm>
#include <bit>

#include <fmt/format.h>

namespace strobe::timing {

const char* cpi_name(CpiReason r) {
  static const char* const kNames[] = {"issue", "dependency", "l1", "l2", "dram", "mshr_queue",
                                       "dram_queue", "barrier", "fetch", "other"};
  return kNames[size_t(r)];
}

namespace {
const char* const kTypeNames[] = {"valu", "scalar", "vmem", "lds", "branch", "internal"};
}

ComputeUnit::ComputeUnit(std::string name, uint32_t index, const CuParams& p, Engine& engine, RequestPool& pool,
                         StatsRegistry& stats, Component* l1v, Component* scache, Component* l1i)
    : Component(std::move(name)), index_(index), p_(p), engine_(engine), pool_(pool), l1v_(l1v), scache_(scache),
      l1i_(l1i) {
  const uint32_t slots = p_.res.simds * p_.res.slots_per_simd;
  waves_.resize(slots);
  slots_ = slots;
  age_.fill(UINT64_MAX);
  wake_.fill(Cycle::never());
  simd_wake_.fill(Cycle::never());
  wgs_.resize(p_.res.max_workgroups);
  ops_.resize(size_t(slots) * (kMaxVm + kMaxLgkm + 2));
  for (uint32_t i = uint32_t(ops_.size()); i-- > 0;) free_ops_.push_back(i);
  vgprs_used_.assign(p_.res.simds, 0);
  sgprs_used_.assign(p_.res.simds, 0);
  slots_used_.assign(p_.res.simds, 0);
  for (auto& pol : policy_) pol = make_issue_policy(p_.scheduler);
  const std::string& n = this->name();
  stats.add(n + ".wave_instructions", &c_.wave_instructions);
  stats.add(n + ".thread_instructions", &c_.thread_instructions);
  for (size_t t = 0; t < size_t(IssueType::COUNT); ++t) {
    stats.add(n + ".issued." + kTypeNames[t], &c_.issued[t]);
    if (IssueType(t) != IssueType::Internal) stats.add(n + ".busy." + kTypeNames[t], &c_.busy[t]);
  }
  for (size_t r = 0; r < size_t(CpiReason::COUNT); ++r) stats.add(n + ".cpi." + cpi_name(CpiReason(r)), &c_.cpi[r]);
  stats.add(n + ".workgroups", &c_.workgroups);
  stats.add(n + ".waves", &c_.waves);
  stats.add(n + ".fetches", &c_.fetches);
  stats.add(n + ".lds_conflict_cycles", &c_.lds_conflict_cycles);
  stats.add(n + ".vmem_lines", &c_.vmem_lines);
}

ComputeUnit::~ComputeUnit() = default;

void ComputeUnit::begin_launch(const LaunchContext* lc) {
  lc_ = lc;
  acct_until_ = engine_.now();
  last_reason_ = CpiReason::Other;
  last_reason_op_ = UINT32_MAX;
  peak_waves_ = 0;
  fstats_ = {};
}

bool ComputeUnit::can_accept() const {
  const WorkgroupNeeds& n = lc_->needs;
  const CuResources& r = p_.res;
  if (resident_wgs_ >= r.max_workgroups || lds_used_ + n.lds_bytes > r.lds_bytes) return false;
  // Place waves greedily on the SIMD with the most free slots that has the registers.
  uint32_t slots[16], vg[16], sg[16];
  for (uint32_t s = 0; s < r.simds; ++s) slots[s] = slots_used_[s], vg[s] = vgprs_used_[s], sg[s] = sgprs_used_[s];
  for (uint32_t i = 0; i < n.waves; ++i) {
    int best = -1;
    for (uint32_t s = 0; s < r.simds; ++s) {
      if (slots[s] >= r.slots_per_simd || vg[s] + n.vgprs_per_wave > r.vgprs_per_simd ||
          sg[s] + n.sgprs_per_wave > r.sgprs_per_simd)
        continue;
      if (best < 0 || slots[s] < slots[best]) best = int(s);
    }
    if (best < 0) return false;
    ++slots[best], vg[best] += n.vgprs_per_wave, sg[best] += n.sgprs_per_wave;
  }
  return true;
}

int ComputeUnit::pick_simd() const {
  const WorkgroupNeeds& n = lc_->needs;
  int simd = -1;
  for (uint32_t s = 0; s < p_.res.simds; ++s) {
    if (slots_used_[s] >= p_.res.slots_per_simd || vgprs_used_[s] + n.vgprs_per_wave > p_.res.vgprs_per_simd ||
        sgprs_used_[s] + n.sgprs_per_wave > p_.res.sgprs_per_simd)
      continue;
    if (simd < 0 || slots_used_[s] < slots_used_[simd]) simd = int(s);
  }
  return simd;
}

void ComputeUnit::launch_workgroup(Cycle now, uint64_t linear_id) {
  const WorkgroupNeeds& n = lc_->needs;
  uint32_t gi = 0;
  while (wgs_[gi].active) ++gi;
  WgState& g = wgs_[gi];
  if (!g.wg) g.wg = std::make_unique<emu::WorkGroup>();
  lc_->executor->init_workgroup(*g.wg, linear_id, index_ * p_.res.max_workgroups + gi);
  g.active = true;
  g.predicted = false;
  g.dispatched = now.value();
  g.id = linear_id;
  g.slots.clear();
  g.live_waves = uint32_t(g.wg->waves.size());
  ++resident_wgs_;
  lds_used_ += n.lds_bytes;
  ++c_.workgroups;
  if (lc_->observer) {
    if (const auto cycles = lc_->observer->predict_workgroup(*lc_->executor, *g.wg, fstats_, now.value())) {
      // Only the dispatcher's view is simulated: the group holds its resources for the
      // predicted time, as its waves would.
      g.predicted = true;
      g.simds.clear();
      for (uint32_t i = 0; i < g.live_waves; ++i) {
        const int simd = pick_simd();
        ++slots_used_[simd], vgprs_used_[simd] += n.vgprs_per_wave, sgprs_used_[simd] += n.sgprs_per_wave;
        g.simds.push_back(uint8_t(simd));
      }
      ++lc_->predicted_outstanding;
      engine_.schedule(now + *cycles, this, kPredictedDone, gi);
      return;
    }
  }
  const uint64_t entry = lc_->program->offsets[lc_->executor->entry_pc()];
  for (uint32_t i = 0; i < g.live_waves; ++i) {
    const int simd = pick_simd();
    ++slots_used_[simd], vgprs_used_[simd] += n.vgprs_per_wave, sgprs_used_[simd] += n.sgprs_per_wave;
    uint32_t slot = uint32_t(simd) * p_.res.slots_per_simd;
    while (waves_[slot].active) ++slot;
    WaveState& ws = waves_[slot];
    const uint32_t epoch = ws.epoch + 1;
    ws = WaveState{};
    ws.epoch = epoch;
    ws.active = true;
    ws.w = &g.wg->waves[i];
    ws.pc = ws.w->pc;
    ws.wg = gi;
    ws.simd = uint8_t(simd);
    ws.ib_lo = ws.ib_hi = entry / p_.fetch_bytes * p_.fetch_bytes;
    ws.ready_at = now + uint64_t(p_.wave_launch_cycles);
    set_wake(slot, ws.ready_at);
    age_[slot] = next_age_++;
    if (oldest_ == UINT32_MAX) oldest_ = slot;
    simd_mask_[simd] |= uint64_t{1} << (slot % 64);
    g.slots.push_back(slot);
    ++resident_waves_;
    ++c_.waves;
    if (lc_->observer) lc_->observer->wave_begin(index_ * slots_ + slot, now.value());
    wake_at(aligned(wake_[slot], ws.simd));
  }
  peak_waves_ = std::max(peak_waves_, resident_waves_);
}

void ComputeUnit::retire_predicted(uint32_t gi, Cycle now) {
  WgState& g = wgs_[gi];
  --lc_->predicted_outstanding;
  const WorkgroupNeeds& n = lc_->needs;
  for (uint8_t simd : g.simds)
    --slots_used_[simd], vgprs_used_[simd] -= n.vgprs_per_wave, sgprs_used_[simd] -= n.sgprs_per_wave;
  lc_->cus_with_room[index_ / 64] |= uint64_t{1} << (index_ % 64);
  finish_workgroup(g, now);
}

void ComputeUnit::finish_workgroup(WgState& g, Cycle now) {
  g.active = false;
  --resident_wgs_;
  lds_used_ -= lc_->needs.lds_bytes;
  fstats_.wavefronts += g.wg->waves.size();
  ++fstats_.workgroups;
  if (lc_->observer && !g.predicted) [[unlikely]] lc_->observer->workgroup_end(g.id, g.dispatched, now.value());
  engine_.schedule(now, lc_->dispatcher, 0, index_);
}

void ComputeUnit::observe_issue(uint32_t s, uint32_t pc, const InstInfo& in, Cycle now) {
  WaveState& ws = waves_[s];
  if (ws.last_pc != UINT32_MAX && lc_->interval_sum) {
    lc_->interval_sum[ws.last_pc] += (now - ws.last_issue).value();
    ++lc_->interval_count[ws.last_pc];
  }
  ws.last_pc = pc;
  ws.last_issue = now;
  if (ws.bb_ended) {
    lc_->observer->basic_block(index_ * slots_ + s, ws.bb_start, ws.bb_insts, ws.bb_issue.value(), now.value());
    ws.bb_insts = 0;
  }
  if (ws.bb_insts == 0) ws.bb_start = pc, ws.bb_issue = now;
  ++ws.bb_insts;
  ws.bb_ended = in.ends_bb;
}

void ComputeUnit::observe_retire(uint32_t s, Cycle now) {
  WaveState& ws = waves_[s];
  if (ws.last_pc != UINT32_MAX && lc_->interval_sum) {
    lc_->interval_sum[ws.last_pc] += (now - ws.last_issue).value();
    ++lc_->interval_count[ws.last_pc];
  }
  const WaveKey key = index_ * slots_ + s;
  if (ws.bb_insts) lc_->observer->basic_block(key, ws.bb_start, ws.bb_insts, ws.bb_issue.value(), now.value());
  lc_->observer->wave_end(key, now.value());
}

uint32_t ComputeUnit::simd_of(Cycle t) const {
  const uint64_t n = p_.res.simds;
  return uint32_t((n & (n - 1)) == 0 ? t.value() & (n - 1) : t.value() % n);
}

Cycle ComputeUnit::aligned(Cycle t, uint32_t simd) const {
  const uint64_t n = p_.res.simds;
  if ((n & (n - 1)) == 0) return t + ((simd - t.value()) & (n - 1));
  return t + (simd + n - t.value() % n) % n;
}

void ComputeUnit::wake_at(Cycle t) {
  if (t < engine_.now()) t = engine_.now();
  // A wave woken after its SIMD's turn in this cycle waits for the SIMD's next turn.
  if (t == last_tick_) t += uint64_t(p_.res.simds);
  if (tick_pending_ && tick_at_ <= t) return;
  tick_pending_ = true;
  tick_at_ = t;
  engine_.schedule(t, this, kTick);
}

void ComputeUnit::wake_wave(uint32_t s, Cycle now) {
  set_wake(s, now);
  wake_at(aligned(now, waves_[s].simd));
}

void ComputeUnit::set_wake(uint32_t s, Cycle t) {
  const uint32_t k = waves_[s].simd;
  const Cycle old = wake_[s];
  wake_[s] = t;
  Cycle& earliest = simd_wake_[k];
  if (t <= earliest) earliest = t;
  else if (old == earliest) simd_wake_dirty_ |= 1u << k;  // the earliest may have moved later
}

void ComputeUnit::sync(WaveState& ws) const {
  ws.pc = ws.w->pc;
  ws.halted = ws.w->halted;
  ws.at_barrier = ws.w->at_barrier;
}

void ComputeUnit::find_oldest() {
  uint64_t best = UINT64_MAX;
  oldest_ = UINT32_MAX;
  for (uint32_t s = 0; s < slots_; ++s)
    if (age_[s] < best) best = age_[s], oldest_ = s;
}

void ComputeUnit::handle(Cycle now, uint32_t kind, uint32_t arg) {
  switch (kind) {
    case kTick:
      if (!tick_pending_ || now != tick_at_) return;  // superseded by an earlier tick
      tick_pending_ = false;
      last_tick_ = now;
      tick(now);
      return;
    case kOpDone: return complete_op(arg, now);
    case kPredictedDone: return retire_predicted(arg, now);
    case kExpDone: {
      WaveState& ws = waves_[arg];
      --ws.exp;
      wake_wave(arg, now);
      retire_if_done(arg, now);
      return;
    }
    default:
      if (is_response(kind)) response(now, arg, response_lines(kind));
      return;
  }
}

CpiReason ComputeUnit::memory_reason(WaveState& ws, bool vm_wait) {
  ws.reason_op = UINT32_MAX;
  if (vm_wait && ws.vm_count) ws.reason_op = ws.vm_fifo[ws.vm_head];
  else if (!vm_wait && ws.last_smem_op != UINT32_MAX) ws.reason_op = ws.last_smem_op;
  else if (!vm_wait) return CpiReason::Dependency;  // waiting for the LDS
  return ws.reason_op == UINT32_MAX ? CpiReason::L1 : stage_reason(ops_[ws.reason_op].stage);
}

CpiReason ComputeUnit::stage_reason(uint8_t stage) {
  switch (MemStage(stage)) {
    case MemStage::MshrQueue: return CpiReason::MshrQueue;
    case MemStage::L2: return CpiReason::L2;
    case MemStage::Dram: return CpiReason::Dram;
    case MemStage::DramQueue: return CpiReason::DramQueue;
    default: return CpiReason::L1;
  }
}

bool ComputeUnit::evaluate(uint32_t s, Cycle now, bool& wants_fetch, IssueType& type) {
  WaveState& ws = waves_[s];
  wants_fetch = false;
  ws.reason_op = UINT32_MAX;
  auto block = [&](CpiReason r, Cycle wake) {
    ws.reason = r;
    set_wake(s, wake);
    return false;
  };
  if (ws.halted) return block(memory_reason(ws, ws.vm != 0), Cycle::never());
  if (ws.at_barrier) return block(CpiReason::Barrier, Cycle::never());
  if (now < ws.ready_at) return block(ws.ready_reason, ws.ready_at);
  const std::vector<InstInfo>& info = *lc_->info;
  const uint32_t pc = ws.pc;
  if (pc >= info.size()) return block(CpiReason::Issue, now + 1);  // step() will fault
  const InstInfo& in = info[pc];
  const uint64_t off = in.offset;
  wants_fetch = !ws.fetching && ws.ib_hi - std::min(ws.ib_hi, off) + p_.fetch_bytes <= p_.ib_bytes;
  if (off < ws.ib_lo || off + in.size > ws.ib_hi)
    return block(CpiReason::Fetch, ws.fetching ? Cycle::never() : now + 1);
  if (in.special == Special::Waitcnt) {
    const uint32_t vmcnt = in.simm16 & 0xF, expcnt = (in.simm16 >> 4) & 7, lgkmcnt = (in.simm16 >> 8) & 0xF;
    if (ws.vm > vmcnt) return block(memory_reason(ws, true), Cycle::never());
    if (ws.lgkm > lgkmcnt) return block(memory_reason(ws, false), Cycle::never());
    if (ws.exp > expcnt) return block(CpiReason::L1, Cycle::never());
  }
  switch (in.type) {
    case IssueType::Vmem:
      if (ws.vm >= kMaxVm) return block(memory_reason(ws, true), Cycle::never());
      if (ws.lgkm >= kMaxLgkm) return block(memory_reason(ws, false), Cycle::never());
      if (in.is_store && ws.exp >= kMaxExp) return block(CpiReason::L1, Cycle::never());
      break;
    case IssueType::Lds:
      if (ws.lgkm >= kMaxLgkm) return block(memory_reason(ws, false), Cycle::never());
      break;
    case IssueType::Scalar:
      if (in.is_scalar_mem && ws.lgkm >= kMaxLgkm) return block(memory_reason(ws, false), Cycle::never());
      break;
    default: break;
  }
  if (ws.sb.latest() > now) {  // some result is still in flight
    Cycle dep{0};
    for (uint32_t k = 0; k < in.nsrc; ++k) dep = max(dep, ws.sb.ready(in.src[k], now));
    for (uint32_t k = 0; k < in.ndst; ++k)  // write-after-write on a register still being produced
      dep = max(dep, ws.sb.ready(in.dst[k], now));
    if (dep > now) return block(CpiReason::Dependency, dep);
  }
  const Cycle unit = in.type == IssueType::Valu ? valu_free_[ws.simd] : unit_free_[size_t(in.type)];
  if (unit > now) return block(CpiReason::Issue, unit);
  ws.reason = CpiReason::Issue;
  set_wake(s, now + 1);
  type = in.type;
  return true;
}

void ComputeUnit::tick(Cycle now) {
  // Cycles skipped since the last tick keep the reason the CU had then; a memory wait is
  // charged to the deepest level its access has reached by now.
  if (now > acct_until_) {
    if (last_reason_op_ != UINT32_MAX) last_reason_ = stage_reason(ops_[last_reason_op_].stage);
    c_.cpi[size_t(last_reason_)] += (now - acct_until_).value();
  }
  const uint32_t simd = simd_of(now);
  uint64_t ready[size_t(IssueType::COUNT)] = {};
  uint64_t fetch_mask = 0;
  // Only waves whose state may have changed since their last evaluation are evaluated: every
  // block reason records the earliest cycle it could clear (or never, when only an event can
  // clear it, and events wake the wave), so re-evaluating any other wave would reproduce its
  // cached reason and wake time. Waves that lost the fetch arbitration retry every turn.
  const uint64_t candidates = simd_mask_[simd];
  for (uint64_t m = candidates; m; m &= m - 1) {
    const uint32_t s = uint32_t(std::countr_zero(m));
    if (wake_[s] > now && !(fetch_retry_ >> s & 1)) continue;
    bool wants_fetch = false;
    IssueType type = IssueType::Internal;
    if (evaluate(s, now, wants_fetch, type)) ready[size_t(type)] |= uint64_t{1} << s;
    if (wants_fetch) fetch_mask |= uint64_t{1} << s;
  }
  for (uint32_t f = 0; f < p_.fetches_per_cycle && fetch_mask; ++f) {
    const int s = oldest_in(fetch_mask, age_.data());
    fetch_mask &= ~(uint64_t{1} << s);
    start_fetch(uint32_t(s), now);
  }
  fetch_retry_ = (fetch_retry_ & ~candidates) | fetch_mask;
  bool issued = false;
  for (size_t t = 0; t < size_t(IssueType::Internal); ++t) {
    if (!ready[t]) continue;
    const int s = policy_[t]->pick(ready[t], age_.data());
    policy_[t]->issued(s);
    issue(uint32_t(s), now);
    issued = true;
  }
  for (uint64_t m = ready[size_t(IssueType::Internal)]; m; m &= m - 1) {
    issue(uint32_t(std::countr_zero(m)), now);
    issued = true;
  }
  // This cycle's CPI category: an issue, or what holds up the oldest resident wave.
  CpiReason r = CpiReason::Other;
  if (issued) {
    r = CpiReason::Issue;
  } else {
    const uint32_t oldest = oldest_;
    if (oldest != UINT32_MAX) {
      r = waves_[oldest].reason;
      if (waves_[oldest].reason_op != UINT32_MAX) r = stage_reason(ops_[waves_[oldest].reason_op].stage);
    }
    last_reason_op_ = oldest != UINT32_MAX ? waves_[oldest].reason_op : UINT32_MAX;
  }
  if (issued) last_reason_op_ = UINT32_MAX;
  ++c_.cpi[size_t(r)];
  last_charged_ = r;
  acct_until_ = now + 1;
  last_reason_ = resident_waves_ ? r : CpiReason::Other;
  // Sleep until the earliest wave could make progress (memory responses wake us earlier).
  Cycle next = Cycle::never();
  const uint32_t per_simd = p_.res.slots_per_simd;
  for (uint32_t k = 0; k < p_.res.simds; ++k) {
    if (simd_wake_dirty_ >> k & 1) {
      Cycle earliest = Cycle::never();
      for (uint32_t s = k * per_simd; s < (k + 1) * per_simd; ++s) earliest = min(earliest, wake_[s]);
      simd_wake_[k] = earliest;
    }
    if (!simd_wake_[k].is_never()) next = min(next, aligned(max(simd_wake_[k], now + 1), k));
  }
  simd_wake_dirty_ = 0;
  if (!next.is_never()) wake_at(next);
}

void ComputeUnit::redirect(WaveState& ws) {
  const isa::Program& prog = *lc_->program;
  ++ws.epoch;
  ws.fetching = false;
  const uint64_t off = ws.pc < prog.offsets.size() ? prog.offsets[ws.pc] : 0;
  ws.ib_lo = ws.ib_hi = off / p_.fetch_bytes * p_.fetch_bytes;
}

void ComputeUnit::start_fetch(uint32_t s, Cycle now) {
  WaveState& ws = waves_[s];
  ws.fetching = true;
  ++c_.fetches;
  const uint64_t addr = lc_->program->base_address + ws.ib_hi;
  const uint32_t tag = 0x80000000u | (s << 24) | (ws.epoch & 0xFFFFFF);
  send(l1i_, now, UINT32_MAX, addr >> p_.line_bits, ReqKind::Read, tag);
}

void ComputeUnit::issue(uint32_t s, Cycle now) {
  WaveState& ws = waves_[s];
  emu::Wave& w = *ws.w;
  WgState& g = wgs_[ws.wg];
  const uint32_t pc = ws.pc;
  const InstInfo& in = (*lc_->info)[pc];
  if (lc_->observer) [[unlikely]] observe_issue(s, pc, in, now);
  const bool mem = in.type == IssueType::Vmem || in.type == IssueType::Lds || in.is_scalar_mem;
  if (mem) {
    mi_.lane_mask = 0;
    mi_.space = emu::MemAccessInfo::Space::None;
  }
  g.wg->ctx.mem_info = mem ? &mi_ : nullptr;
  const uint64_t before = fstats_.thread_instructions;
  lc_->executor->step(w, *g.wg, fstats_);
  ++c_.wave_instructions;
  c_.thread_instructions += fstats_.thread_instructions - before;
  ++*lc_->wave_instructions;
  ++c_.issued[size_t(in.type)];
  sync(ws);
  ws.ib_lo = in.offset + in.size;
  if (ws.pc != pc + 1) redirect(ws);
  const Cycle done = now + uint64_t(in.latency);
  switch (in.type) {
    case IssueType::Valu:
      valu_free_[ws.simd] = now + uint64_t(in.busy);
      c_.busy[size_t(IssueType::Valu)] += in.busy;
      break;
    case IssueType::Scalar:
      unit_free_[size_t(IssueType::Scalar)] = now + uint64_t(in.busy);
      c_.busy[size_t(IssueType::Scalar)] += in.busy;
      if (in.is_scalar_mem) issue_smem(s, now);
      break;
    case IssueType::Vmem:
      unit_free_[size_t(IssueType::Vmem)] = now + uint64_t(in.busy);
      c_.busy[size_t(IssueType::Vmem)] += in.busy;
      issue_vmem(s, in, now);
      break;
    case IssueType::Lds: issue_lds(s, now, false); break;
    case IssueType::Branch:
      unit_free_[size_t(IssueType::Branch)] = now + uint64_t(in.busy);
      c_.busy[size_t(IssueType::Branch)] += in.busy;
      break;
    case IssueType::Internal:
      switch (in.special) {
        case Special::Nop:
          ws.ready_at = now + uint64_t((in.simm16 & 0xF) + 1);
          ws.ready_reason = CpiReason::Other;
          break;
        case Special::Sleep:
          ws.ready_at = now + uint64_t(64 * std::max<uint32_t>(1, in.simm16 & 0x7F));
          ws.ready_reason = CpiReason::Other;
          break;
        case Special::Barrier:
          if (emu::Executor::try_release_barrier(*g.wg)) release_barrier(g, now);
          break;
        case Special::Endpgm:
          if (emu::Executor::try_release_barrier(*g.wg)) release_barrier(g, now);
          retire_if_done(s, now);
          break;
        default: break;
      }
      break;
    default: break;
  }
  if (in.type == IssueType::Valu || (in.type == IssueType::Scalar && !in.is_scalar_mem) || in.type == IssueType::Branch)
    for (uint32_t k = 0; k < in.ndst; ++k) ws.sb.write(in.dst[k], done, now);  // branches: only s_swappc_b64
}

void ComputeUnit::release_barrier(WgState& g, Cycle now) {
  for (uint32_t s : g.slots) {
    WaveState& ws = waves_[s];
    if (!ws.active) continue;
    sync(ws);  // the emulator cleared every wave's at_barrier
    if (ws.halted) continue;
    ws.ready_at = max(ws.ready_at, now + uint64_t(p_.barrier_cycles));
    ws.ready_reason = CpiReason::Barrier;
    ws.reason = CpiReason::Barrier;  // what evaluating the wave before ready_at concludes
    ws.reason_op = UINT32_MAX;
    wake_wave(s, ws.ready_at);
  }
}

void ComputeUnit::retire_if_done(uint32_t s, Cycle now) {
  WaveState& ws = waves_[s];
  if (!ws.active || !ws.halted || ws.vm || ws.lgkm || ws.exp) return;
  const WorkgroupNeeds& n = lc_->needs;
  if (lc_->observer) [[unlikely]] observe_retire(s, now);
  ws.active = false;
  set_wake(s, Cycle::never());
  age_[s] = UINT64_MAX;
  if (oldest_ == s) find_oldest();
  fetch_retry_ &= ~(uint64_t{1} << s);
  simd_mask_[ws.simd] &= ~(uint64_t{1} << s);
  --slots_used_[ws.simd];
  vgprs_used_[ws.simd] -= n.vgprs_per_wave;
  sgprs_used_[ws.simd] -= n.sgprs_per_wave;
  --resident_waves_;
  lc_->cus_with_room[index_ / 64] |= uint64_t{1} << (index_ % 64);  // freed a slot and registers
  WgState& g = wgs_[ws.wg];
  if (--g.live_waves == 0) finish_workgroup(g, now);
}

void ComputeUnit::end_launch(Cycle end) {
  if (end > acct_until_) c_.cpi[size_t(CpiReason::Other)] += (end - acct_until_).value();
  // A tick in the launch's last cycle (before the dispatcher saw the last retirement) charged
  // a cycle that belongs to whatever runs next.
  if (acct_until_ > end) c_.cpi[size_t(last_charged_)] -= (acct_until_ - end).value();
  acct_until_ = end;
  last_reason_ = CpiReason::Other;
  last_reason_op_ = UINT32_MAX;
}

void ComputeUnit::abort_launch() {
  for (WaveState& ws : waves_) ws.active = false;
  wake_.fill(Cycle::never());
  simd_wake_.fill(Cycle::never());
  simd_wake_dirty_ = 0;
  age_.fill(UINT64_MAX);
  oldest_ = UINT32_MAX;
  fetch_retry_ = 0;
  for (WgState& g : wgs_) g.active = false;
  simd_mask_.fill(0);
  std::fill(slots_used_.begin(), slots_used_.end(), 0);
  std::fill(vgprs_used_.begin(), vgprs_used_.end(), 0);
  std::fill(sgprs_used_.begin(), sgprs_used_.end(), 0);
  free_ops_.clear();
  for (uint32_t i = uint32_t(ops_.size()); i-- > 0;) free_ops_.push_back(i);
  lds_used_ = resident_wgs_ = resident_waves_ = 0;
  tick_pending_ = false;
}

std::string ComputeUnit::describe_state() const {
  std::string out = fmt::format("{} work-groups, {} waves resident", resident_wgs_, resident_waves_);
  for (uint32_t s = 0; s < waves_.size(); ++s) {
    const WaveState& ws = waves_[s];
    if (!ws.active) continue;
    out += fmt::format("; wave {} pc {} {} vm={} lgkm={} exp={}{}{}", s, ws.pc, cpi_name(ws.reason), ws.vm, ws.lgkm,
                       ws.exp, ws.halted ? " halted" : "", ws.at_barrier ? " at-barrier" : "");
  }
  return out;
}

}  // namespace strobe::timing
