// The CSV writer, for spreadsheets and plotting scripts.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace strobe::report {

/// A set compared (to_json(SetComparison)) as CSV: one `run` row per (run, method), then one
/// `aggregate` row per method.
std::string set_comparison_csv(const nlohmann::json& set);

}  // namespace strobe::report
