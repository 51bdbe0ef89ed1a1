// A real, tiny dispatch to drive a launch observer with, as the timing model does: one-wave
// groups of two instructions and no memory, so the groups an observer skips can be emulated.
#pragma once

#include <cstdint>

#include "emu/emu_test_util.h"
#include "emu/executor.h"
#include "timing/gpu/launch_observer.h"

namespace strobe::sampling::test {

/// `groups` one-wave groups of `v_mov_b32; s_endpgm`, with an executor to initialise them.
struct TinyLaunch {
  emu::test::AsmLaunch l;
  emu::Executor ex{l.d, l.mem};
  explicit TinyLaunch(uint32_t groups)
      : l("v_mov_b32 v1, 1\ns_endpgm\n", emu::test::KdSpec{}, {64 * groups, 1, 1}, {64, 1, 1}) {}
  /// Asks `o` about group `id` at `cycle` as the model does (CU 0), counting any functional run
  /// into `stats`; returns whether the group is simulated in detail.
  bool dispatch(timing::LaunchObserver& o, uint64_t id, uint64_t cycle, emu::DispatchStats& stats) {
    emu::WorkGroup wg;
    ex.init_workgroup(wg, id);
    return !o.predict_workgroup(ex, wg, stats, cycle, 0).has_value();
  }
};

}  // namespace strobe::sampling::test
