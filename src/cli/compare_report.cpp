// Set reports of `strobe compare` as text, JSON and CSV.
#include "cli/compare_report.h"

#include <fmt/core.h>
#include <fmt/ranges.h>

namespace strobe::cli {

namespace {

std::string levels_text(const nlohmann::json& levels) {
  std::string s;
  for (const auto& [k, v] : levels.items()) s += fmt::format("{}{}:{}", s.empty() ? "" : " ", k, v.get<int>());
  return s;
}

std::string params_text(const nlohmann::json& args) {
  std::vector<std::string> a = args.get<std::vector<std::string>>();
  return a.empty() ? "(defaults)" : fmt::format("{}", fmt::join(a, ","));
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

}  // namespace

nlohmann::json set_run_json(const ComparedRun& run, const std::vector<std::string>& args) {
  uint64_t wave = 0;
  for (const auto& l : run.full.launches) wave += l.result.stats.wave_instructions;
  const sampling::Spread fs = sampling::spread_of(run.full_seconds);
  nlohmann::json j = {{"benchmark", run.full.benchmark},
                      {"args", args},
                      {"params", run.full.params.to_json()},
                      {"launches", run.full.launches.size()},
                      {"wave_instructions", wave},
                      {"full_cycles", run.full_cycles},
                      {"full_seconds", {{"median", fs.median}, {"min", fs.min}, {"max", fs.max}}},
                      {"repeats", run.full_seconds.size()}};
  nlohmann::json methods = nlohmann::json::object();
  for (size_t m = 0; m < run.methods.size(); ++m) {
    const MethodRuns& mr = run.methods[m];
    const sampling::RunScore s = score(run, m);
    const sampling::Spread sp = sampling::spread_of(mr.speedups);
    methods[mr.name] = {{"estimated_cycles", s.estimated_cycles},
                        {"error_pct", sampling::error_pct(s.estimated_cycles, s.full_cycles)},
                        {"speedup", sp.median},
                        {"speedup_min", sp.min},
                        {"speedup_max", sp.max},
                        {"speedups", mr.speedups},
                        {"full_seconds", s.full_seconds},
                        {"sampled_seconds", s.sampled_seconds},
                        {"levels", level_counts(mr.levels)},
                        {"fallback", s.fallback},
                        {"detailed_share", mr.last.summary["shares"]["detailed"]},
                        {"verified", mr.last.outcome.verified}};
  }
  j["methods"] = methods;
  return j;
}

nlohmann::json method_entry_json(const sampling::RunScore& s, const std::vector<double>& speedups,
                                 const std::vector<std::string>& levels, bool verified, const nlohmann::json& summary,
                                 const nlohmann::json& kernels) {
  const sampling::Spread sp = sampling::spread_of(speedups);
  return {{"estimated_cycles", s.estimated_cycles},
          {"full_cycles", s.full_cycles},
          {"error_pct", sampling::error_pct(s.estimated_cycles, s.full_cycles)},
          {"full_wall_seconds", s.full_seconds},
          {"sampled_wall_seconds", s.sampled_seconds},
          {"speedup", sp.median},
          {"speedup_min", sp.min},
          {"speedup_max", sp.max},
          {"repeats", speedups.size()},
          {"levels", level_counts(levels)},
          {"fallback", s.fallback},
          {"verified", verified},
          {"sampling", summary},
          {"kernels", kernels}};
}

nlohmann::json launch_entry_json(size_t launch, const std::string& name, uint64_t full_cycles,
                                 uint64_t estimated_cycles, const std::string& level, double full_wall_seconds,
                                 double sampled_wall_seconds) {
  return {{"launch", launch},
          {"name", name},
          {"full_cycles", full_cycles},
          {"estimated_cycles", estimated_cycles},
          {"error_pct", sampling::error_pct(estimated_cycles, full_cycles)},
          {"level", level},
          {"full_wall_seconds", full_wall_seconds},
          {"sampled_wall_seconds", sampled_wall_seconds}};
}

std::string method_table_text(const std::vector<std::string>& names, const nlohmann::json& methods) {
  std::string out =
      fmt::format("{:<10} {:>14} {:>9} {:>10} {:>9} {:>15}   instructions detailed / predicted / analysis\n", "method",
                  "est. cycles", "error", "wall s", "speedup", "(min-max)");
  for (const auto& name : names) {
    const auto& m = methods.at(name);
    const auto& sh = m["sampling"]["shares"];
    out += fmt::format("{:<10} {:>14} {:>8.2f}% {:>10.3f} {:>8.2f}x {:>15}   {:.1f}% / {:.1f}% / {:.1f}%\n", name,
                       m["estimated_cycles"].get<uint64_t>(), m["error_pct"].get<double>(),
                       m["sampled_wall_seconds"].get<double>(), m["speedup"].get<double>(),
                       fmt::format("{:.2f}-{:.2f}", m["speedup_min"].get<double>(), m["speedup_max"].get<double>()),
                       100 * sh["detailed"].get<double>(), 100 * sh["predicted"].get<double>(),
                       100 * sh["functional"].get<double>());
  }
  return out;
}

nlohmann::json aggregate_json(const sampling::Aggregate& a) {
  return {{"runs", a.runs},
          {"total_speedup", a.total_speedup},
          {"geomean_speedup", a.geomean_speedup},
          {"mean_abs_error_pct", a.mean_abs_error_pct},
          {"max_abs_error_pct", a.max_abs_error_pct},
          {"summed_cycles_error_pct", a.summed_cycles_error_pct},
          {"fallback_runs", a.fallback_runs},
          {"sampled_runs", a.sampled_runs},
          {"mean_abs_error_pct_sampled", a.mean_abs_error_pct_sampled}};
}

std::string set_report_text(const nlohmann::json& rep) {
  const auto methods = rep["methods"].get<std::vector<std::string>>();
  std::string out = fmt::format("set {} (size {}): {} run{}, {} repeat{} of the reference and each method\n",
                                rep["set"].get<std::string>(), rep["size"].get<std::string>(), rep["runs"].size(),
                                rep["runs"].size() == 1 ? "" : "s", rep["repeat"].get<int>(),
                                rep["repeat"].get<int>() == 1 ? "" : "s");
  out += fmt::format("{:<13} {:<30} {:>13}", "benchmark", "params", "full cycles");
  for (const auto& m : methods)
    out += fmt::format(" | {:>14} {:>22}  {:<28}", m + " error", "speedup (min-max)", "levels");
  out += "\n";
  for (const auto& r : rep["runs"]) {
    out += fmt::format("{:<13} {:<30} {:>13}", r["benchmark"].get<std::string>(), params_text(r["args"]),
                       r["full_cycles"].get<uint64_t>());
    for (const auto& m : methods) {
      const auto& x = r["methods"][m];
      const std::string speedup = fmt::format("{:.2f}x ({:.2f}-{:.2f})", x["speedup"].get<double>(),
                                              x["speedup_min"].get<double>(), x["speedup_max"].get<double>());
      out += fmt::format(" | {:>13.2f}% {:>22}  {:<28}", x["error_pct"].get<double>(), speedup,
                         levels_text(x["levels"]) + (x["fallback"].get<bool>() ? " (fallback)" : ""));
    }
    out += "\n";
  }
  out += fmt::format("\n{:<8} {:>5} {:>14} {:>16} {:>11} {:>10} {:>18} {:>9} {:>20}\n", "method", "runs",
                     "total speedup", "geomean speedup", "mean |err|", "max |err|", "summed-cycles err", "fallback",
                     "mean |err| sampled");
  for (const auto& m : methods) {
    const auto& a = rep["aggregates"][m];
    out += fmt::format("{:<8} {:>5} {:>13.2f}x {:>15.2f}x {:>10.2f}% {:>9.2f}% {:>17.2f}% {:>9} {:>19.2f}%\n", m,
                       a["runs"].get<size_t>(), a["total_speedup"].get<double>(), a["geomean_speedup"].get<double>(),
                       a["mean_abs_error_pct"].get<double>(), a["max_abs_error_pct"].get<double>(),
                       a["summed_cycles_error_pct"].get<double>(), a["fallback_runs"].get<size_t>(),
                       a["mean_abs_error_pct_sampled"].get<double>());
  }
  return out;
}

std::string set_report_csv(const nlohmann::json& rep) {
  static const char* kRunCols[] = {"estimated_cycles", "error_pct", "speedup", "speedup_min", "speedup_max",
                                   "full_seconds", "sampled_seconds", "fallback"};
  static const char* kAggCols[] = {"runs", "total_speedup", "geomean_speedup", "mean_abs_error_pct",
                                   "max_abs_error_pct", "summed_cycles_error_pct", "fallback_runs", "sampled_runs",
                                   "mean_abs_error_pct_sampled"};
  std::string out = "kind,set,size,benchmark,params,method,full_cycles";
  for (const char* c : kRunCols) out += std::string(",") + c;
  out += ",levels";
  for (const char* c : kAggCols) out += std::string(",") + c;
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
      for (size_t i = 0; i < std::size(kAggCols); ++i) out += ",";
      out += "\n";
    }
  for (const auto& m : methods) {
    out += fmt::format("aggregate,{},{},,,{},", set, size, m);
    for (size_t i = 0; i < std::size(kRunCols); ++i) out += ",";
    out += ",";
    for (const char* c : kAggCols) out.append(",").append(rep["aggregates"][m][c].dump());
    out += "\n";
  }
  return out;
}

}  // namespace strobe::cli
