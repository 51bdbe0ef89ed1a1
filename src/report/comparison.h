// The report of a comparison (`strobe compare`): the full detailed reference against each
// sampling method, on one run or over a benchmark set. The experiment layer computes every
// number; these structures only carry them to the writers (report/json.h, report/text.h,
// report/csv.h), so a new view never repeats arithmetic.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace strobe::report {

/// Median, smallest and largest of repeated measurements of one ratio.
struct Spread {
  double median = 0, min = 0, max = 0;
};

/// One CPI-stack category of a launch: the analytical model's value beside the detailed model's.
struct CpiCategory {
  std::string name;           ///< the analytical model's category (BASE, ...), or the detailed one's when unmodelled
  std::string detailed_name;  ///< the detailed model's category (issue, ...)
  bool modelled = true;       ///< false for detailed categories the analytical model has no counterpart for
  double predicted = 0;       ///< cycles per wave instruction per SIMD (0 when unmodelled)
  double detailed = 0;        ///< the same unit: the category's share of the detailed stack x the detailed CPI
};

/// An analytical method's CPI of a launch against the detailed model's (METHODS.md §2.6).
struct CpiComparison {
  double predicted_cpi = 0, detailed_cpi = 0;  ///< cycles per wave instruction per SIMD
  double error_pct = 0;                        ///< (predicted - detailed) / detailed CPI
  uint32_t simds = 0;                          ///< the SIMDs both CPIs are per
  std::vector<CpiCategory> categories;         ///< the modelled categories, then the unmodelled ones
};

/// One launch as a method estimated it, beside the reference.
struct LaunchComparison {
  size_t launch = 0;
  std::string name;
  uint64_t full_cycles = 0, estimated_cycles = 0;
  double error_pct = 0;
  std::string level;  ///< the method's level for this launch ("detailed" when not sampled)
  double full_wall_seconds = 0, sampled_wall_seconds = 0;
  /// What the method did to the launch, so a report shows how much of it was predicted
  /// (absent for a launch the method never saw).
  bool has_sampling = false;
  nlohmann::json detailed_instructions, predicted_instructions, detail;
  /// An analytical method's CPI and CPI stack beside the detailed model's (absent otherwise).
  std::optional<CpiComparison> cpi;
};

/// One method's result on one run.
struct MethodComparison {
  std::string name;
  uint64_t estimated_cycles = 0, full_cycles = 0;
  double error_pct = 0;
  double ipc_error_pct = 0;  ///< the IPC's error (sampling::ipc_error_pct)
  double full_wall_seconds = 0, sampled_wall_seconds = 0;  ///< medians over repeats
  Spread speedup;
  std::vector<double> speedups;                 ///< per repeat
  std::map<std::string, int> levels;            ///< launches per level
  bool fallback = false;                        ///< every launch fell back to full detail
  /// Why the method could not run the workload (empty when it ran); in a set, such a method has
  /// no estimate for the run, which the aggregates count apart.
  std::string failure;
  bool verified = false;
  nlohmann::json sampling;                      ///< the method's sampling summary
  double detailed_share = 0;                    ///< sampling["shares"]["detailed"]
  /// Mean |CPI error| over the launches an analytical method predicted a CPI for (absent when none).
  std::optional<double> mean_abs_cpi_error_pct;
  /// From a capture: the full detailed run's seconds over the method's plus the capture's, the
  /// cost of a study of one configuration (absent without a capture; `speedup` is then the cost
  /// per configuration, the capture reused).
  std::optional<double> one_shot_speedup;
  std::vector<LaunchComparison> launches;
};

/// One run compared: the reference's own run report (JSON) and each method, in the order asked.
struct RunComparison {
  nlohmann::json reference;  ///< the full detailed run's report (report/json.h's shape)
  int repeat = 1;
  std::vector<MethodComparison> methods;
};

/// One run of a set, as a row of the set report.
struct SetRunRow {
  std::string benchmark;
  std::vector<std::string> args;  ///< the run's "K=V" parameters as the set gave them
  nlohmann::json params;          ///< the effective parameters
  size_t launches = 0;
  uint64_t wave_instructions = 0;
  uint64_t full_cycles = 0;
  Spread full_seconds;
  size_t repeats = 0;
  std::vector<MethodComparison> methods;  ///< launches left empty: a set row has no per-launch detail
  nlohmann::json provenance;              ///< the build and host that measured the row, and when
  std::optional<double> capture_seconds;  ///< compared from a capture: the capture's own time
};

/// One method's aggregates over a set (see sampling/eval/compare_stats.h for their meaning).
struct AggregateRow {
  size_t runs = 0, failed_runs = 0;
  double total_speedup = 0, geomean_speedup = 0, mean_abs_error_pct = 0, max_abs_error_pct = 0,
         summed_cycles_error_pct = 0;
  size_t fallback_runs = 0, sampled_runs = 0;
  double mean_abs_error_pct_sampled = 0;
  double geomean_ipc_error_pct = 0, sample_size = 0;
  /// Compared from captures: full detail's total seconds over the method's plus every capture's,
  /// the set's study of one configuration.
  std::optional<double> one_shot_total_speedup;
};

/// A benchmark set compared: every run, then per-method aggregates.
struct SetComparison {
  std::string set, size, description, arch;
  std::vector<std::string> methods;
  int repeat = 1;
  std::vector<SetRunRow> runs;
  std::vector<std::pair<std::string, AggregateRow>> aggregates;
};

}  // namespace strobe::report
