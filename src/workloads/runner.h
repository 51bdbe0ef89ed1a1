// Runs one benchmark end to end: resolve parameters, setup, run, optional verification.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "workloads/context.h"
#include "workloads/params.h"

namespace strobe::workloads {

/// What to run.
struct RunRequest {
  std::string benchmark;
  std::vector<std::string> params;  ///< "K=V" assignments
  bool verify = false;
  std::unique_ptr<LaunchBackend> backend;  ///< null: DeviceBackend (the device decides)
  std::function<void(const LaunchStat&, size_t expected)> on_launch;
  /// Called on the fresh device before setup, e.g. to switch it to detailed timing.
  std::function<void(runtime::Device&)> prepare_device;
  bool corrupt_for_test = false;  ///< see Context::corrupt_first_verify_download
  /// How kernel accesses past an allocation's end are treated (default: as the hardware).
  emu::MemoryCheck memory_check = emu::MemoryCheck::Page;
  uint32_t threads = 1;  ///< host threads a functional launch's work-groups may run on
};

/// What a run did.
struct RunOutcome {
  std::string benchmark;
  Params params;
  bool verified = false;
  double wall_seconds = 0;  ///< setup + run + verification
  double setup_seconds = 0;   ///< input generation, weights, uploads, kernel loading
  double run_seconds = 0;     ///< the measured work: every launch and the host work between them
  double verify_seconds = 0;  ///< downloads and the CPU reference (0 without verification)
  std::vector<LaunchStat> launches;
  /// The run's context, kept alive so reports can read device state (e.g. the timing model).
  std::unique_ptr<Context> context;
};

/// Runs the request. Throws InputError for an unknown benchmark or bad parameters,
/// VerificationError when the results are wrong, FaultError when a kernel faults.
RunOutcome run_benchmark(RunRequest req);

}  // namespace strobe::workloads
