// What a simulation is asked to do, and the one place its rules are checked: every front end
// (`strobe run`, `strobe compare`, a host program's environment) fills a spec and validates
// it here, so "sampling needs timing" or "skip-functional forbids verify" cannot drift apart.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "emu/memory.h"
#include "sampling/method.h"
#include "sampling/profile/profile_file.h"
#include "timing/config/gpu_config.h"

namespace strobe::experiment {

/// How a front end names its settings, so that an error uses the words the user wrote:
/// `--sampling photon` on the command line, `STROBE_SAMPLING=photon` in the environment.
enum class Spelling { CommandLine, Environment };

/// What runs: a registered benchmark, an OpenCL or HIP host program (a separate process; a
/// method needing several passes runs it once per pass, carrying its state in a file), or the
/// launches of a capture (`strobe capture`), replayed from their checkpoints.
enum class Workload { Benchmark, Program, Capture };

/// Whether `mode` gives launches simulated time (timing, or analytical's predicted time), so the
/// device runs its timing model and GPU overrides apply.
bool models_timing(const std::string& mode);

/// The host threads `requested` stands for: itself, or for 0 every processor this process may
/// run on (its affinity mask: taskset, a cgroup cpuset, a Slurm allocation).
uint32_t host_threads(uint32_t requested);

/// One run as asked for, before validation.
/// A capture's warm state when none is asked (`--warm-state`): the fitted window, which gave the
/// cycles of the capture's whole bound on every launch of the suite but one, and on every graphics
/// frame measured (docs/capture-results.md, docs/frame-capture-results.md), at a fraction of its
/// walk on long workloads.
inline constexpr const char* kDefaultWarmState = "fitted";

struct RunSpec {
  Workload workload = Workload::Benchmark;
  std::string benchmark;                ///< Benchmark: its registered name
  std::vector<std::string> params;      ///< Benchmark: "K=V" parameters
  std::vector<std::string> program;     ///< Program: PROGRAM and its arguments
  std::string capture;                  ///< Capture: the capture file
  std::string launches;                 ///< Capture: the launches to replay ("3,17,40-45"; empty: all)
  /// Capture: how a replayed launch's caches start: `history` (rebuilt from the capture's
  /// configuration-free history of the launches since the last one replayed, to the capture's
  /// bound), `fitted` (the default: the same, the walk back stopped at four times the distinct
  /// lines the configuration's data caches hold) or `none` (as the last replayed launch left them).
  std::string warm_state = kDefaultWarmState;
  /// Capture: each replayed launch on a fresh GPU, its caches, DRAM and clock those of a new
  /// machine and its warm state only what `warm_state` rebuilds (as a sampled run's far-apart
  /// launches would start); otherwise the GPU carries its state from one replayed launch to the next.
  bool alone = false;
  /// Capture, timing: before each replayed launch, up to this many of the launches right before
  /// it that this GPU has not run are simulated in detail first, unreported (detailed warming):
  /// the launch then starts with its predecessors' write-backs still draining and DRAM's banks
  /// where they left them, state no history rebuilds. Their caches start from the history before them.
  uint32_t warm_launches = 0;
  std::string mode = "functional";      ///< functional, timing, or analytical (GPUMech on every launch)
  bool mode_given = false;              ///< mode was asked for explicitly (a sampling method then may not imply timing)
  std::string arch = "r9nano";          ///< GPU preset or FILE.toml
  std::vector<std::string> sets;        ///< KEY=VALUE GPU configuration overrides
  std::string sampling = "none";        ///< sampling method, or none
  std::vector<std::string> sampling_sets;  ///< KEY=VALUE sampling-method parameters
  bool skip_functional = false;         ///< predicted work is not emulated (results unverifiable)
  std::string warming = "none";         ///< what functionally executed work warms: none or caches
  std::string profile;                  ///< --profile FILE: a functional profile for methods that read one
  /// Program: the pass of the method this run is (-1: every pass, run by the front end in turn).
  int pass = -1;
  std::string pass_state;               ///< Program: the file carrying a method's state between passes
  /// Program: record the run into this capture file (STROBE_CAPTURE; `strobe capture -- PROGRAM`).
  std::string capture_output;
  bool verify = false;                  ///< check results against the CPU reference
  std::string memory_check = "page";    ///< page or strict
  /// Host threads a functional launch's work-groups may run on; 0 (the default): every core.
  /// validate() resolves 0 to the core count.
  uint32_t threads = 0;
  /// The most threads a front end accepts (a typo like 10000 is an error, not 10,000 scratch slots).
  static constexpr uint32_t kMaxThreads = 1024;
  bool corrupt_for_test = false;        ///< test hook: corrupt the first verified output
  std::string command = "run";          ///< the strobe subcommand, named in hints
};

/// A spec whose rules hold, with what validation resolved along the way.
struct ValidatedRun {
  RunSpec spec;                       ///< mode resolved (a sampling method implies timing; analytical names its method)
  timing::GpuConfig gpu;              ///< arch with every --set applied and checked
  emu::MemoryCheck memory_check = emu::MemoryCheck::Page;
  /// The sampling method, built while validating its parameters (null without sampling).
  std::unique_ptr<sampling::SamplingMethod> method;
  sampling::Warming warming = sampling::Warming::None;  ///< spec.warming parsed
  /// spec.profile loaded and checked against the workload (null without one).
  std::shared_ptr<const sampling::profile::ProfileFile> profile;
  /// Whether the timing model runs.
  bool timing() const { return models_timing(spec.mode); }
};

/// Checks `spec` against every rule and resolves it; throws InputError naming the offending
/// setting as `spelling` writes it (NotImplementedError for a multi-pass method on a program when
/// the method cannot carry its passes across processes).
ValidatedRun validate(RunSpec spec, Spelling spelling = Spelling::CommandLine);

/// One comparison as asked for: the reference in full detail against each method.
struct CompareSpec {
  /// Workload, arch, sets, sampling_sets, verify, skip_functional; `sampling` is the
  /// comma-separated list of methods as given.
  RunSpec run;
  int repeat = 1;  ///< runs of the reference and of each method (1 to kMaxRepeat)
  /// The most repeats a comparison takes: enough for any spread, and a typo's extra digits are
  /// refused instead of running for days.
  static constexpr int kMaxRepeat = 1000;
};

/// A comparison whose rules hold.
struct ValidatedCompare {
  CompareSpec spec;
  std::vector<std::string> methods;  ///< spec.run.sampling split, in the order given
  timing::GpuConfig gpu;
  sampling::Warming warming = sampling::Warming::None;  ///< spec.run.warming parsed
  /// spec.run.profile loaded and checked against the workload (null without one); every
  /// repeat's methods share it.
  std::shared_ptr<const sampling::profile::ProfileFile> profile;

