// The host program's side of `strobe run -- PROGRAM` (experiment/program.h starts it): inside the
// program, a front end (the OpenCL platform, the HIP KFD thunk) reads the settings run_program
// passed in STROBE_* variables and writes the report STROBE_JSON names at exit. Both front ends
// use this one reader, checked by validate() with the environment's spelling, and this one report
// builder, so what a program may ask for and what its report says cannot drift between them.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "emu/memory.h"
#include "experiment/run_spec.h"
#include "report/run_report.h"
#include "runtime/device.h"
#include "sampling/method.h"
#include "sampling/profile/profile_file.h"
#include "timing/config/gpu_config.h"

namespace strobe::experiment {

/// What the environment asks of the simulated GPU inside a host program, validated.
struct ProgramSettings {
  std::string mode = "functional";  ///< STROBE_MODE: functional or timing
  std::string arch = "r9nano";      ///< STROBE_ARCH: preset name or TOML path
  std::vector<std::string> sets;    ///< STROBE_SET: KEY=VALUE overrides, newline- or ';'-separated
  std::string sampling = "none";    ///< STROBE_SAMPLING: a sampling method, or none
  /// STROBE_SAMPLING_WARMING: what the method's functionally executed work warms (none, caches)
  sampling::Warming warming = sampling::Warming::None;
  /// STROBE_SAMPLING_SKIP_FUNCTIONAL=1: the method's predicted work is not emulated, so the
  /// program reads back stale buffers for it (for programs that never look, like clpeak).
  bool skip_functional = false;
  /// STROBE_PASS: the pass of the method this run is (a method with several passes runs the
  /// program once per pass); 0 without one.
  int pass = 0;
  /// STROBE_PASS_STATE: the file a pass before the method's last writes its state to at exit,
  /// and a later pass restores it from before its first launch.
  std::string pass_state;
  std::string profile;              ///< STROBE_PROFILE: a functional profile for a method that reads one
  /// `profile` loaded and checked against the program's command line (null without one).
  std::shared_ptr<const sampling::profile::ProfileFile> loaded_profile;
  std::string json;                 ///< STROBE_JSON: where to write the report at exit (empty: none)
  /// STROBE_CAPTURE: where to write a capture of the run's launches at exit (empty: none).
  std::string capture;
  emu::MemoryCheck memory_check = emu::MemoryCheck::Page;  ///< STROBE_MEMORY_CHECK: page or strict
  uint32_t threads = 1;  ///< STROBE_THREADS: host threads for functional work-groups (unset or 0: every core)
  timing::GpuConfig config;         ///< STROBE_ARCH with every STROBE_SET applied and checked
  /// Whether the timing model runs.
  bool timing() const { return models_timing(mode); }
};

/// Reads the settings from the environment and checks them with the rules every front end
/// shares (validate(RunSpec, Spelling::Environment)); throws InputError for a bad value or
/// combination and NotImplementedError for a method whose passes cannot run as separate runs.
ProgramSettings program_settings_from_env();

/// The host program's command line (from /proc/self/cmdline; empty when unreadable).
std::vector<std::string> program_command_line();

/// The identity the program run as `argv` has in a profile or pass state: argv[0] resolved to
/// an absolute path (through PATH when it names no directory), and the arguments, so that the
/// front end that starts a program and the program itself agree on it.
sampling::profile::WorkloadIdentity program_identity(const std::vector<std::string>& argv);

/// The sampling method of this run of a host program (null without one), on its pass: built
/// from `s`, restored from s.pass_state when the pass follows others, and its runner for the
/// pass plugged into `dev`. Throws InputError naming a pass state that does not fit.
std::unique_ptr<sampling::SamplingMethod> start_program_method(const ProgramSettings& s, runtime::Device& dev);

/// Ends the run's pass of `method` (null: nothing to do): end_pass(), where a method completes
/// its estimates, then before the method's last pass its state goes to s.pass_state for the
/// next run. Called once, at exit, before the report; a failure is printed on stderr, never
/// thrown (the next pass then finds no state and says so).
void end_program_pass(const ProgramSettings& s, sampling::SamplingMethod* method);

/// The exit report of a host program: named after the file name of argv[0] (`fallback_name`
/// when argv is empty), with argv as its one parameter, the settings' mode, arch and method,
/// `launches` and, in timing mode, the model's configuration and summary from `dev`.
report::RunReport program_report(const ProgramSettings& s, const std::vector<std::string>& argv,
                                 const std::string& fallback_name, double wall_seconds,
                                 const std::vector<report::LaunchRecord>& launches, runtime::Device& dev);

/// The file beside a program's report that lists, one JSON line each, the launches finished
/// so far: what is left of a run whose program ended without its exit handlers (a crash, a kill,
/// `_exit`), which never writes its report. A report written at exit removes it.
std::string launch_log_path(const std::string& report);
/// Starts `s.json`'s launch log (nothing when s.json is empty); once, when the platform starts.
void start_launch_log(const ProgramSettings& s);
/// Appends launch `r` to `s.json`'s launch log (nothing when s.json is empty). A failure is
/// printed on stderr, never thrown: the launch itself succeeded.
void log_launch(const ProgramSettings& s, const report::LaunchRecord& r);
/// The error for a program that left no report at `report`: it made no use of the platform, or,
/// when its launch log is there, it ended before its exit handlers ran after N launches.
std::string missing_report_error(const std::string& program, const std::string& report);

/// Writes program_report() for this process's command line to s.json atomically, its wall time
/// running from `started`, with the commands' simulated timeline when the runtime keeps one
/// (no-op when s.json is empty). A failure is printed on stderr, never thrown: it runs at exit
/// and on fatal errors, where nothing could handle it.
void write_program_report(const ProgramSettings& s, const std::string& fallback_name,
                          std::chrono::steady_clock::time_point started,
                          const std::vector<report::LaunchRecord>& launches, runtime::Device& dev,
                          const timing::CommandTimeline* timeline = nullptr);

/// This host program's launches recorded into a capture (STROBE_CAPTURE), from the device's
/// start to the program's exit (docs/capture.md).
class ProgramCapture {
 public:
  /// Starts recording `dev`'s launches when `s.capture` names a file (null otherwise); the
  /// device must be fresh. Throws InputError when the file cannot be written.
  static std::unique_ptr<ProgramCapture> start(const ProgramSettings& s, runtime::Device& dev);
  ~ProgramCapture();
  /// Writes the capture, named after the program's command line; once, at exit. A failure is
  /// printed on stderr, never thrown (nothing could handle it there).
  void finish() noexcept;

 private:
  ProgramCapture() = default;
  struct Parts;
  std::unique_ptr<Parts> p_;
};

}  // namespace strobe::experiment
