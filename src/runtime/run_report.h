// The run report (DESIGN.md §5 JSON) every simulating front end emits: `strobe launch`,
// `strobe run` and the OpenCL platform's exit report share this shape.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "runtime/device.h"

namespace strobe::runtime {

/// One kernel launch in a report.
struct LaunchRecord {
  LaunchResult result;
  Dim3 grid{1, 1, 1};
  Dim3 local{1, 1, 1};
};

/// Everything a run reports.
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
  nlohmann::json sampling_summary;  ///< with a sampling method: instructions per level, method facts
  std::string memory_digest;        ///< `run --digest`: device memory's digest after the run (omitted when empty)
};

/// Fills `config` and `timing_summary` from the device's timing model (no-op in functional mode).
void attach_timing(RunReport& r, Device& dev);

/// The report as DESIGN.md §5 JSON.
nlohmann::json to_json(const RunReport& r);

}  // namespace strobe::runtime
