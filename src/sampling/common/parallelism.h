// How many of a launch's work-groups run side by side: what a projection from one launch to
// another must scale by when the two fill the GPU differently.
//
// A launch with fewer groups than the GPU holds at once runs them all together, so its time does
// not grow with its instructions the way a launch of many generations does: scan's 1-group
// launch projected from its 4-group one by instructions alone took a quarter of its cycles, and
// GPT-2's decoder GEMVs of 6 to 24 groups took each other's rates 4x wrong.
#pragma once

#include <cstdint>

#include "emu/dispatch.h"
#include "timing/gpu/gpu.h"

namespace strobe::sampling {

/// Work-groups of `d`'s kernel the configured GPU holds resident at once (its occupancy per CU
/// times the CUs), at least 1.
uint32_t system_occupancy(const timing::Gpu& gpu, const emu::Dispatch& d);

/// Groups of a launch of `groups` work-groups that run at once on a GPU holding `system`.
inline uint64_t groups_at_once(uint64_t groups, uint64_t system) { return groups < system ? groups : system; }

/// The rate a launch of `groups` work-groups runs at, relative to one group alone, on a GPU of
/// `cus` CUs that holds `system` of them at once: the CUs it keeps busy, min(groups, cus), times
/// what each busy CU gets from the groups it holds together, (groups_at_once / busy CUs) raised
/// to `exponent`. Exponent 1 makes a CU's rate grow linearly with its groups (groups_at_once
/// itself); 0 makes one group saturate it (busy CUs only). 0 when `groups` is 0.
double launch_parallelism(uint64_t groups, uint64_t system, uint32_t cus, double exponent);

/// `cycles` projected from a launch running at parallelism `from` to one running at `to`: scaled
/// by their ratio (unchanged when either is 0).
inline double scale_by_parallelism(double cycles, double from, double to) {
  return from > 0 && to > 0 ? cycles * from / to : cycles;
}

}  // namespace strobe::sampling
