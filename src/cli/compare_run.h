// One benchmark compared: the full detailed reference and each sampling method, each repeated
// in this process, with the cycles checked identical across repeats.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/sampled_run.h"
#include "sampling/eval/compare_stats.h"
#include "timing/config/gpu_config.h"

namespace strobe::cli {

/// What to compare and how.
struct CompareSpec {
  std::string bench;
  std::vector<std::string> params;         ///< "K=V"
  std::vector<std::string> methods;        ///< method names
  std::vector<std::string> sampling_sets;  ///< --sampling-set overrides
  timing::GpuConfig cfg;
  int repeat = 1;
  bool verify = false, skip_functional = false;
};

/// One method's runs of the benchmark.
struct MethodRuns {
  std::string name;
  uint64_t estimated_cycles = 0;
  std::vector<double> sampled_seconds;  ///< per repeat, every pass
  std::vector<double> speedups;         ///< per repeat: that repeat's full seconds / its sampled seconds
  std::vector<std::string> levels;      ///< the level of each launch
  SampledRun last;                      ///< the last repeat (launch records, summary)
};

/// The reference and every method on one benchmark.
struct ComparedRun {
  workloads::RunOutcome full;  ///< the last full repeat (launch records, device state)
  uint64_t full_cycles = 0;
  std::vector<double> full_seconds;  ///< per repeat
  std::vector<MethodRuns> methods;
};

/// Runs the reference and each method `spec.repeat` times, interleaved so that drift in the
/// machine's speed affects them alike. Throws FaultError when any launch's cycles differ
/// between repeats (the simulator must be deterministic) or a method changes the launch count.
ComparedRun compare_run(const CompareSpec& spec);

/// Method `m`'s result on `run` as the aggregates need it (median times and speedup).
sampling::RunScore score(const ComparedRun& run, size_t m);

/// Sum of the launches' cycles.
uint64_t total_cycles(const std::vector<workloads::LaunchStat>& launches);

/// How many launches ended at each level, e.g. {"detailed": 3, "kernel": 1}.
nlohmann::json level_counts(const std::vector<std::string>& levels);

}  // namespace strobe::cli
