// The data of an HTML report page: what `strobe report` reads from result files (the JSON
// contract of report/json.h and a sweep's merged table), reduced to what the page draws. Long
// runs stay light here: timelines are rebinned to a bounded number of points, and per-CU
// activity to a bounded number of columns, whatever the run's length.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace strobe::report {

/// One result file given to `strobe report`: its name (for headings) and its parsed JSON.
struct PageInput {
  std::string name;
  nlohmann::json result;
};

/// Most points of a run's IPC timeline on the page, and most columns of its per-CU map.
inline constexpr size_t kTimelinePoints = 1500, kCuColumns = 120;

/// The page model: {"sections": [...]}, one section per run, comparison, set or sweep found in
/// the inputs (a comparison adds its full-detail run as a run section before it). Throws
/// InputError naming the input that is not a strobe result.
nlohmann::json report_page(const std::vector<PageInput>& inputs);

/// The run section of a run report (report::to_json(RunReport)): kernels with their CPI
/// stacks and cache rates, launches on the run's cycle axis with their sampling level, the
/// rebinned timeline, the per-CU and per-SIMD maps, cache and DRAM totals, the sampled
/// estimate and interval, and the configuration against its preset.
nlohmann::json run_section(const std::string& name, const nlohmann::json& run);

/// Rebins samples into `buckets.size()` buckets of `width` cycles: adds `count`, spread
/// evenly over the cycles [from, to), to the buckets it overlaps.
void spread_over(std::vector<double>& buckets, double width, double from, double to, double count);

/// The confidence interval a method reported in a sampling summary (SimProf's
/// method_summary.interval: cycles, low, high, confidence, text), or null.
nlohmann::json interval_of(const nlohmann::json& sampling_summary);

/// The effective configuration against the preset it started from: [{"key", "value",
/// "preset", "changed"}] by dotted key; "preset" is null where the preset cannot be loaded.
nlohmann::json config_rows(const nlohmann::json& config, const std::string& arch);

}  // namespace strobe::report
