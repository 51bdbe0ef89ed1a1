// Resolution of the GPU configuration options every simulating command shares (--arch, --set).
#pragma once

#include <string>
#include <vector>

#include "timing/config/gpu_config.h"

namespace strobe::cli {

/// Loads the preset or FILE.toml named by `arch` and applies each `KEY=VALUE` override, then
/// validates the result. Throws InputError naming the bad preset, key or value.
timing::GpuConfig resolve_gpu_config(const std::string& arch, const std::vector<std::string>& sets);

}  // namespace strobe::cli
