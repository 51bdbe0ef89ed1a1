// Field renderings the text and CSV writers share, so both views spell a cell alike.
#pragma once

#include <string>
#include <vector>

#include <fmt/core.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

namespace strobe::report::detail {

/// Launch levels as "detailed:3 kernel:1".
inline std::string levels_text(const nlohmann::json& levels) {
  std::string s;
  for (const auto& [k, v] : levels.items()) s += fmt::format("{}{}:{}", s.empty() ? "" : " ", k, v.get<int>());
  return s;
}

/// A run's "K=V" arguments comma-joined, or "(defaults)".
inline std::string params_text(const nlohmann::json& args) {
  std::vector<std::string> a = args.get<std::vector<std::string>>();
  return a.empty() ? "(defaults)" : fmt::format("{}", fmt::join(a, ","));
}

}  // namespace strobe::report::detail
