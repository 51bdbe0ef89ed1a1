// The run report every command emits: DESIGN.md §5 JSON, or a short human summary.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "runtime/device.h"

namespace strobe::cli {

/// One kernel launch in a report.
struct LaunchRecord {
  runtime::LaunchResult result;
  runtime::Dim3 grid{1, 1, 1};
  runtime::Dim3 local{1, 1, 1};
};

/// Everything a `launch` or `run` reports.
struct RunReport {
  std::string benchmark;
  std::string mode = "functional";
  std::string arch = "r9nano";
  std::string sampling = "none";
  bool verified = false;
  double wall_seconds = 0;
  nlohmann::json params;  ///< effective benchmark parameters (omitted when null)
  nlohmann::json phase_seconds;  ///< `run`: wall time of setup, run and verify (omitted when null)
  std::vector<LaunchRecord> launches;
  bool raw_counters = false;      ///< timing mode: keep every per-instance counter of each launch
  nlohmann::json config;          ///< timing mode: the fully expanded effective GPU configuration
  nlohmann::json timing_summary;  ///< timing mode: CPI stack, units, caches, DRAM over the whole run
};

/// Fills `config` and `timing_summary` from the device's timing model (no-op in functional mode).
void attach_timing(RunReport& r, runtime::Device& dev);

/// The report as DESIGN.md §5 JSON.
nlohmann::json to_json(const RunReport& r);

/// Writes the report: JSON to `json_target` ("-" = stdout, a path = atomic file write), and a
/// human summary on stdout unless the JSON went there.
void emit_report(const RunReport& r, const std::string& json_target);

}  // namespace strobe::cli
