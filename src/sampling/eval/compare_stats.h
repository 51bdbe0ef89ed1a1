// The arithmetic of a sampling evaluation: per-run error and speedup, and the aggregates over a
// set of compared runs that `strobe compare --set` and docs/sampling-results.md report.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace strobe::sampling {

/// |estimate - full| / full in percent (100% when full is 0 and the estimate is not).
double error_pct(uint64_t estimate, uint64_t full);

/// The error of the IPC implied by `estimate` cycles against `full` cycles for the same
/// instructions, in percent: |full / estimate - 1|, the metric the TBPoint paper reports (it
/// differs from the cycles error by the factor full / estimate). 100% for a zero estimate of a
/// non-zero run.
double ipc_error_pct(uint64_t estimate, uint64_t full);

/// Floor put under each run's IPC error in the geometric mean: an exact run would otherwise
/// make the mean of the whole set zero.
inline constexpr double kGeomeanErrorFloorPct = 0.01;

/// The median of `v` (mean of the two middle values for an even count); 0 for an empty vector.
double median(std::vector<double> v);

/// Median, smallest and largest of repeated measurements of one ratio.
struct Spread {
  double median = 0, min = 0, max = 0;
};

/// The spread of `v`; all zero for an empty vector.
Spread spread_of(const std::vector<double>& v);

/// One method's result on one run, as the aggregates need it.
struct RunScore {
  uint64_t full_cycles = 0;       ///< full detailed simulation, summed over launches
  uint64_t estimated_cycles = 0;  ///< the method's estimate, summed over launches
  double full_seconds = 0;        ///< full detailed run time (median over repeats)
  double sampled_seconds = 0;     ///< the method's run time, every pass (median over repeats)
  double speedup = 0;             ///< the run's speedup (median over repeats of the per-repeat ratio)
  bool fallback = false;          ///< every launch ran at level "detailed": nothing was sampled
  uint64_t detailed_insts = 0;    ///< wave instructions the method timed in detail
  uint64_t timed_insts = 0;       ///< wave instructions timed (detailed + predicted)
  /// Why the method could not run this workload (empty when it ran): such a run has no error or
  /// speedup and is left out of every aggregate but the count of failed runs.
  std::string failure = {};
};

/// One method's aggregates over a set of runs.
struct Aggregate {
  size_t runs = 0;         ///< runs the method estimated (failed ones not counted)
  size_t failed_runs = 0;  ///< runs the method could not run (RunScore::failure)
  /// Σ full seconds / Σ sampled seconds: the time a whole set saves, dominated by the long runs.
  double total_speedup = 0;
  /// Geometric mean of the per-run speedups: the typical run's speedup, whatever its length.
  double geomean_speedup = 0;
  double mean_abs_error_pct = 0;  ///< mean of the per-run |error|
  double max_abs_error_pct = 0;   ///< largest per-run |error|
  /// |Σ estimated - Σ full| / Σ full: the error of the set's total cycles (errors may cancel).
  double summed_cycles_error_pct = 0;
  size_t fallback_runs = 0;  ///< runs where every launch fell back to full detail (0% error by construction)
  size_t sampled_runs = 0;   ///< runs - fallback_runs
  /// Mean |error| over the sampled runs only (0 when none was sampled): fallbacks do not dilute it.
  double mean_abs_error_pct_sampled = 0;
  /// Geometric mean of the per-run IPC errors (each floored at kGeomeanErrorFloorPct).
  double geomean_ipc_error_pct = 0;
  /// Σ detailed instructions / Σ timed instructions: the paper's total sample size.
  double sample_size = 0;
};

/// Aggregates `scores` (one method's runs) over those that did not fail; all zero when none ran.
Aggregate aggregate(const std::vector<RunScore>& scores);

/// Whether every launch level in `levels` is "detailed" (an empty list is not a fallback).
bool is_fallback(const std::vector<std::string>& levels);

}  // namespace strobe::sampling
