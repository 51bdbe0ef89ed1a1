// Where a launch's steady state can begin, for the methods that measure a rate and extrapolate
// it (PKA's IPC window, TBPoint's warming units).
//
// Until a launch has brought in as many lines as its L2 holds, no line it writes is evicted:
// DRAM carries its reads only, and a streaming kernel runs at up to twice the rate it keeps once
// the write-backs begin (relu: 262,144 lines written, 245,760 written back, none before the L2
// filled). A rate measured before that point is a transient's, however stable it looks.
#pragma once

#include <cstdint>
#include <span>

#include "timing/config/gpu_config.h"

namespace strobe::sampling {

/// Lines the configured L2 holds.
uint64_t l2_lines(const timing::GpuConfig& cfg);

/// How many of a launch's first work-groups (in dispatch order) bring in `l2` lines, when its
/// `groups` groups request `lines` lines in all, evenly: 0 when the whole launch requests no
/// more than the L2 holds (it never turns the L2 over, so no later state differs).
uint64_t l2_fill_groups(uint64_t lines, uint64_t groups, uint64_t l2);

/// The same from each group's own requests, in dispatch order.
uint64_t l2_fill_groups(std::span<const uint64_t> lines_per_group, uint64_t l2);

}  // namespace strobe::sampling
