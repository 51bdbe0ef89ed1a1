// The report of one run (DESIGN.md §5): what `strobe launch`, `strobe run`, the reference of
// `strobe compare` and a host program's exit report all say about a run. This is data only;
// report/json.h and report/text.h write it.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "runtime/device.h"
#include "timing/host/command_timeline.h"

namespace strobe::report {

/// One kernel launch in a report.
struct LaunchRecord {
  runtime::LaunchResult result;
  runtime::Dim3 grid{1, 1, 1};
  runtime::Dim3 local{1, 1, 1};
  /// A launch replayed from a capture: its index among the captured launches (-1 otherwise).
  int64_t capture_launch = -1;
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
  /// A replayed capture: its file, the launches replayed, the warm state and the replay's costs.
  nlohmann::json capture;
  /// A host program in timing mode: its commands' simulated timeline, the host link's copies
  /// beside the kernels' time (attach_host_timeline).
  nlohmann::json host;
  std::string memory_digest;        ///< `run --digest`: device memory's digest after the run (omitted when empty)
  /// Host threads a functional launch's work-groups could run on (wall times depend on it,
  /// results do not); omitted when 0.
  uint32_t host_threads = 0;
  std::string isa = "gfx803";  ///< the instruction set the device executed (gpu.isa)
};

/// Fills `config` and `timing_summary` from the device's timing model (no-op in functional mode).
void attach_timing(RunReport& r, runtime::Device& dev);

/// Fills `host` from a host program's command timeline: the program's simulated span, and per
/// engine (kernels and blits, copies to and from the device) its commands, bytes and busy time.
void attach_host_timeline(RunReport& r, const timing::CommandTimeline& t);

/// Fills `host_threads` and `isa` from the device.
void attach_device(RunReport& r, const runtime::Device& dev);

/// Fills `memory_digest` with the digest of the device's memory (16 hex digits).
void attach_memory_digest(RunReport& r, runtime::Device& dev);

}  // namespace strobe::report
