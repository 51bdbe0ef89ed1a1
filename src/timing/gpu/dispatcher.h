// The dispatcher: after the launch overhead, hands work-groups to CUs in order (round-robin
// over the CUs, skipping those without room), at most one per interval; sleeps while no CU has
// room and wakes when a CU retires a work-group.
#pragma once

#include <cstdint>
#include <vector>

#include "timing/cu/compute_unit.h"
#include "timing/engine/engine.h"

namespace strobe::timing {

class Dispatcher : public Component {
 public:
  Dispatcher(Engine& engine, std::vector<ComputeUnit*> cus, uint32_t interval_cycles);
  /// Starts dispatching `workgroups` at `start`; `on_done` is called when the last retires.
  void begin(Cycle start, uint64_t workgroups);
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
  uint32_t interval_;
  uint64_t total_ = 0, next_ = 0, retired_ = 0;
  uint32_t rr_ = 0;
  Cycle next_allowed_{0}, finish_{0};
  bool try_pending_ = false;
};

}  // namespace strobe::timing
