// PKA's IPC-stability observer.
#include "sampling/pka/observer.h"

#include <algorithm>
#include <cmath>

#include "emu/executor.h"

namespace strobe::sampling {

IpcStabilityObserver::IpcStabilityObserver(uint64_t interval, uint64_t window, double variance, bool skip)
    : interval_(interval), samples_(std::max<uint64_t>(2, window / interval)), variance_(variance), skip_(skip) {}

void IpcStabilityObserver::wave_begin(timing::WaveKey, uint64_t cycle) {
  if (!first_wave_ || cycle < *first_wave_) first_wave_ = cycle;
}

void IpcStabilityObserver::basic_block(timing::WaveKey, uint32_t, uint32_t, uint64_t issue, uint64_t) {
  // Blocks are reported when they end, not in issue order: the first issue is the minimum.
  if (!first_block_issue_ || issue < *first_block_issue_) first_block_issue_ = issue;
}

std::optional<uint64_t> IpcStabilityObserver::predict_workgroup(const emu::Executor& ex, emu::WorkGroup& wg,
                                                                emu::DispatchStats& stats, uint64_t,
                                                                uint32_t cu) {
  if (!stopped_) return std::nullopt;
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
  // The window opens at the first issued instruction: the launch overhead's zero IPC is idle,
  // not stable, and counting it would make the projection scale it by the whole kernel.
  if (stopped_ || insts == 0) return;
  polls_.emplace_back(cycle, insts);
  if (polls_.size() < samples_) return;
  // The first issue is known exactly only once its block has ended, so the window's IPCs are
  // recomputed from the raw samples against the best current estimate.
  const uint64_t start = first_issue();
  auto ipc = [start](const std::pair<uint64_t, uint64_t>& p) {
    return double(p.second) / double(std::max<uint64_t>(1, p.first - std::min(start, p.first)));
  };
  double mean = 0, var = 0;
  for (size_t i = polls_.size() - samples_; i < polls_.size(); ++i) mean += ipc(polls_[i]);
  mean /= double(samples_);
  for (size_t i = polls_.size() - samples_; i < polls_.size(); ++i) {
    const double e = ipc(polls_[i]) - mean;
    var += e * e;
  }
  var /= double(samples_);
  if (var < variance_) {
    stopped_ = true;
    lead_ = start - std::min(start, launch_);
    stop_cycles_ = cycle - start;
    stop_insts_ = insts;
    stop_ipc_ = ipc(polls_.back());
  }
}

uint64_t IpcStabilityObserver::lead_cycles() const {
  if (stopped_) return lead_;
  if (polls_.empty()) return 0;
  return first_issue() - std::min(first_issue(), launch_);
}

uint64_t IpcStabilityObserver::projected_cycles(uint64_t insts) const {
  return lead_ + uint64_t(std::llround(double(insts) / stop_ipc_));
}

}  // namespace strobe::sampling
