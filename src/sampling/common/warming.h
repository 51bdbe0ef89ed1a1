// Functional warming as a sampling option (docs/sampling.md, "Warm state"): whether the work a
// method runs functionally, its non-detailed launches and the work-groups it predicts inside
// detailed ones, feeds its accesses into the timing model's caches (timing/gpu/warmer.h).
#pragma once

#include <cstdint>
#include <string>

#include "emu/dispatch.h"
#include "emu/memory.h"
#include "timing/gpu/gpu.h"

namespace strobe::sampling {

/// What functionally executed work leaves in the timing model: nothing, or the cache tags.
enum class Warming : uint8_t { None, Caches };

/// The option's spelling of `w`: "none" or "caches".
const char* warming_name(Warming w);
/// Parses "none" or "caches"; throws InputError naming `text` as the value of `option`.
Warming parse_warming(const std::string& text, const std::string& option);

/// Runs `d` functionally as a launch the method does not simulate in detail: with Caches on the
/// timing model's placement, warming its caches (Gpu::run_functional), else in the emulator alone;
/// on the GPU's host threads either way (the result is one thread's).
emu::DispatchStats run_functional_launch(const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu, Warming w);

/// What a launch's observer warms with the groups it runs functionally: `gpu`'s caches for
/// Caches, else nothing (null).
inline timing::Warmer* warmer_for(timing::Gpu& gpu, Warming w) {
  return w == Warming::Caches ? &gpu.warmer() : nullptr;
}

}  // namespace strobe::sampling
