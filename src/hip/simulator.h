// The simulated GPU behind strobe's KFD thunk: one runtime::Device in host-identity addressing
// (so the program, ROCr, HIP and the simulator share addresses), the configuration the
// environment asked for (the STROBE_* variables `strobe run` sets), the launch log the exit
// report is made of, and the GPU timeline signal timestamps come from.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "experiment/program_env.h"
#include "runtime/device.h"
#include "report/run_report.h"
#include "sampling/method.h"
#include "timing/config/gpu_config.h"

namespace strobe::hip {

/// What the environment asks of the simulator (the STROBE_* variables `strobe run -- PROGRAM`
/// sets, read and validated by experiment::program_settings_from_env, as the OpenCL platform
/// reads them).
using Settings = experiment::ProgramSettings;

/// Prints "strobe: error: MESSAGE" on stderr, flushes the program's output, writes the report
/// and ends the process with `code`: a GPU fault or an unsupported request must not hang the
/// runtime above, which would wait forever for a queue that stopped.
[[noreturn]] void fatal(const std::string& message, int code = 1);

/// The process's simulated GPU (created by hsaKmtOpenKFD).
class Simulator {
 public:
  /// The simulator, created on first use; a bad configuration is fatal (message, exit 2).
  static Simulator& instance();

  const Settings& settings() const { return settings_; }
  const timing::GpuConfig& config() const { return settings_.config; }
  bool timing_mode() const { return settings_.timing(); }

  /// Guards the device: its memory map, the kernel cache and every dispatch.
  std::mutex& mutex() { return mu_; }
  /// The simulated GPU; the caller holds mutex().
  runtime::Device& device() { return *device_; }

  /// The GPU clock in nanoseconds (the thunk's clock counters and signal timestamps): host
  /// time in functional mode; in timing mode the simulated timeline, which only dispatches
  /// advance, so hipEventElapsedTime reports simulated GPU time.
  uint64_t gpu_now_ns();
  /// Host monotonic time in nanoseconds (the system clock counter).
  static uint64_t host_now_ns();
  /// Records a finished dispatch and advances the simulated timeline by its duration; returns
  /// its [start, end] on the GPU clock. The caller holds mutex().
  std::pair<uint64_t, uint64_t> record_launch(report::LaunchRecord rec, uint64_t host_start_ns);

  /// Writes the JSON report to settings().json (no-op when unset); at most once.
  void write_report();
  /// At a normal exit: ends the sampling method's pass (estimates completed, state saved for
  /// the program's next run), then writes the report.
  void finish();

 private:
  explicit Simulator(Settings s);

  Settings settings_;
  std::mutex mu_;
  std::unique_ptr<sampling::SamplingMethod> method_;  // declared first: the device points at its runner
  std::unique_ptr<runtime::Device> device_;
  std::unique_ptr<experiment::ProgramCapture> capture_;  // after the device: it records the device's launches
  std::chrono::steady_clock::time_point t0_;
  std::atomic<uint64_t> timeline_base_ns_{0};  // timing mode: GPU clock at simulated time 0
  std::atomic<uint64_t> sim_ns_{0};       // timing mode: simulated time so far
  std::vector<report::LaunchRecord> launches_;
  std::atomic<bool> reported_{false};
};

}  // namespace strobe::hip
