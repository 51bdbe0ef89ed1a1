// The dispatcher: after the launch overhead, hands work-groups to CUs in order (round-robin
// over the CUs, skipping those without room), at most one per interval; sleeps while no CU has
// room and wakes when a CU retires a work-group.
#pragma once

#include <cstdint>
#include <vector>

#include "timing/cu/compute_unit.h"
#include "timing/engine/engine.h"

namespace strobe::timing {

struct GpuConfig;

/// The dispatcher's timing.
struct DispatcherParams {
  uint64_t launch_overhead_cycles = 1000;  ///< from a launch to its first work-group dispatch
  uint32_t interval_cycles = 1;            ///< minimum gap between two work-group dispatches

  /// Reads the `dispatch.*` keys (the wave launch delay belongs to the CU: CuParams).
  static DispatcherParams from_config(const GpuConfig& c);
};

/// Hands a launch's work-groups to the CUs (see the file comment).
class Dispatcher : public Component {
 public:
  Dispatcher(Engine& engine, std::vector<ComputeUnit*> cus, const DispatcherParams& p);
  /// Starts a launch of `workgroups` at `launch`: the first dispatch comes after the launch
  /// overhead; finished() turns true when the last work-group retires.
  void begin(Cycle launch, uint64_t workgroups);
  /// Bit per CU that may have room for a work-group; a CU sets its bit whenever a wave retires.
  uint64_t* room_mask() { return room_.data(); }
  void handle(Cycle now, uint32_t kind, uint32_t arg) override;
  std::string describe_state() const override;
  bool finished() const { return retired_ == total_; }
  /// Work-groups retired so far in this launch.
  uint64_t retired() const { return retired_; }
  Cycle finish_time() const { return finish_; }

 private:
  enum Kind : uint32_t { kRetired = 0, kTry = 1 };
  void try_dispatch(Cycle now);
  Engine& engine_;
  std::vector<ComputeUnit*> cus_;
  // A CU found full keeps its bit clear until one of its waves retires (the only way to gain
  // room), so checking only the set bits finds the same CU as checking every CU in turn.
  std::vector<uint64_t> room_;
  DispatcherParams p_;
  uint64_t total_ = 0, next_ = 0, retired_ = 0;
  uint32_t rr_ = 0;
  Cycle next_allowed_{0}, finish_{0};
  bool try_pending_ = false;
};

}  // namespace strobe::timing
