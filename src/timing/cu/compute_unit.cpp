// The compute unit's cycle: catch up the CPI stack, evaluate the waves of the SIMD whose turn
// it is, arbitrate fetches and issue, charge the cycle, sleep until the next wave could move.
#include "timing/cu/compute_unit.h"

#include <algorithm>
#include <bit>

#include <fmt/format.h>

#include "timing/engine/events.h"

namespace strobe::timing {

namespace {
const char* const kTypeNames[] = {"valu", "scalar", "vmem", "lds", "branch", "export", "internal"};

CuMemoryParams memory_params(const CuParams& p) {
  return {p.lds_banks, p.lds_lanes_per_cycle, p.lds_latency, p.line_bits};
}
}  // namespace

ComputeUnit::ComputeUnit(std::string name, uint32_t index, const CuParams& p, Engine& engine, RequestPool& pool,
                         StatsRegistry& stats, Component* l1v, Component* scache, Component* l1i)
    : Component(std::move(name)), index_(index), p_(p), engine_(engine), arbiter_(p.scheduler, p.res.simds), res_(p.res),
      mem_(memory_params(p), p.res.simds * p.res.slots_per_simd, engine, pool, this, l1v, scache, l1i, c_) {
  const uint32_t slots = p_.res.simds * p_.res.slots_per_simd;
  waves_.resize(slots);
  slots_ = slots;
  age_.fill(UINT64_MAX);
  wake_.fill(Cycle::never());
  simd_wake_.fill(Cycle::never());
  // Barrier groups are bounded by max_workgroups; graphics waves (one per group, no barrier)
  // only by the wave slots.
  wgs_.resize(p_.res.max_workgroups + slots);
  const std::string& n = this->name();
  stats.add(n + ".wave_instructions", &c_.wave_instructions);
  stats.add(n + ".thread_instructions", &c_.thread_instructions);
  for (size_t t = 0; t < size_t(IssueType::COUNT); ++t) {
    stats.add(n + ".issued." + kTypeNames[t], &c_.issued[t]);
    if (IssueType(t) != IssueType::Internal) stats.add(n + ".busy." + kTypeNames[t], &c_.busy[t]);
  }
  for (size_t r = 0; r < size_t(CpiReason::COUNT); ++r)
    stats.add(n + ".cpi." + cpi_name(CpiReason(r)), &cpi_.stack()[r]);
  stats.add(n + ".workgroups", &c_.workgroups);
  stats.add(n + ".waves", &c_.waves);
  stats.add(n + ".fetches", &c_.fetches);
  stats.add(n + ".lds_conflict_cycles", &c_.lds_conflict_cycles);
  stats.add(n + ".vmem_lines", &c_.vmem_lines);
  stats.add(n + ".matrix_busy", &c_.matrix_busy);
  for (uint32_t simd = 0; simd < p_.res.simds; ++simd) {
    stats.add(fmt::format("{}.simd.{}.issued", n, simd), &c_.simd_issued[simd]);
    stats.add(fmt::format("{}.simd.{}.valu_busy", n, simd), &c_.simd_valu_busy[simd]);
  }
}

ComputeUnit::~ComputeUnit() = default;

void ComputeUnit::begin_launch(const LaunchContext* lc) {
  lc_ = lc;
  cpi_.begin(engine_.now());
  peak_waves_ = 0;
  fstats_ = {};
}

void ComputeUnit::handle(Cycle now, uint32_t kind, uint32_t arg) {
  switch (kind) {
    case kCuTick:
      if (!tick_pending_ || now != tick_at_) return;  // superseded by an earlier tick
      tick_pending_ = false;
      last_tick_ = now;
      tick(now);
      return;
    case kCuOpDone: return op_done(arg, now);
    case kCuPredictedDone: return retire_predicted(arg, now);
    case kCuLaunch: return start_waves(arg, now);
    case kCuExportDone: {
      WaveState& ws = waves_[arg];
      --ws.exp;
      wake_wave(arg, now);
      retire_if_done(arg, now);
      return;
    }
    default:
      if (!is_response(kind)) unhandled(kind);
      response(now, arg, response_lines(kind));
      return;
  }
}

void ComputeUnit::tick(Cycle now) {
  cpi_.catch_up(now);
  const uint32_t simd = simd_of(now);
  const uint64_t candidates = simd_mask_[simd];
  IssueArbiter::ReadyMasks ready{};
  const uint64_t wants_fetch = evaluate_waves(candidates, now, ready);
  const uint64_t lost = IssueArbiter::arbitrate_fetch(wants_fetch, p_.fetches_per_cycle, age_.data(),
                                                      [&](uint32_t s) { start_fetch(s, now); });
  fetch_retry_ = (fetch_retry_ & ~candidates) | lost;
  const bool issued = arbiter_.arbitrate(simd, ready, age_.data(), [&](uint32_t s) { issue(s, now); });
  charge_cycle(now, issued);
  sleep(now);
}

uint64_t ComputeUnit::evaluate_waves(uint64_t candidates, Cycle now, IssueArbiter::ReadyMasks& ready) {
  // Only waves whose state may have changed since their last evaluation are evaluated: every
  // block reason records the earliest cycle it could clear (or never, when only an event can
  // clear it, and events wake the wave), so re-evaluating any other wave would reproduce its
  // cached reason and wake time. Waves that lost the fetch arbitration retry every turn.
  uint64_t fetch_mask = 0;
  for (uint64_t m = candidates; m; m &= m - 1) {
    const uint32_t s = uint32_t(std::countr_zero(m));
    if (wake_[s] > now && !(fetch_retry_ >> s & 1)) continue;
    bool wants_fetch = false;
    IssueType type = IssueType::Internal;
    if (evaluate(s, now, wants_fetch, type)) ready[size_t(type)] |= uint64_t{1} << s;
    if (wants_fetch) fetch_mask |= uint64_t{1} << s;
  }
  return fetch_mask;
}

void ComputeUnit::charge_cycle(Cycle now, bool issued) {
  CpiReason r = CpiReason::Other;
  const AccessProgress* waiting_on = nullptr;
  if (issued) {
    r = CpiReason::Issue;
  } else if (oldest_ != UINT32_MAX) {
    const WaveState& o = waves_[oldest_];
    r = o.reason;
    if (o.reason_op != UINT32_MAX) {
      waiting_on = &mem_.progress(o.reason_op);
      r = cpi_reason(waiting_on->stage());
    }
  }
  cpi_.charge(now, r, waiting_on, resident_waves_ != 0);
}

void ComputeUnit::sleep(Cycle now) {
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

CpiReason ComputeUnit::memory_reason(WaveState& ws, bool vm_wait) {
  ws.reason_op = UINT32_MAX;
  if (vm_wait && ws.vm_count) ws.reason_op = ws.vm_fifo[ws.vm_head];
  else if (!vm_wait && ws.last_smem_op != UINT32_MAX) ws.reason_op = ws.last_smem_op;
  else if (!vm_wait) return CpiReason::Dependency;  // waiting for the LDS
  return ws.reason_op == UINT32_MAX ? CpiReason::L1 : cpi_reason(mem_.progress(ws.reason_op).stage());
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
  const uint32_t pc = ws.pc;
  if (pc >= ws.code.size) return block(CpiReason::Issue, now + 1);  // step() will fault
  const InstInfo& in = ws.code.info[pc];
  wants_fetch = ws.ib.wants_fetch(in.offset, p_.fetch_bytes, p_.ib_bytes);
  if (!ws.ib.holds(in.offset, in.size)) return block(CpiReason::Fetch, ws.ib.fetching ? Cycle::never() : now + 1);
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
    case IssueType::Export:
      if (ws.exp >= kMaxExp) return block(CpiReason::Other, Cycle::never());
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
  if (in.matrix && matrix_free_[ws.simd] > now) return block(CpiReason::Issue, matrix_free_[ws.simd]);
  ws.reason = CpiReason::Issue;
  set_wake(s, now + 1);
  type = in.type;
  return true;
}

void ComputeUnit::issue(uint32_t s, Cycle now) {
  WaveState& ws = waves_[s];
  emu::Wave& w = *ws.w;
  const uint32_t pc = ws.pc;
  const InstInfo& in = ws.code.info[pc];
  if (lc_->observer) [[unlikely]] observe_issue(s, pc, in, now);
  const bool mem = in.type == IssueType::Vmem || in.type == IssueType::Lds || in.is_scalar_mem;
  if (mem) mem_.clear();
  ws.group->ctx.mem_info = mem ? &mem_.access() : nullptr;
  const uint64_t before = fstats_.thread_instructions;
  ws.executor->step(w, *ws.group, fstats_);
  ++c_.wave_instructions;
  ++c_.simd_issued[ws.simd];
  c_.thread_instructions += fstats_.thread_instructions - before;
  ++*lc_->wave_instructions;
  ++c_.issued[size_t(in.type)];
  sync(ws);
  ws.ib.consume(in.offset + in.size);
  if (ws.pc != pc + 1) redirect(ws);
  const Cycle done = now + uint64_t(in.latency);
  Cycle& lds_port = unit_free_[size_t(IssueType::Lds)];
  switch (in.type) {
    case IssueType::Valu:
      valu_free_[ws.simd] = now + uint64_t(in.busy);
      c_.busy[size_t(IssueType::Valu)] += in.busy;
      c_.simd_valu_busy[ws.simd] += in.busy;
      if (in.matrix) {
        matrix_free_[ws.simd] = now + uint64_t(in.matrix);
        c_.matrix_busy += in.matrix;
      }
      break;
    case IssueType::Scalar:
      unit_free_[size_t(IssueType::Scalar)] = now + uint64_t(in.busy);
      c_.busy[size_t(IssueType::Scalar)] += in.busy;
      if (in.is_scalar_mem) mem_.issue_smem(ws, s, now);
      break;
    case IssueType::Vmem:
      unit_free_[size_t(IssueType::Vmem)] = now + uint64_t(in.busy);
      c_.busy[size_t(IssueType::Vmem)] += in.busy;
      if (mem_.issue_vmem(ws, s, in, now)) lds_port = max(lds_port, now + uint64_t(1));
      break;
    case IssueType::Lds:
      lds_port = max(lds_port, now + uint64_t(1));
      mem_.issue_lds(ws, s, now, false);
      break;
    case IssueType::Branch:
      unit_free_[size_t(IssueType::Branch)] = now + uint64_t(in.busy);
      c_.busy[size_t(IssueType::Branch)] += in.busy;
      break;
    case IssueType::Export:  // the bus is busy while the data leaves; expcnt until it has
      unit_free_[size_t(IssueType::Export)] = now + uint64_t(in.busy);
      c_.busy[size_t(IssueType::Export)] += in.busy;
      ++ws.exp;
      engine_.schedule(now + uint64_t(in.busy), this, kCuExportDone, s);
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
          if (emu::Executor::try_release_barrier(*ws.group)) release_barrier(wgs_[ws.wg], now);
          break;
        case Special::Endpgm:
          if (emu::Executor::try_release_barrier(*ws.group)) release_barrier(wgs_[ws.wg], now);
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
  engine_.schedule(t, this, kCuTick);
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

std::string ComputeUnit::describe_state() const {
  std::string out = fmt::format("{} work-groups, {} waves resident", res_.groups(), resident_waves_);
  for (uint32_t s = 0; s < waves_.size(); ++s) {
    const WaveState& ws = waves_[s];
    if (!ws.active) continue;
    out += fmt::format("; wave {} pc {} {} vm={} lgkm={} exp={}{}{}", s, ws.pc, cpi_name(ws.reason), ws.vm, ws.lgkm,
                       ws.exp, ws.halted ? " halted" : "", ws.at_barrier ? " at-barrier" : "");
  }
  return out;
}

}  // namespace strobe::timing
