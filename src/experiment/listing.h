// What strobe can run, as data generated from the declarations: every registered sampling
// method with its parameters, and every timing-model key (`strobe list`).
#pragma once

#include <nlohmann/json.hpp>

namespace strobe::experiment {

/// Every registered method: name, description, `kind` (whether it samples a compute workload's
/// launches or a graphics workload's frames) and its declared parameters.
nlohmann::json methods_listing();

/// Every timing-model parameter (params.def): key, kind, default, bounds or choices, unit, doc.
nlohmann::json config_listing();

}  // namespace strobe::experiment
