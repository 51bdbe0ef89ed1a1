// TBPoint's intra-launch sampling driven by the timing model: a launch observer that puts every
// dispatched work-group to the RegionSampler (state_machine.h) and carries out its answer.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "sampling/profile/profiler.h"
#include "sampling/tbpoint/state_machine.h"
#include "timing/gpu/launch_observer.h"

namespace strobe::sampling::tbpoint {

/// Feeds the model's dispatch and retirement events to a RegionSampler. A group the sampler
/// skips retires at once, holding no slot, as in the paper's fast-forward; it is emulated here
/// (or not at all with `skip`), and its cycles are not simulated but predicted from its region's
/// IPC by RegionSampler::estimate().
class RegionObserver final : public timing::LaunchObserver {
 public:
  /// `table` must be built from `groups`, the launch's profile; `skip`: skipped groups are not
  /// emulated (the results are then unverifiable).
  RegionObserver(RegionTable table, std::span<const WorkGroupCounts> groups, const Params& params, bool skip);

  void wave_begin(timing::WaveKey, uint64_t) override {}
  void basic_block(timing::WaveKey, uint32_t, uint32_t, uint64_t, uint64_t) override {}
  void wave_end(timing::WaveKey, uint64_t) override {}
  void issue_counter(const uint64_t* issued) override { issued_ = issued; }
  std::optional<uint64_t> predict_workgroup(const emu::Executor& ex, emu::WorkGroup& wg, emu::DispatchStats& stats,
                                            uint64_t cycle, uint32_t cu) override;
  void workgroup_end(uint64_t id, uint64_t dispatched, uint64_t cycle) override;

  /// Warms `warmer`'s caches with the work-groups it runs functionally (null: it does not warm).
  void set_warming(timing::Warmer* warmer) { warmer_ = warmer; }
  /// The sampler, for its estimate, units, transitions and sampled regions.
  const RegionSampler& sampler() const { return sampler_; }

 private:
  /// Wave instructions the model has issued in detail so far (0 before the launch began).
  uint64_t issued() const { return issued_ ? *issued_ : 0; }

  RegionSampler sampler_;
  bool skip_;
  const uint64_t* issued_ = nullptr;
  timing::Warmer* warmer_ = nullptr;
  profile::Profiler profiler_;  ///< runs the skipped groups
};

}  // namespace strobe::sampling::tbpoint
