// The text writer: what a person reads on a terminal, rendered from the report contract.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "report/run_report.h"

namespace strobe::report {

/// A run in a few lines: one per launch (grid, waves, instructions, cycles), then the totals.
std::string run_text(const RunReport& r);

/// One run compared (report/json.h's to_json(RunComparison)): the reference's cycles and time,
/// then a table of the methods in the order `sampling` lists them.
std::string comparison_text(const nlohmann::json& comparison);

/// A set compared (to_json(SetComparison)): the per-run table and the per-method aggregates.
std::string set_comparison_text(const nlohmann::json& set);

}  // namespace strobe::report
