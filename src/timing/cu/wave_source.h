// Where a compute unit's work comes from. Work arrives as work-groups, each carrying its own
// code, resource needs and emulator, so a CU runs whatever its sources hand it: kernels from
// the compute Dispatcher today, shader waves from a graphics shader-launch unit (SPI) later.
#pragma once

#include <cstdint>

#include "timing/cu/occupancy.h"
#include "timing/cu/wave_state.h"
#include "timing/engine/engine.h"

namespace strobe::emu { class Executor; }

namespace strobe::timing {

class WaveSource;

/// One work-group a source hands to a CU.
struct WorkgroupLaunch {
  WaveSource* source = nullptr;       ///< told when the group's waves retire
  emu::Executor* executor = nullptr;  ///< initialises and executes the group's waves
  WaveCode code;                      ///< what every wave of the group runs
  WorkgroupNeeds needs;               ///< resources the group holds while resident
  uint64_t id = 0;                    ///< the group's linear id within its source's launch
};

/// A unit that hands work-groups to compute units.
///
/// The protocol, in full:
///  - The source decides when and where a group goes: it asks `ComputeUnit::can_accept(needs)`
///    and, if true, calls `ComputeUnit::launch_workgroup(now, launch)` with `launch.source` set
///    to itself (one virtual-free call per work-group).
///  - Whenever a wave of the source's groups retires, the CU calls `mark_room(cu)` (its slot
///    and registers are free again): a source that found the CU full may look again.
///  - When a group's last wave retires, the CU sends the source the event kWorkgroupRetired
///    (events.h) with the CU's index as argument, in the same cycle.
///
/// A second source (the SPI) plugs in by deriving from WaveSource, filling WorkgroupLaunch
/// with its shader's code and needs, and following the same three steps; the CU needs no
/// change. Sources sharing a CU arbitrate among themselves before calling launch_workgroup().
class WaveSource : public Component {
 public:
  using Component::Component;
  /// CU `cu` freed wave resources (a wave retired) and may accept work again.
  virtual void mark_room(uint32_t cu) = 0;
};

}  // namespace strobe::timing