  /// A fresh instance of method `name` as the comparison configures it (methods keep state
  /// across launches, so each repeat gets its own).
  std::unique_ptr<sampling::SamplingMethod> make(const std::string& name) const;
};

/// Checks a comparison: repeat at least 1, the method list, the configuration, every method and
/// its parameters, the warming, verify against skip-functional, and for a program methods whose passes can
/// run as separate processes. Throws InputError (NotImplementedError for a method that cannot).
ValidatedCompare validate(CompareSpec spec);

/// Splits a comma-separated --sampling list for compare; throws InputError for an empty name,
/// `none`, a name given twice or an empty list.
std::vector<std::string> parse_methods(const std::string& list);

/// Throws InputError unless `mode` is functional or timing (the rule `strobe launch` shares).
void check_mode(const std::string& mode, Spelling spelling = Spelling::CommandLine);

/// Throws InputError unless `mode` is functional, timing or analytical (the modes of a run).
void check_run_mode(const std::string& mode, Spelling spelling = Spelling::CommandLine);

/// Throws InputError when GPU overrides are given for a mode without the timing model, which
/// they configure (the rule `strobe launch` shares).
void require_timing_for_sets(const std::vector<std::string>& sets, const std::string& mode,
                             Spelling spelling = Spelling::CommandLine);

/// Loads the preset or FILE.toml named by `arch` and applies each `KEY=VALUE` override, then

/// validates the result. Throws InputError naming the bad preset, key or value.
timing::GpuConfig resolve_gpu_config(const std::string& arch, const std::vector<std::string>& sets);

/// The registered methods' names, comma-separated (for help texts).
std::string method_names();

/// The registered frame-sampling methods' names, comma-separated (for help text).
std::string frame_method_names();

}  // namespace strobe::experiment
