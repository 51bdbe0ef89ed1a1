// One validated run of a benchmark (`strobe run`), and the run report every front end builds
// from a benchmark's outcome.
#pragma once

#include <functional>
#include <string>

#include "experiment/run_spec.h"
#include "report/run_report.h"
#include "workloads/runner.h"

namespace strobe::experiment {

/// Told about each finished launch: the launch and how many the benchmark expects (0: unknown).
using LaunchCallback = std::function<void(const workloads::LaunchStat&, size_t expected)>;

/// What a run produced: the benchmark's outcome (its device kept alive) and its report.
struct RunResult {
  workloads::RunOutcome outcome;
  report::RunReport report;
  /// A capture's replay: the launches whose checkpoints it read over every pass (they ran work,
  /// or a page was fetched while they were prepared), ascending; those a capture must keep for
  /// the replay to run from it (capture/keep.h).
  std::vector<uint64_t> capture_ran;
};

/// Runs the benchmark of `v` (every pass of its sampling method, if any) on a fresh device and
/// reports it. Throws what workloads::run_benchmark throws (InputError, VerificationError,
/// FaultError).
RunResult run(ValidatedRun& v, const LaunchCallback& on_launch = {});

/// The report of a benchmark run: identity, phases, parameters, launches, and the device's
/// timing state when it has one. `sampling` is what the report names as the method(s).
report::RunReport run_report(const workloads::RunOutcome& out, const std::string& mode, const std::string& arch,
                             const std::string& sampling);

}  // namespace strobe::experiment
