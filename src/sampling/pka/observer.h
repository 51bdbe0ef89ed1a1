// PKA's Principal Kernel Projection: the IPC-stability rule that ends a representative's
// detailed simulation, as a launch observer the timing model drives.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "sampling/profile/profiler.h"
#include "timing/gpu/launch_observer.h"

namespace strobe::sampling {

/// Watches a representative's cumulative IPC, measured from its first issued instruction, and
/// ends its detailed simulation once the IPC's variance over the last window is below the
/// threshold: later work-groups are emulated (or skipped) and take no simulated time.
class IpcStabilityObserver final : public timing::LaunchObserver {
 public:
  /// `interval`: cycles between IPC samples; `window`: cycles of samples the variance is taken
  /// over; `variance`: the threshold s; `skip`: predicted groups are not emulated.
  IpcStabilityObserver(uint64_t interval, uint64_t window, double variance, bool skip);

  void wave_begin(timing::WaveKey, uint64_t cycle) override;
  void basic_block(timing::WaveKey, uint32_t, uint32_t, uint64_t issue, uint64_t) override;
  void wave_end(timing::WaveKey, uint64_t) override {}
  std::optional<uint64_t> predict_workgroup(const emu::Executor& ex, emu::WorkGroup& wg, emu::DispatchStats& stats,
                                            uint64_t, uint32_t cu) override;
  uint64_t poll_interval() const override { return interval_; }
  void poll(uint64_t cycle, uint64_t insts) override;

  /// Warms `warmer`'s caches with the work-groups it runs functionally (null: it does not warm).
  void set_warming(timing::Warmer* warmer) { warmer_ = warmer; }
  /// Whether the IPC became stable and detailed simulation stopped.
  bool stopped() const { return stopped_; }
  /// Cycles from the first issued instruction to the stop.
  uint64_t stop_cycles() const { return stop_cycles_; }
  /// Wave instructions simulated in detail up to the stop.
  uint64_t stop_insts() const { return stop_insts_; }
  /// The cumulative IPC (from the first issued instruction) at the stop.
  double stop_ipc() const { return stop_ipc_; }
  /// Cycles from the launch to its first issued instruction (launch overhead and dispatch):
  /// as at the stop when stopped, else as known now; 0 until a poll has seen an instruction.
  uint64_t lead_cycles() const;
  /// The launch's cycles projected from the stop: the lead, measured, plus the launch's
  /// `insts` at the stable IPC.
  uint64_t projected_cycles(uint64_t insts) const;

 private:
  /// The best known first-issue cycle: the earliest block issue reported, else the earliest
  /// wave start (a lower bound until the first block ends).
  uint64_t first_issue() const;

  uint64_t interval_, samples_;
  double variance_;
  bool skip_;
  timing::Warmer* warmer_ = nullptr;
  std::vector<std::pair<uint64_t, uint64_t>> polls_;  ///< (cycle, instructions) since the first issue
  uint64_t launch_ = 0, lead_ = 0;
  std::optional<uint64_t> first_block_issue_, first_wave_;
  uint64_t stop_cycles_ = 0, stop_insts_ = 0;
  double stop_ipc_ = 0;
  bool stopped_ = false, polled_ = false;
  profile::Profiler profiler_;  ///< runs the groups predicted after the stop
};

}  // namespace strobe::sampling
