// Photon's launch observer: watches one detailed launch and switches it to basic-block or warp
// sampling once the detectors say the rest of it can be predicted.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "sampling/common/program_tables.h"
#include "sampling/method.h"
#include "sampling/numeric/least_squares.h"
#include "sampling/photon/online_analysis.h"
#include "sampling/photon/params.h"
#include "sampling/profile/profiler.h"
#include "timing/gpu/launch_observer.h"

namespace strobe::sampling {

/// How the rest of a launch is being timed.
enum class PhotonMode : uint8_t { Detailed, BasicBlock, Warp };
/// The report's name of `m`: "detailed", "basic-block" or "warp".
const char* mode_name(PhotonMode m);

/// Watches one detailed launch; once the stable basic-block types hold more than
/// bb_stable_share of the sampled instructions, later work-groups are emulated and timed by
/// their blocks; once the dominant warp type and the group residency are stable, later groups
/// take the mean residency. Groups already resident finish in detail.
class PhotonObserver final : public timing::LaunchObserver {
 public:
  /// `a`: the launch's online analysis; `t`: its program's tables; `gpu` sizes the per-wave
  /// state and gives the latencies of the interval model's last fallback. All must outlive it.
  PhotonObserver(const PhotonParams& p, const timing::GpuConfig& gpu, bool skip_functional, const OnlineAnalysis& a,
                 const ProgramTables& t);

  // The LaunchObserver hooks (timing/gpu/launch_observer.h documents when the model calls them).
  /// Starts wave `w`'s block key and start-up measurement.
  void wave_begin(timing::WaveKey w, uint64_t cycle) override;
  /// Feeds the block's detector; switches to basic-block sampling once the stable share is reached.
  void basic_block(timing::WaveKey w, uint32_t start, uint32_t insts, uint64_t issue, uint64_t end) override;
  /// Feeds the warp detector with dominant-type warps; switches to warp sampling when stable.
  void wave_end(timing::WaveKey w, uint64_t cycle) override;
  /// Feeds the group-residency detector in dispatch order.
  void workgroup_end(uint64_t id, uint64_t dispatched, uint64_t cycle) override;
  /// nullopt while detailed; afterwards runs the group (unless skipping) and returns its predicted cycles.
  std::optional<uint64_t> predict_workgroup(const emu::Executor& ex, emu::WorkGroup& wg, emu::DispatchStats& stats,
                                            uint64_t cycle, uint32_t cu) override;
  /// Keeps the model's per-instruction interval sums for the interval model.
  void intervals(std::span<const uint64_t> sum, std::span<const uint32_t> count) override {
    sum_ = sum, count_ = count;
  }

  /// Warms `warmer`'s caches with the work-groups it runs functionally (null: it does not warm).
  void set_warming(timing::Warmer* warmer) { warmer_ = warmer; }
  /// The level the launch switched to (Detailed: never switched).
  PhotonMode mode() const { return mode_; }
  /// The cycle of the switch (0 while detailed).
  uint64_t switch_cycle() const { return switch_cycle_; }
  /// Wave instructions in predicted work-groups (estimated from the sample when skipping).
  uint64_t predicted_instructions() const { return predicted_; }
  /// Work-groups predicted rather than simulated.
  uint64_t predicted_groups() const { return predicted_groups_; }
  /// Share of sampled instructions in block types currently stable.
  double stable_share() const { return stable_share_; }
  /// False when warp imbalance ruled out basic-block and warp sampling for the launch.
  bool balanced() const { return balanced_; }
  /// Cycles each warp-sampled group holds its resources (0 before the switch to Warp).
  double warp_time() const { return warp_time_; }
  /// Groups timed by their blocks whose time the throughput bound raised.
  uint64_t bound_groups() const { return bound_groups_; }

 private:
  void switch_to(PhotonMode m, uint64_t cycle);
  double overhead() const { return overhead_n_ ? overhead_sum_ / double(overhead_n_) : 0.0; }
  double bb_time(uint32_t start, uint32_t len);
  double interval(uint32_t pc);
  static size_t class_of(const timing::InstInfo& in);
  /// Busy cycles per issue type that one pass of the block at `start` puts on its units.
  using UnitBusy = std::array<double, size_t(timing::IssueType::COUNT)>;
  void add_busy(UnitBusy& b, uint32_t start, uint32_t len, double times) const;
  /// The least time a wave with busy cycles `b` stays resident among peak_live_ waves like it
  /// (Little's law on each unit: its resident sharers times its busy cycles per wave).
  double throughput_bound(const UnitBusy& b) const;

  /// Adds each predicted block's time to its wave (Grain::Block collector).
  struct BlockTimer : profile::Collector {
    static constexpr profile::Grain kGrain = profile::Grain::Block;
    PhotonObserver* self;
    const uint8_t* block_ends() const { return self->t_.ends.data(); }
    void block(uint32_t w, uint32_t start, uint32_t len) {
      self->wave_cycles_[w] += self->bb_time(start, len);
      self->add_busy(self->group_busy_, start, len, 1.0);
    }
  };

  const PhotonParams& p_;
  bool skip_;
  timing::Warmer* warmer_ = nullptr;
  const OnlineAnalysis& a_;
  const ProgramTables& t_;
  PhotonMode mode_ = PhotonMode::Detailed;
  std::vector<uint64_t> begin_, first_issue_, key_;
  std::vector<std::unique_ptr<StabilityDetector>> detectors_;
  std::vector<uint8_t> stable_;
  std::vector<double> bb_time_, wave_cycles_;
  double stable_share_ = 0;
  StabilityDetector warp_;                   ///< dominant warps
  std::optional<StabilityDetector> groups_;  ///< work-groups in dispatch order (made at the first retirement)
  uint64_t group_window_, detailed_dispatched_ = 0;
  std::map<uint64_t, std::pair<uint64_t, uint64_t>> pending_;  ///< retired out of order: id -> (dispatch, retire)
  uint64_t next_group_ = 0;
  uint64_t dominant_ = 0;
  bool balanced_ = true, bb_eligible_ = false, warp_eligible_ = false;
  double warp_time_ = 0, overhead_sum_ = 0;
  uint64_t overhead_n_ = 0, switch_cycle_ = 0, predicted_ = 0, predicted_groups_ = 0;
  std::span<const uint64_t> sum_;    // per instruction (empty until the launch hands them over)
  std::span<const uint32_t> count_;
  bool class_ready_ = false;
  double class_sum_[size_t(timing::IssueType::COUNT) + 2] = {};
  uint64_t class_n_[size_t(timing::IssueType::COUNT) + 2] = {};
  double l1_latency_ = 0, l2_latency_ = 0;
  // The throughput bound's inputs: per-type busy-cycle prefix sums over the program, the
  // resident waves at the peak of the detailed part, and the units' sharing.
  std::vector<UnitBusy> busy_prefix_;
  UnitBusy group_busy_{};
  uint64_t live_ = 0, peak_live_ = 0, bound_groups_ = 0;
  double simds_ = 1, cus_ = 1, skip_bound_ = -1;
  profile::Profiler profiler_;  ///< runs predicted groups
};

}  // namespace strobe::sampling
