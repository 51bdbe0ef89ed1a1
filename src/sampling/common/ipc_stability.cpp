// PKA's IPC-stability observer.
#include "sampling/common/ipc_stability.h"

#include <algorithm>
#include <cmath>

#include "emu/executor.h"

namespace strobe::sampling {

uint64_t IpcProjection::cycles(uint64_t insts) const {
  if (ipc <= 0) return 0;
  if (insts < head_insts) return lead + uint64_t(std::llround(double(head_cycles) * double(insts) / double(head_insts)));
  return lead + head_cycles + uint64_t(std::llround(double(insts - head_insts) / ipc));
}

IpcStabilityObserver::IpcStabilityObserver(uint64_t interval, uint64_t window, double variance, uint32_t generations,
                                           uint64_t open_groups, bool skip)
    : interval_(interval),
      samples_(std::max<uint64_t>(2, window / interval)),
      variance_(variance),
      generations_(generations),
      open_groups_(open_groups),
      skip_(skip) {}

void IpcStabilityObserver::wave_begin(timing::WaveKey, uint64_t cycle) {
  if (!first_wave_ || cycle < *first_wave_) first_wave_ = cycle;
}

void IpcStabilityObserver::basic_block(timing::WaveKey, uint32_t, uint32_t, uint64_t issue, uint64_t) {
  // Blocks are reported when they end, not in issue order: the first issue is the minimum.
  if (!first_block_issue_ || issue < *first_block_issue_) first_block_issue_ = issue;
}

void IpcStabilityObserver::workgroup_end(uint64_t, uint64_t, uint64_t) {
  if (retired_++ == 0) generation_ = dispatched_;
  if (retired_ >= std::max(uint64_t(generations_) * generation_, open_groups_)) retired_enough_ = true;
  if (opening_ && retired_ >= opening_retired_ + generation_) spanned_generation_ = true;
}

std::optional<uint64_t> IpcStabilityObserver::predict_workgroup(const emu::Executor& ex, emu::WorkGroup& wg,
                                                                emu::DispatchStats& stats, uint64_t,
                                                                uint32_t cu) {
  if (!stopped_) {
    ++dispatched_;
    return std::nullopt;
  }
  ++predicted_;
  if (!skip_) {
    profile::Collector none;
    profiler_.set_warming(warmer_, cu);
    profiler_.run_workgroup(ex, wg, stats, none);
  }
  return 0;
}

uint64_t IpcStabilityObserver::first_issue() const {
  if (first_block_issue_) return *first_block_issue_;
  return first_wave_.value_or(launch_);
}

void IpcStabilityObserver::poll(uint64_t cycle, uint64_t insts) {
  // The model polls first one interval after the launch began.
  if (!polled_) launch_ = cycle - interval_, polled_ = true;
  // PKA's window opens at the first issued instruction: the launch overhead's zero IPC is idle,
  // not stable, and counting it would make the projection scale it by the whole kernel.
  if (stopped_ || insts == 0) return;
  issued_ = true;
  if (generations_ > 0 || open_groups_ > 0) {
    if (!opening_) {
      if (!retired_enough_) return;
      opening_.emplace(cycle, insts);
      opening_retired_ = retired_;
      return;
    }
  }
  polls_.emplace_back(cycle, insts);
  // With an opening of its own the window also spans a generation of groups retiring, as
  // Photon's does: groups dispatched together finish together, and a window inside one
  // generation sees its rhythm, not the launch's rate.
  if (polls_.size() < samples_ || (opening_ && !spanned_generation_)) return;
  // Without an opening of its own the window's IPC is taken from the first issue, which is
  // known exactly only once its block has ended: the window's IPCs are recomputed from the raw
  // samples against the best current estimate.
  const uint64_t start = first_issue();
  const std::pair<uint64_t, uint64_t> from = opening_.value_or(std::pair<uint64_t, uint64_t>{start, 0});
  auto ipc = [&from](const std::pair<uint64_t, uint64_t>& p) {
    return double(p.second - from.second) / double(std::max<uint64_t>(1, p.first - std::min(from.first, p.first)));
  };
  double mean = 0, var = 0;
  for (size_t i = polls_.size() - samples_; i < polls_.size(); ++i) mean += ipc(polls_[i]);
  mean /= double(samples_);
  for (size_t i = polls_.size() - samples_; i < polls_.size(); ++i) {
    const double e = ipc(polls_[i]) - mean;
    var += e * e;
  }
  var /= double(samples_);
  if (var < variance_ && ipc(polls_.back()) > 0) {
    stopped_ = true;
    stop_cycles_ = cycle - start;
    stop_insts_ = insts;
    projection_.lead = start - std::min(start, launch_);
    projection_.head_cycles = from.first - std::min(from.first, start);
    projection_.head_insts = from.second;
    projection_.ipc = ipc(polls_.back());
  }
}

uint64_t IpcStabilityObserver::lead_cycles() const {
  if (stopped_) return projection_.lead;
  if (!issued_) return 0;
  return first_issue() - std::min(first_issue(), launch_);
}

}  // namespace strobe::sampling
