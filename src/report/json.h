// The JSON writer: the report contract (report/run_report.h, report/comparison.h) as the JSON
// that tests, scripts/eval-sampling and the other views read. Keys and values are the schema;
// change them only together with their readers.
#pragma once

#include <nlohmann/json.hpp>

#include "report/comparison.h"
#include "report/run_report.h"

namespace strobe::report {

/// A run as DESIGN.md §5 JSON: totals, one entry per launch (`kernels`), timing and sampling
/// summaries and the effective configuration.
nlohmann::json to_json(const RunReport& r);

/// One run compared: the reference's report plus `methods` (name -> entry with per-launch rows)
/// and `repeat`.
nlohmann::json to_json(const RunComparison& c);

/// A set compared: `runs` (one row per run, per method) and per-method `aggregates`.
nlohmann::json to_json(const SetComparison& s);

/// One row of a set report as its entry in `runs`.
nlohmann::json to_json(const SetRunRow& r);
/// The row `to_json(const SetRunRow&)` wrote (a run journal reads its rows back). Throws
/// InputError naming the first missing or mistyped key.
SetRunRow set_run_row_from_json(const nlohmann::json& j);

}  // namespace strobe::report
