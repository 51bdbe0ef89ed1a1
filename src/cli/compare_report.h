// The report of `strobe compare --set`: per-run rows and per-method aggregates, as a text
// table, JSON and CSV carrying the same data.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/compare_run.h"

namespace strobe::cli {

/// One compared run as a set report row: benchmark, params and, per method, error, speedup
/// (median and spread over repeats), levels and fallback.
nlohmann::json set_run_json(const ComparedRun& run, const std::vector<std::string>& args);

/// One method's aggregates as JSON.
nlohmann::json aggregate_json(const sampling::Aggregate& a);

/// The per-run table and the aggregates of a set report (`report` as set_report_json made it).
std::string set_report_text(const nlohmann::json& report);

/// The same data as CSV: one `run` row per (run, method), then one `aggregate` row per method.
std::string set_report_csv(const nlohmann::json& report);

}  // namespace strobe::cli
