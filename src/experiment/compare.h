// Comparison of sampling methods against full detailed simulation on benchmarks: the reference
// and each method repeated in this process, the cycles checked identical across repeats, and the
// errors and speedups the comparison report carries.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "experiment/journal.h"
#include "experiment/passes.h"
#include "experiment/run_spec.h"
#include "report/comparison.h"
#include "sampling/eval/compare_stats.h"
#include "workloads/bench_set.h"

namespace strobe::experiment {

/// One method's runs of the benchmark.
struct MethodRuns {
  std::string name;
  uint64_t estimated_cycles = 0;
  std::vector<double> sampled_seconds;  ///< per repeat, every pass
  std::vector<double> speedups;         ///< per repeat: that repeat's full seconds / its sampled seconds
  std::vector<std::string> levels;      ///< the level of each launch
  SampledRun last;                      ///< the last repeat (launch records, summary)
  /// Why the method could not run the workload (empty when it ran). Only a set's comparison
  /// keeps going past a failed method; it then runs no further repeat of it.
  std::string failure;
};

/// The reference and every method on one benchmark.
struct ComparedRun {
  workloads::RunOutcome full;  ///< the last full repeat (launch records, device state)
  uint64_t full_cycles = 0;
  std::vector<double> full_seconds;  ///< per repeat
  std::vector<MethodRuns> methods;
};

/// Runs the reference and each method of `c` on `bench` with `params`, `repeat` times,
/// interleaved so that drift in the machine's speed affects them alike. Throws FaultError when
/// any launch's cycles differ between repeats (the simulator must be deterministic). A method
/// that cannot run the workload (it throws strobe::Error, or changes the launch count) stops
/// the comparison, or with `keep_going` is recorded as failed (MethodRuns::failure) while the
/// reference and the other methods go on.
ComparedRun compare_run(const ValidatedCompare& c, const std::string& bench, const std::vector<std::string>& params,
                        bool keep_going = false);

/// Method `m`'s result on `run` as the aggregates need it (median times and speedup).
sampling::RunScore score(const ComparedRun& run, size_t m);

/// One benchmark compared: the runs, and the report contract's view of them (the reference's
/// run report and each method's estimate, error, speedup and per-launch rows).
struct BenchmarkComparison {
  ComparedRun run;
  report::RunComparison report;
};

/// Compares the methods of `c` on its benchmark (c.spec.run.benchmark and params).
BenchmarkComparison compare(const ValidatedCompare& c);

/// `run` as a row of a set report; `args` are the run's parameters as given.
report::SetRunRow set_row(const ComparedRun& run, const std::vector<std::string>& args);

/// Told about each run of a set before it starts: index, count, the run, and whether its
/// result comes from the journal instead of a simulation.
using SetProgress = std::function<void(size_t, size_t, const workloads::SetRun&, bool from_journal)>;

/// Every run of `set` compared, then the per-method aggregates. With a `journal`, runs it holds
/// are taken from it and every run finished is recorded in it as soon as it finishes. With a
/// `captures` directory, each run is compared from its capture there (made first if it is not
/// there: one capture per run serves every configuration compared later), and the report adds
/// each run's capture time and each method's one-shot speedups.
report::SetComparison compare_set(const ValidatedCompare& c, const workloads::BenchSet& set,
                                  const SetProgress& on_run = {}, RunJournal* journal = nullptr,
                                  const std::string& captures = "");

/// Where compare_set() keeps run `r`'s capture in directory `dir`: named by its benchmark and a
/// hash of its parameters.
std::string set_capture_path(const std::string& dir, const workloads::SetRun& r);

/// A one-run set (for CSV of a single comparison): the run's row and its aggregates.
report::SetComparison one_run_set(const ComparedRun& run, const ValidatedCompare& c);

/// One method's aggregates in the report's terms.
report::AggregateRow aggregate_row(const sampling::Aggregate& a);

/// Sum of the launches' cycles.
uint64_t total_cycles(const std::vector<workloads::LaunchStat>& launches);

/// How many launches ended at each level, e.g. {"detailed": 3, "kernel": 1}.
std::map<std::string, int> level_counts(const std::vector<std::string>& levels);

}  // namespace strobe::experiment
