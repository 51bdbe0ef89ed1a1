// The timing model's results as JSON. The model only counts; naming and deriving what a report
// shows (CPI stack, unit busy cycles, cache and DRAM totals) happens here.
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

#include "timing/gpu/gpu.h"

namespace strobe::report {

/// Derived summary of a stats window (a launch or the GPU's whole life): CPI stack, unit busy
/// cycles, cache and DRAM totals over all instances, and per-CU, per-SIMD utilisation
/// ("utilisation": issued instructions and VALU busy cycles per SIMD, and the window's cycles),
/// and address translation's counters ("tlb") when it is modelled.
nlohmann::json timing_summary_json(const timing::StatsSnapshot& s, uint64_t cycles);

/// One launch's timing: {"kernel", "cycles", "sim_seconds", "wave_instructions",
/// "thread_instructions", "ipc", "occupancy", "cpi_stack", "units", "caches", "dram",
/// "timeline", "counters"} (the per-SIMD utilisation is the run summary's).
nlohmann::json launch_timing_json(const timing::LaunchTiming& t);

/// One graphics frame's timing: the summary above plus {"frame", "cycles", "sim_seconds",
/// "wave_instructions", "thread_instructions", "ipc", "phase_ends", "pipeline"} (the
/// fixed-function stages' counters and busy fractions).
nlohmann::json frame_timing_json(const timing::FrameTiming& t);

}  // namespace strobe::report
