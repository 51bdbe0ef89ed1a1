// The dispatcher: after the launch overhead, hands a kernel's work-groups to CUs in order
// (round-robin over the CUs, skipping those without room), at most one per interval; sleeps
// while no CU has room and wakes when a CU retires a work-group; the launch completes the
// completion cycles after its last group retires. The compute WaveSource.
#pragma once

#include <cstdint>
#include <vector>

#include "timing/cu/compute_unit.h"
#include "timing/cu/cu_picker.h"
#include "timing/cu/wave_source.h"
#include "timing/engine/engine.h"

namespace strobe::timing {

struct GpuConfig;

/// The dispatcher's timing.
struct DispatcherParams {
  uint64_t launch_overhead_cycles = 1000;  ///< from a launch to its first work-group dispatch
  uint32_t interval_cycles = 1;            ///< minimum gap between two work-group dispatches
  uint64_t completion_cycles = 0;          ///< from the last work-group's retirement to the launch's end

  /// Reads the `dispatch.*` keys (the wave launch delay belongs to the CU: CuParams).
  static DispatcherParams from_config(const GpuConfig& c);
};

/// Hands a launch's work-groups to the CUs (see the file comment): the compute WaveSource.
class Dispatcher final : public WaveSource {
 public:
  Dispatcher(Engine& engine, std::vector<ComputeUnit*> cus, const DispatcherParams& p);
  /// Starts a launch of `workgroups` groups of `kernel` (ids 0.., in order) at `launch`: the
  /// first dispatch comes after the launch overhead; finished() turns true, and the engine
  /// stops, the completion cycles after the last one retires.
  void begin(Cycle launch, const WorkgroupLaunch& kernel, uint64_t workgroups);
  /// CU `cu` may have room for a work-group again (one of its waves retired).
  void mark_room(uint32_t cu) override { picker_.mark_room(cu); }
  /// The earliest cycle the dispatcher may act at: under the quantum runner, a retirement
  /// arrives when its window ends, after the CUs have run to `t`, and the dispatch it allows
  /// happens then. 0 (no floor) on one engine.
  void set_floor(Cycle t) { floor_ = t; }
  void handle(Cycle now, uint32_t kind, uint32_t arg) override;
  std::string describe_state() const override;
  /// True once every work-group of the launch has retired and the completion cycles passed.
  bool finished() const { return done_; }
  /// True between the last work-group's retirement and the launch's completion.
  bool completing() const { return retired_ == total_ && !done_; }
  /// True from the launch until its first work-group is dispatched: the launch overhead, a wait
  /// the model schedules, not a hang.
  bool starting() const { return kernel_.id == 0 && total_ > 0 && !done_; }
  /// Work-groups retired so far in this launch.
  uint64_t retired() const { return retired_; }
  /// Running counts the timeline reads: work-groups dispatched (the next group's id) and
  /// retired in this launch.
  const uint64_t* dispatched_counter() const { return &kernel_.id; }
  const uint64_t* retired_counter() const { return &retired_; }
  /// Cycle the launch completed: the last work-group's retirement plus the completion cycles.
  Cycle finish_time() const { return finish_; }

 private:
  void try_dispatch(Cycle now);
  /// Ends the launch at `now`.
  void complete(Cycle now);
  Engine& engine_;
  CuPicker picker_;
  DispatcherParams p_;
  WorkgroupLaunch kernel_;  // the launch's code and needs; `id` is the next group's
  uint64_t total_ = 0, retired_ = 0;
  Cycle next_allowed_{0}, finish_{0}, floor_{0};
  bool try_pending_ = false, done_ = false;
};

}  // namespace strobe::timing
