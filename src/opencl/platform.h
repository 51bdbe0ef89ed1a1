// The platform's process-wide state: the configuration the environment asked for (STROBE_MODE,
// STROBE_ARCH, STROBE_SET, STROBE_SAMPLING, STROBE_JSON), the one simulated device, the profiling
// clock, the command scheduler and the log of launches the exit report is made of.
#pragma once

#include <chrono>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "experiment/program_env.h"
#include "opencl/objects.h"
#include "opencl/scheduler.h"
#include "runtime/device.h"
#include "report/run_report.h"
#include "sampling/method.h"
#include "timing/config/gpu_config.h"
#include "timing/host/command_timeline.h"

namespace strobe::opencl {

/// What the environment asks of the platform (the STROBE_* variables, read and validated by
/// experiment::program_settings_from_env, as the HIP thunk reads them).
using Settings = experiment::ProgramSettings;

class Platform {
 public:
  /// The platform, created on first use; nullptr if the environment's configuration is invalid
  /// (the reason is printed on stderr once).
  static Platform* instance();

  const Settings& settings() const { return settings_; }
  const timing::GpuConfig& config() const { return settings_.config; }
  bool timing_mode() const { return settings_.timing(); }
  cl_platform_id platform_id() { return &platform_; }
  cl_device_id device_id() { return &device_id_; }

  /// Guards the simulated device: memory, code objects, launches, the launch log.
  std::mutex& device_mutex() { return device_mu_; }
  /// The simulated GPU; the caller holds device_mutex().
  runtime::Device& device() { return *device_; }

  /// The profiling clock in nanoseconds: the host's simulated clock in timing mode (it moves
  /// when the host waits for a command), host time since the platform started in functional mode.
  uint64_t now_ns() const;
  /// Records a finished launch and charges its simulated duration to the running command; the
  /// caller holds device_mutex().
  void record_launch(report::LaunchRecord rec);

  /// Timing mode: charges the running command with a copy of `bytes` across the host link
  /// (`to_device` or back); no-op in functional mode. The caller holds device_mutex().
  void charge_transfer(bool to_device, uint64_t bytes);
  /// Timing mode: charges the running command with a device-local copy or fill; no-op otherwise.
  void charge_local(uint64_t read, uint64_t written);
  /// Timing mode: places the command that just ran (queued at `queued`, its dependencies ending
  /// at `ready`) with the work charged to it, and clears the charge. The caller holds
  /// device_mutex().
  timing::CommandTimes place_command(uint64_t queued, uint64_t ready);
  /// Timing mode: the host waited for a command that ended at `end_ns`; no-op otherwise.
  void host_waited(uint64_t end_ns);

  Scheduler& scheduler() { return scheduler_; }

  /// Ends the sampling method's pass (estimates completed, state saved for the program's next
  /// run), writes the capture (STROBE_CAPTURE), then the JSON report to settings().json (no-op
  /// when unset). Called at exit.
  void write_report();

 private:
  explicit Platform(Settings s);

  Settings settings_;
  _cl_platform_id platform_;
  _cl_device_id device_id_;
  std::mutex device_mu_;
  std::unique_ptr<sampling::SamplingMethod> method_;  // declared first: the device points at its runner
  std::unique_ptr<runtime::Device> device_;
  std::unique_ptr<experiment::ProgramCapture> capture_;  // STROBE_CAPTURE: records the device's launches
  std::chrono::steady_clock::time_point t0_;
  mutable std::mutex timeline_mu_;             // the host clock is read by any enqueueing thread
  std::unique_ptr<timing::CommandTimeline> timeline_;  // timing mode only
  timing::CommandWork charged_;                // the running command's device work (device_mu_)
  std::vector<report::LaunchRecord> launches_;
  Scheduler scheduler_;
};

/// The platform, or a thrown CL_INVALID_PLATFORM when it could not start.
Platform& platform();

}  // namespace strobe::opencl
