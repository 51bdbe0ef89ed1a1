// PKA's Principal Kernel Projection: the IPC-stability rule that ends a representative's
// detailed simulation, as a launch observer the timing model drives. PKA uses it on every
// representative; Sieve and STEM on theirs with `intra_launch=1` (representative_method.h).
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "sampling/profile/profiler.h"
#include "timing/gpu/launch_observer.h"

namespace strobe::sampling {

/// The rule's thresholds at PKA's values (the paper's s, window and sampling interval) and
/// strobe's one-generation opening: PKA's parameter defaults, and what the representative
/// methods' intra-launch option applies.
struct IpcRule {
  double variance = 0.25;   ///< s: IPC variance threshold over the window
  uint64_t window = 3000;   ///< cycles of IPC history the variance is taken over
  uint64_t interval = 100;  ///< cycles between IPC samples
  uint32_t generations = 1; ///< generations of work-groups retired before the window opens
};
inline constexpr IpcRule kIpcRule{};

/// A launch's cycles as a function of its wave instructions, measured on a representative: a
/// fixed lead (launch to first issue), a measured head (first issue to the window's opening,
/// with the instructions issued in it), and a steady IPC for the instructions after the head.
struct IpcProjection {
  uint64_t lead = 0;
  uint64_t head_cycles = 0, head_insts = 0;
  double ipc = 0;  ///< after the head; 0: nothing to project from

  /// Cycles of a launch of `insts` wave instructions (0 when there is no IPC). A launch shorter
  /// than the head runs at the head's own IPC.
  uint64_t cycles(uint64_t insts) const;
};

/// Watches a representative's IPC and ends its detailed simulation once the IPC's variance over
/// the last window is below the threshold: later work-groups are emulated (or skipped) and take
/// no simulated time.
///
/// PKA measures the IPC from the first issued instruction. On a bandwidth-bound kernel the first
/// generations of work-groups run ahead of DRAM (relu's IPC is about twice its steady value
/// there), and that cumulative IPC passes the rule before the steady state is reached. strobe's
/// extension (`generations` > 0) opens the window only once that many generations of groups
/// have retired (a generation: the groups dispatched before the first one retired, as Photon
/// counts it) and, with `open_groups`, the groups whose requests fill the L2 (before that, no
/// write-back has begun: sampling/common/steady_state.h), measures the IPC from the opening
/// over at least one more generation, and keeps the measured head as it ran.
class IpcStabilityObserver final : public timing::LaunchObserver {
 public:
  /// `interval`: cycles between IPC samples; `window`: cycles of samples the variance is taken
  /// over; `variance`: the threshold s; `generations`: generations retired before the window
  /// opens (0: it opens at the first issue, as in PKA); `open_groups`: groups that must retire
  /// before it opens, whatever the generations (0: none; see steady_state.h); `skip`: predicted
  /// groups are not emulated.
  IpcStabilityObserver(uint64_t interval, uint64_t window, double variance, uint32_t generations, uint64_t open_groups,
                       bool skip);

  void wave_begin(timing::WaveKey, uint64_t cycle) override;
  void basic_block(timing::WaveKey, uint32_t, uint32_t, uint64_t issue, uint64_t) override;
  void wave_end(timing::WaveKey, uint64_t) override {}
  void workgroup_end(uint64_t, uint64_t, uint64_t) override;
  std::optional<uint64_t> predict_workgroup(const emu::Executor& ex, emu::WorkGroup& wg, emu::DispatchStats& stats,
                                            uint64_t, uint32_t cu) override;
  uint64_t poll_interval() const override { return interval_; }
  void poll(uint64_t cycle, uint64_t insts) override;

  /// Warms `warmer`'s caches with the work-groups it runs functionally (null: it does not warm).
  void set_warming(timing::Warmer* warmer) { warmer_ = warmer; }
  /// Whether the IPC became stable and detailed simulation stopped.
  bool stopped() const { return stopped_; }
  /// Work-groups dispatched after the stop, which took no simulated time.
  uint64_t predicted_groups() const { return predicted_; }
  /// Whether the launch's cycles are the stop's projection: the stop predicted at least one
  /// group. A stop after the last group was dispatched predicted nothing, and the launch ran to
  /// its end in detail: its measured cycles stand, as the projection would drop its drain.
  bool projects() const { return stopped_ && predicted_ > 0; }
  /// Cycles from the first issued instruction to the stop.
  uint64_t stop_cycles() const { return stop_cycles_; }
  /// Wave instructions simulated in detail up to the stop.
  uint64_t stop_insts() const { return stop_insts_; }
  /// The IPC at the stop, measured from the window's opening.
  double stop_ipc() const { return projection_.ipc; }
  /// Cycles from the launch to its first issued instruction (launch overhead and dispatch):
  /// as at the stop when stopped, else as known now; 0 until a poll has seen an instruction.
  uint64_t lead_cycles() const;
  /// The projection measured at the stop (meaningful only when stopped()).
  const IpcProjection& projection() const { return projection_; }
  /// The launch's cycles projected from the stop: the lead and head as measured, plus the
  /// launch's instructions after the head at the stable IPC.
  uint64_t projected_cycles(uint64_t insts) const { return projection_.cycles(insts); }

 private:
  /// The best known first-issue cycle: the earliest block issue reported, else the earliest
  /// wave start (a lower bound until the first block ends).
  uint64_t first_issue() const;

  uint64_t interval_, samples_;
  double variance_;
  uint32_t generations_;
  uint64_t open_groups_;
  bool skip_;
  timing::Warmer* warmer_ = nullptr;
  std::vector<std::pair<uint64_t, uint64_t>> polls_;  ///< (cycle, instructions) since the opening
  uint64_t launch_ = 0;
  std::optional<uint64_t> first_block_issue_, first_wave_;
  uint64_t dispatched_ = 0, generation_ = 0, retired_ = 0;  ///< work-groups, for the opening
  bool retired_enough_ = false;                            ///< the opening is due at the next poll
  uint64_t opening_retired_ = 0;                           ///< groups retired at the opening
  bool spanned_generation_ = false;                        ///< a generation retired since the opening
  std::optional<std::pair<uint64_t, uint64_t>> opening_;   ///< (cycle, instructions) of the opening
  uint64_t stop_cycles_ = 0, stop_insts_ = 0;
  uint64_t predicted_ = 0;  ///< work-groups dispatched after the stop
  IpcProjection projection_;
  bool stopped_ = false, polled_ = false, issued_ = false;
  profile::Profiler profiler_;  ///< runs the groups predicted after the stop
};

}  // namespace strobe::sampling
