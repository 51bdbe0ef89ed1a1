// The graphics workloads strobe knows by name: traces scripts/capture-gfx records from real
// programs into the traces directory, so `strobe run gfx:glmark2` needs no path.
#pragma once

#include <string>
#include <vector>

namespace strobe::gfx {

/// One named capture.
struct CapturedWorkload {
  const char* name;         ///< as in `gfx:NAME` and `scripts/capture-gfx NAME`
  const char* description;
};

/// The captures scripts/capture-gfx makes.
const std::vector<CapturedWorkload>& captured_workloads();

/// Where named traces live: $STROBE_GFX_TRACES, else gfx-traces/ beside the strobe executable
/// (the build directory, where scripts/setup captures them).
std::string traces_dir();

/// The trace a `gfx:` workload names: gfx:NAME for a named capture (an InputError saying how to
/// capture it when its trace is missing), or gfx:PATH for any apitrace file.
std::string resolve_trace(const std::string& workload);

}  // namespace strobe::gfx
