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

}  // namespace strobe::report
