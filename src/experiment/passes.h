// The pass driver: runs a benchmark under a sampling method (every pass the method needs, a
// profiling pass first where it has one) and summarises how its launches were handled; shared
// by experiment::run and experiment::compare.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sampling/method.h"
#include "workloads/runner.h"

namespace strobe::experiment {

/// What a benchmark run under one method produced.
struct SampledRun {
  workloads::RunOutcome outcome;  ///< the last pass (the one whose estimates count)
  double run_seconds = 0;         ///< measured work of every pass
  double wall_seconds = 0;        ///< every pass, setup and verification included
  nlohmann::json summary;         ///< sampling_summary(): instructions per level, method facts
};

/// Runs `bench` once per pass of `method` on a fresh device with timing `cfg`; verifies the
/// last pass when asked. The method's functional work runs on `threads` host threads (its
/// results do not depend on it; `strobe compare` keeps 1, as its detailed reference runs).
SampledRun run_sampled(const std::string& bench, const std::vector<std::string>& params, const timing::GpuConfig& cfg,
                       const std::string& method_name, sampling::SamplingMethod& method, bool verify,
                       const std::function<void(const workloads::LaunchStat&, size_t)>& on_launch,
                       emu::MemoryCheck memory_check = emu::MemoryCheck::Page, uint32_t threads = 1);

/// Totals over launches run by a method: wave instructions timed in detail, predicted and
/// emulated only for analysis (plus `earlier_analysis` from earlier passes), their shares of the
/// timed instructions, and how many launches each level handled.
nlohmann::json sampling_summary(const std::vector<workloads::LaunchStat>& launches, uint64_t earlier_analysis = 0);

}  // namespace strobe::experiment
