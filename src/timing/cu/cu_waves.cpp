// The compute unit's wave and work-group lifetime: launching a work-group from a WaveSource,
// barriers, retirement and the resources it frees, instruction-buffer fetches and memory
// completions, and what a LaunchObserver is told along the way.
#include <algorithm>

#include "timing/cu/compute_unit.h"
#include "timing/engine/events.h"

namespace strobe::timing {

bool ComputeUnit::launch_workgroup(Cycle now, const WorkgroupLaunch& launch) {
  const WorkgroupNeeds& n = launch.needs;
  uint32_t gi = 0;
  while (wgs_[gi].active) ++gi;
  WgState& g = wgs_[gi];
  if (!g.wg) g.wg = std::make_unique<emu::WorkGroup>();
  launch.executor->init_workgroup(*g.wg, launch.id, index_ * p_.res.max_workgroups + gi);
  g.wg->ctx.overruns = lc_->overruns;
  g.active = true;
  g.predicted = false;
  g.dispatched = now.value();
  g.launch = launch;
  g.slots.clear();
  g.live_waves = uint32_t(g.wg->waves.size());
  res_.take_group(n);
  ++c_.workgroups;
  if (lc_->observer) {
    if (const auto cycles = lc_->observer->predict_workgroup(*launch.executor, *g.wg, fstats_, now.value(), index_)) {
      // Only the dispatcher's view is simulated: the group holds its resources for the
      // predicted time, as its waves would.
      g.predicted = true;
      g.simds.clear();
      for (uint32_t i = 0; i < g.live_waves; ++i) g.simds.push_back(uint8_t(res_.take_wave(n)));
      ++*lc_->predicted_outstanding;
      engine_.schedule(now + *cycles, this, kCuPredictedDone, gi);
      return *cycles > 0;
    }
  }
  // The waves' SIMDs are taken now, so the source's next can_accept() sees them.
  g.simds.clear();
  for (uint32_t i = 0; i < g.live_waves; ++i) g.simds.push_back(uint8_t(res_.take_wave(n)));
  // A launch decided ahead of this CU's clock (the quantum runner's control partition decides
  // a window's dispatches at its start) starts its waves when its cycle comes.
  if (now > engine_.now()) {
    engine_.schedule(now, this, kCuLaunch, gi);
    return true;
  }
  start_waves(gi, now);
  return true;
}

void ComputeUnit::start_waves(uint32_t gi, Cycle now) {
  WgState& g = wgs_[gi];
  const WorkgroupLaunch& launch = g.launch;
  const uint64_t entry = launch.code.program->offsets[launch.executor->entry_pc()];
  for (uint32_t i = 0; i < g.live_waves; ++i) {
    const uint32_t simd = g.simds[i];
    uint32_t slot = simd * p_.res.slots_per_simd;
    while (waves_[slot].active) ++slot;
    WaveState& ws = waves_[slot];
    const uint32_t epoch = ws.ib.epoch;  // kept across occupants: a stale fetch stays stale
    ws = WaveState{};
    ws.ib.epoch = epoch;
    ws.ib.redirect(entry, p_.fetch_bytes);
    ws.active = true;
    ws.w = &g.wg->waves[i];
    ws.executor = launch.executor;
    ws.group = g.wg.get();
    ws.code = launch.code;
    ws.pc = ws.w->pc;
    ws.wg = gi;
    ws.simd = uint8_t(simd);
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
  --*lc_->predicted_outstanding;
  for (uint8_t simd : g.simds) res_.release_wave(simd, g.launch.needs);
  g.launch.source->mark_room(index_);
  finish_workgroup(g, now);
}

void ComputeUnit::finish_workgroup(WgState& g, Cycle now) {
  g.active = false;
  res_.release_group(g.launch.needs);
  // A predicted group was counted by whatever ran it functionally (the observer), or not run.
  if (!g.predicted) {
    fstats_.wavefronts += g.wg->waves.size();
    ++fstats_.workgroups;
  }
  if (lc_->observer && !g.predicted) [[unlikely]]
    lc_->observer->workgroup_end(g.launch.id, g.dispatched, now.value());
  engine_.post(g.launch.source->partition(), now, g.launch.source, kWorkgroupRetired, g.launch.tag);
}

void ComputeUnit::retire_if_done(uint32_t s, Cycle now) {
  WaveState& ws = waves_[s];
  if (!ws.active || !ws.halted || ws.vm || ws.lgkm || ws.exp) return;
  if (lc_->observer) [[unlikely]] observe_retire(s, now);
  WgState& g = wgs_[ws.wg];
  ws.active = false;
  set_wake(s, Cycle::never());
  age_[s] = UINT64_MAX;
  if (oldest_ == s) find_oldest();
  fetch_retry_ &= ~(uint64_t{1} << s);
  simd_mask_[ws.simd] &= ~(uint64_t{1} << s);
  res_.release_wave(ws.simd, g.launch.needs);
  --resident_waves_;
  g.launch.source->mark_room(index_);  // freed a slot and registers
  if (--g.live_waves == 0) finish_workgroup(g, now);
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
  res_.reset();
  mem_.reset();
  resident_waves_ = 0;
  tick_pending_ = false;
}

void ComputeUnit::redirect(WaveState& ws) {
  const isa::Program& prog = *ws.code.program;
  ws.ib.redirect(ws.pc < prog.offsets.size() ? prog.offsets[ws.pc] : 0, p_.fetch_bytes);
}

void ComputeUnit::start_fetch(uint32_t s, Cycle now) {
  WaveState& ws = waves_[s];
  mem_.fetch(ws, s, ws.code.program->base_address, now);
}

void ComputeUnit::op_done(uint32_t op, Cycle now) {
  const uint32_t s = mem_.complete(waves_, op);
  if (s == UINT32_MAX) return;
  wake_wave(s, now);
  retire_if_done(s, now);
}

void ComputeUnit::response(Cycle now, uint32_t tag, uint32_t lines) {
  if (FetchTag::is_fetch(tag)) {
    const FetchTag t = FetchTag::decode(tag);
    WaveState& ws = waves_[t.slot];
    if (!ws.active || !ws.ib.fill(t, p_.fetch_bytes)) return;  // stale
    wake_wave(t.slot, now);
    return;
  }
  if (mem_.answer(tag, lines)) op_done(tag, now);
}

void ComputeUnit::close_interval(WaveState& ws, Cycle now) {
  if (ws.last_pc == UINT32_MAX || !lc_->interval_sum) return;
  lc_->interval_sum[ws.last_pc] += (now - ws.last_issue).value();
  if (lc_->interval_count[ws.last_pc]++ == 0 && lc_->interval_touched) lc_->interval_touched->push_back(ws.last_pc);
}

void ComputeUnit::observe_issue(uint32_t s, uint32_t pc, const InstInfo& in, Cycle now) {
  WaveState& ws = waves_[s];
  close_interval(ws, now);
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
  close_interval(ws, now);
  const WaveKey key = index_ * slots_ + s;
  if (ws.bb_insts) lc_->observer->basic_block(key, ws.bb_start, ws.bb_insts, ws.bb_issue.value(), now.value());
  lc_->observer->wave_end(key, now.value());
}

}  // namespace strobe::timing
