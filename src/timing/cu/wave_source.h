// Where a compute unit's work comes from. Work arrives as work-groups, each carrying its own
// code, resource needs and emulator, so a CU runs whatever its sources hand it: kernels from
// the compute Dispatcher, shader waves from the graphics pipeline's shader-launch unit (SPI).
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
  uint32_t tag = 0;                   ///< the source's own label, returned when the group retires
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
///    (events.h) with the launch's `tag` as argument, in the same cycle.
///
/// The SPI (timing/gfx) derives from WaveSource the same way: it fills WorkgroupLaunch with a
/// shader stage's code, needs and executor, and tags each wave so its retirement names it.
class WaveSource : public Component {
 public:
  using Component::Component;
  /// CU `cu` freed wave resources (a wave retired) and may accept work again.
  virtual void mark_room(uint32_t cu) = 0;
};

}  // namespace strobe::timing
