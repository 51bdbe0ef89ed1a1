// What strobe can run, as data generated from the declarations: every registered benchmark and
// sampling method with its parameters, and every timing-model key (`strobe list`). Every
// parameter is listed alike (common/param_decl.h's to_json), whichever of the three it is.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace strobe::experiment {

/// Every registered benchmark: name, description and its declared parameters, each with the
/// value the quick test-suite run takes (`small`).
nlohmann::json benchmarks_listing();

/// Every registered method: name, description, `kind` (whether it samples a compute workload's
/// launches or a graphics workload's frames) and its declared parameters.
nlohmann::json methods_listing();

/// Every timing-model parameter (params.def): name (the dotted key), kind, default, bounds and
/// unit or choices, doc.
nlohmann::json config_listing();

/// The parameters of what a command line names, as `strobe list` prints them: a section per
/// benchmark (gfx: workloads and captures carry none), per sampling method or variant (its
/// method's), and one for the timing-model keys; a line for each name nothing declares. Empty
/// when nothing is named.
std::string named_parameters_help(const std::vector<std::string>& benchmarks, const std::vector<std::string>& methods,
                                  const std::vector<std::string>& keys);

/// One listed parameter (an entry of the listings above) as a line of `strobe list`: its name in
/// `width` columns, its default, its range and unit or its choices, and its doc.
std::string param_row(const nlohmann::json& p, int width);

}  // namespace strobe::experiment
