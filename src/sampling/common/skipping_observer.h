// The fast-forward every intra-launch sampling method shares: a launch observer that takes the
// work-groups a method chooses out of detailed simulation. A skipped group retires at once,
// holding no slot, and runs functionally (warming the caches when asked) or not at all; the
// method predicts or estimates its time itself. TBPoint's region sampler and SimProf's
// work-group-range units decide which groups to skip; this is how both skip them.
#pragma once

#include <cstdint>
#include <optional>

#include "sampling/profile/profiler.h"
#include "timing/gpu/launch_observer.h"

namespace strobe::sampling {

/// A LaunchObserver that asks simulate() of every dispatched group and fast-forwards the ones
/// it refuses; retirements of simulated groups go to retired().
class SkippingObserver : public timing::LaunchObserver {
 public:
  /// `skip_functional`: skipped groups are not emulated either (the results are then unverifiable).
  explicit SkippingObserver(bool skip_functional) : skip_functional_(skip_functional) {}

  void wave_begin(timing::WaveKey, uint64_t) override {}
  void basic_block(timing::WaveKey, uint32_t, uint32_t, uint64_t, uint64_t) override {}
  void wave_end(timing::WaveKey, uint64_t) override {}
  void issue_counter(const uint64_t* issued) final { issued_ = issued; }
  std::optional<uint64_t> predict_workgroup(const emu::Executor& ex, emu::WorkGroup& wg, emu::DispatchStats& stats,
                                            uint64_t cycle, uint32_t cu) final;
  void workgroup_end(uint64_t id, uint64_t dispatched, uint64_t cycle) final { retired(id, dispatched, cycle, issued()); }

  /// Warms `warmer`'s caches with the work-groups run functionally (null: they do not warm).
  void set_warming(timing::Warmer* warmer) { warmer_ = warmer; }

 protected:
  /// Whether work-group `wg` (linear id), dispatched at `cycle` with `issued` wave instructions
  /// issued in detail so far, is simulated in detail; false skips it.
  virtual bool simulate(uint64_t wg, uint64_t cycle, uint64_t issued) = 0;
  /// Simulated work-group `wg`, dispatched at `dispatched`, retired at `cycle` with `issued`
  /// wave instructions issued in detail so far.
  virtual void retired(uint64_t wg, uint64_t dispatched, uint64_t cycle, uint64_t issued) = 0;
  /// Wave instructions the model has issued in detail so far (0 before the launch began).
  uint64_t issued() const { return issued_ ? *issued_ : 0; }

 private:
  bool skip_functional_;
  const uint64_t* issued_ = nullptr;
  timing::Warmer* warmer_ = nullptr;
  profile::Profiler profiler_;  ///< runs the skipped groups
};

}  // namespace strobe::sampling
