// Photon's launch observer: the basic-block and warp detectors and the predictions they enable.
#include "sampling/photon/observer.h"

#include <algorithm>
#include <cmath>

#include "emu/executor.h"

namespace strobe::sampling {

using timing::InstInfo;
using timing::IssueType;

const char* mode_name(PhotonMode m) {
  return m == PhotonMode::Detailed ? "detailed" : m == PhotonMode::BasicBlock ? "basic-block" : "warp";
}

PhotonObserver::PhotonObserver(const PhotonParams& p, const timing::GpuConfig& gpu, bool skip_functional,
                               const OnlineAnalysis& a, const ProgramTables& t)
    : p_(p), skip_(skip_functional), a_(a), t_(t), warp_(p.warp_window, p.delta),
      group_window_(std::max<uint64_t>(2, p.warp_window * a.workgroups / std::max<uint64_t>(a.warps, 1))) {
  const size_t waves = size_t(gpu.num_cus * gpu.simds_per_cu * gpu.wave_slots_per_simd);
  begin_.assign(waves, 0);
  first_issue_.assign(waves, UINT64_MAX);
  key_.assign(waves, 0);
  detectors_.resize(t.ends.size());
  stable_.assign(t.ends.size(), 0);
  bb_time_.assign(t.ends.size(), -1.0);
  dominant_ = a.types.empty() ? 0 : a.types[0].key;
  // Block and warp times are measured on the resident population. A warp much longer than the
  // mean outlives that population and runs its tail on an emptier GPU, where its blocks take
  // a fraction of the measured time (spmv's power-law rows), so such kernels stay detailed.
  balanced_ = a.warp_imbalance() <= p.max_warp_imbalance;
  bb_eligible_ = p.bb_level && balanced_;
  warp_eligible_ = p.warp_level && balanced_ && a.dominant_share() > p.dominant_warp_share;
  l1_latency_ = double(gpu.l1v_latency);
  l2_latency_ = double(gpu.l2_latency);
  simds_ = double(std::max<uint64_t>(1, uint64_t(gpu.num_cus) * gpu.simds_per_cu));
  cus_ = double(std::max<uint32_t>(1, gpu.num_cus));
  if (p.throughput_bound) {
    busy_prefix_.assign(t.info.size() + 1, UnitBusy{});
    for (size_t pc = 0; pc < t.info.size(); ++pc) {
      busy_prefix_[pc + 1] = busy_prefix_[pc];
      busy_prefix_[pc + 1][size_t(t.info[pc].type)] += double(t.info[pc].busy);
    }
  }
}

void PhotonObserver::wave_begin(timing::WaveKey w, uint64_t cycle) {
  peak_live_ = std::max(peak_live_, ++live_);
  begin_[w] = cycle;
  first_issue_[w] = UINT64_MAX;
  key_[w] = 0;
}

void PhotonObserver::basic_block(timing::WaveKey w, uint32_t start, uint32_t insts, uint64_t issue, uint64_t end) {
  key_[w] += block_key(start, a_.entry_pc);
  if (first_issue_[w] == UINT64_MAX) first_issue_[w] = issue;
  if (mode_ != PhotonMode::Detailed || !bb_eligible_) return;
  auto& det = detectors_[start];
  if (!det) det = std::make_unique<StabilityDetector>(p_.bb_window, p_.delta);
  det->add(double(issue), double(end));
  const bool st = det->stable();
  if (st != bool(stable_[start])) {
    stable_[start] = st;
    stable_share_ += st ? a_.bb_share[start] : -a_.bb_share[start];
  }
  if (stable_share_ > p_.bb_stable_share) switch_to(PhotonMode::BasicBlock, end);
}

void PhotonObserver::wave_end(timing::WaveKey w, uint64_t cycle) {
  if (live_) --live_;
  if (first_issue_[w] != UINT64_MAX) {
    overhead_sum_ += double(first_issue_[w] - begin_[w]);
    ++overhead_n_;
  }
  if (!warp_eligible_ || mode_ == PhotonMode::Warp || key_[w] != dominant_) return;
  warp_.add(double(begin_[w]), double(cycle));
  // A work-group holds its resources until its slowest warp retires, so the predicted unit
  // is the group: its residency must be stable too, and its mean is what predicted groups take.
  if (warp_.stable() && groups_ && groups_->stable()) switch_to(PhotonMode::Warp, cycle);
}

void PhotonObserver::workgroup_end(uint64_t id, uint64_t dispatched, uint64_t cycle) {
  if (!warp_eligible_ || mode_ == PhotonMode::Warp) return;
  // Groups are fed in dispatch order, each once every earlier group has retired: fed in
  // retirement order, a window closes on the groups that happened to finish quickly.
  // The window spans at least one generation of resident groups, so a generation that
  // happens to run quickly after the initial fill drains is not mistaken for the steady state.
  // Every group dispatched before the first retirement is one generation.
  if (!groups_) groups_.emplace(std::max<uint64_t>(group_window_, detailed_dispatched_), p_.delta);
  pending_[id] = {dispatched, cycle};
  for (auto it = pending_.begin(); it != pending_.end() && it->first == next_group_; it = pending_.erase(it)) {
    groups_->add(double(it->second.first), double(it->second.second));
    ++next_group_;
  }
}

std::optional<uint64_t> PhotonObserver::predict_workgroup(const emu::Executor& ex, emu::WorkGroup& wg,
                                                          emu::DispatchStats& stats, uint64_t,
                                                          uint32_t cu) {
  if (mode_ == PhotonMode::Detailed) {
    if (!groups_) ++detailed_dispatched_;
    return std::nullopt;
  }
  const uint64_t before = stats.wave_instructions;
  profiler_.set_warming(warmer_, cu);
  double cycles = 0;
  if (mode_ == PhotonMode::Warp) {
    if (!skip_) {
      profile::Collector none;
      profiler_.run_workgroup(ex, wg, stats, none);
    }
    cycles = warp_time_;
  } else if (skip_) {
    cycles = overhead();
    UnitBusy busy{};
    for (size_t pc = 0; pc < a_.mean_bb_count.size(); ++pc)
      if (a_.mean_bb_count[pc] > 0) {
        cycles += a_.mean_bb_count[pc] * bb_time(uint32_t(pc), a_.bb_length[pc]);
        add_busy(busy, uint32_t(pc), a_.bb_length[pc], a_.mean_bb_count[pc]);
      }
    if (skip_bound_ < 0) skip_bound_ = throughput_bound(busy);  // the same for every group
    if (skip_bound_ > cycles) cycles = skip_bound_, ++bound_groups_;
  } else {
    wave_cycles_.assign(wg.waves.size(), overhead());
    group_busy_.fill(0.0);
    BlockTimer timer;
    timer.self = this;
    profiler_.run_workgroup(ex, wg, stats, timer);
    cycles = *std::max_element(wave_cycles_.begin(), wave_cycles_.end());
    // The group's mean wave: resident waves of a launch interleave, so each holds its slot
    // for the sharers' mean demand, not its own.
    for (double& b : group_busy_) b /= double(std::max<size_t>(1, wg.waves.size()));
    const double bound = throughput_bound(group_busy_);
    if (bound > cycles) cycles = bound, ++bound_groups_;
  }
  predicted_ += skip_ ? uint64_t(std::llround(a_.instructions_per_warp() * double(wg.waves.size())))
                      : stats.wave_instructions - before;
  ++predicted_groups_;
  return uint64_t(std::max(1.0, std::round(cycles)));
}

void PhotonObserver::switch_to(PhotonMode m, uint64_t cycle) {
  if (mode_ == PhotonMode::Detailed) switch_cycle_ = cycle;
  mode_ = m;
  if (m == PhotonMode::Warp) warp_time_ = groups_->mean_duration(groups_->window());
}

/// Predicted cycles of the block starting at `start` (frozen at first use): its mean over the
/// detector's window when stable, otherwise the interval model.
double PhotonObserver::bb_time(uint32_t start, uint32_t len) {
  double& t = bb_time_[start];
  if (t >= 0) return t;
  if (stable_[start] && detectors_[start]) return t = detectors_[start]->mean_duration(p_.bb_window);
  t = 0;
  for (uint32_t pc = start; pc < start + len && pc < t_.info.size(); ++pc) t += interval(pc);
  return t;
}

/// The interval model: the mean cycles from issuing instruction `pc` to the wave's next issue
/// as measured in detail; for instructions never timed, the mean of their class, and for
/// classes never timed, the configured latencies.
double PhotonObserver::interval(uint32_t pc) {
  if (pc < count_.size() && count_[pc]) return double(sum_[pc]) / double(count_[pc]);
  const InstInfo& in = t_.info[pc];
  const size_t cls = class_of(in);
  if (!class_ready_) {
    class_ready_ = true;
    for (size_t i = 0; i < std::min(count_.size(), t_.info.size()); ++i) {
      class_sum_[class_of(t_.info[i])] += double(sum_[i]);
      class_n_[class_of(t_.info[i])] += count_[i];
    }
  }
  if (class_n_[cls]) return class_sum_[cls] / double(class_n_[cls]);
  if (in.special == timing::Special::Waitcnt) return l1_latency_ + l2_latency_;
  if (in.type == IssueType::Vmem || in.type == IssueType::Lds || in.is_scalar_mem) return double(in.busy);
  return double(std::max<uint16_t>({in.busy, in.latency, 1}));
}

void PhotonObserver::add_busy(UnitBusy& b, uint32_t start, uint32_t len, double times) const {
  if (busy_prefix_.empty()) return;
  const size_t lo = std::min<size_t>(start, busy_prefix_.size() - 1);
  const size_t hi = std::min<size_t>(size_t(start) + len, busy_prefix_.size() - 1);
  for (size_t u = 0; u < b.size(); ++u) b[u] += times * (busy_prefix_[hi][u] - busy_prefix_[lo][u]);
}

double PhotonObserver::throughput_bound(const UnitBusy& b) const {
  if (busy_prefix_.empty()) return 0;
  // In the steady state of N resident waves completing X per cycle, a wave stays N/X cycles
  // (Little's law), and a unit busy B cycles per wave caps X at 1/B per unit: N*B cycles at
  // least. The per-block times measured in detail miss this when the issue policy serves the
  // oldest wave first: the blocks that complete are the served waves', and the waiting ones'
  // time sits in blocks that have not ended when the detector decides (a double-precision
  // chain of 64 cycles an operation: blocks of 4,096 cycles measured, 41,000 per wave shared).
  using timing::IssueType;
  const double per_simd = double(peak_live_) / simds_, per_cu = double(peak_live_) / cus_;
  double t = per_simd * b[size_t(IssueType::Valu)];
  for (IssueType u : {IssueType::Scalar, IssueType::Vmem, IssueType::Branch, IssueType::Export})
    t = std::max(t, per_cu * b[size_t(u)]);
  return t;
}

size_t PhotonObserver::class_of(const InstInfo& in) {
  if (in.special == timing::Special::Waitcnt) return size_t(IssueType::COUNT);
  if (in.is_scalar_mem) return size_t(IssueType::COUNT) + 1;
  return size_t(in.type);
}

}  // namespace strobe::sampling
