// The CSV writer (see csv.h).
#include "report/csv.h"

#include <iterator>

#include <fmt/core.h>
#include <fmt/ranges.h>

#include "report/fields.h"

namespace strobe::report {

using detail::levels_text;
using detail::params_text;

namespace {

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

}  // namespace

std::string set_comparison_csv(const nlohmann::json& rep) {
  static const char* kRunCols[] = {"estimated_cycles", "error_pct", "ipc_error_pct", "detailed_share", "speedup",
                                   "speedup_min", "speedup_max", "full_seconds", "sampled_seconds", "fallback"};
  // Columns a row may lack (a failed method's reason; failed runs in sets journalled before).
  static const char* kRunOptional[] = {"failure"};
  static const char* kAggOptional[] = {"failed_runs"};
  static const char* kAggCols[] = {"runs", "total_speedup", "geomean_speedup", "mean_abs_error_pct",
                                   "max_abs_error_pct", "summed_cycles_error_pct", "fallback_runs", "sampled_runs",
                                   "mean_abs_error_pct_sampled", "geomean_ipc_error_pct", "sample_size"};
  std::string out = "kind,set,size,benchmark,params,method,full_cycles";
  for (const char* c : kRunCols) out += std::string(",") + c;
  out += ",levels";
  for (const char* c : kRunOptional) out += std::string(",") + c;
  for (const char* c : kAggCols) out += std::string(",") + c;
  for (const char* c : kAggOptional) out += std::string(",") + c;
  out += "\n";
  const std::string set = csv_field(rep["set"].get<std::string>()), size = rep["size"].get<std::string>();
  const auto methods = rep["methods"].get<std::vector<std::string>>();
  for (const auto& r : rep["runs"])
    for (const auto& m : methods) {
      const auto& x = r["methods"][m];
      out += fmt::format("run,{},{},{},{},{},{}", set, size, r["benchmark"].get<std::string>(),
                         csv_field(params_text(r["args"])), m, r["full_cycles"].get<uint64_t>());
      // Appended piecewise: `"," + string` trips a false -Wrestrict in GCC 12.
      for (const char* c : kRunCols) out.append(",").append(x[c].dump());
      out.append(",").append(csv_field(levels_text(x["levels"])));
      for (const char* c : kRunOptional) out.append(",").append(csv_field(x.value(c, std::string())));
      for (size_t i = 0; i < std::size(kAggCols) + std::size(kAggOptional); ++i) out += ",";
      out += "\n";
    }
  for (const auto& m : methods) {
    out += fmt::format("aggregate,{},{},,,{},", set, size, m);
    for (size_t i = 0; i < std::size(kRunCols) + std::size(kRunOptional); ++i) out += ",";
    out += ",";
    for (const char* c : kAggCols) out.append(",").append(rep["aggregates"][m][c].dump());
    for (const char* c : kAggOptional) out.append(",").append(rep["aggregates"][m].value(c, nlohmann::json(0)).dump());
    out += "\n";
  }
  return out;
}

}  // namespace strobe::report
