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

/// One method's entry in a one-run comparison report: estimated and full cycles, error, wall
/// seconds, speedup and its spread, levels, fallback, the sampling summary and per-launch rows.
nlohmann::json method_entry_json(const sampling::RunScore& s, const std::vector<double>& speedups,
                                 const std::vector<std::string>& levels, bool verified, const nlohmann::json& summary,
                                 const nlohmann::json& kernels);

/// One per-launch row of a method's entry: full and estimated cycles, error and level.
nlohmann::json launch_entry_json(size_t launch, const std::string& name, uint64_t full_cycles,
                                 uint64_t estimated_cycles, const std::string& level, double full_wall_seconds,
                                 double sampled_wall_seconds);

/// The method table of a one-run comparison: its header line, then one row per entry of
/// `methods` (name -> method_entry_json) in the order of `names`.
std::string method_table_text(const std::vector<std::string>& names, const nlohmann::json& methods);

/// One method's aggregates as JSON.
nlohmann::json aggregate_json(const sampling::Aggregate& a);

/// The per-run table and the aggregates of a set report (`report` as set_report_json made it).
std::string set_report_text(const nlohmann::json& report);

/// The same data as CSV: one `run` row per (run, method), then one `aggregate` row per method.
std::string set_report_csv(const nlohmann::json& report);

}  // namespace strobe::cli
