// `strobe run BENCH`: run a registered benchmark, optionally verify it, and report (DESIGN.md §5).
// `strobe run [options] -- PROGRAM [ARGS...]`: run an OpenCL host program on the simulator.
// Options become an experiment::RunSpec; the experiment layer validates and runs it.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include "cli/commands.h"
#include "cli/gfx_run.h"
#include "experiment/frames.h"
#include "cli/report.h"
#include "experiment/program_env.h"
#include "cli/spec_options.h"
#include "experiment/program.h"
#include "experiment/run.h"

namespace strobe::cli {

namespace {

namespace fs = std::filesystem;

/// `strobe run`'s options: the spec, and what only concerns output.
struct RunOptions {
  experiment::RunSpec spec;
  GraphicsRunOptions gfx;  ///< gfx: workloads' own options
  std::string json;
  bool progress = false, counters = false, digest = false;
};

/// A one-line progress display on stderr, redrawn at most ten times a second.
class Progress {
 public:
  Progress(std::string bench) : bench_(std::move(bench)), t0_(std::chrono::steady_clock::now()) {}
  ~Progress() {
    if (drawn_) std::fputc('\n', stderr);
  }
  void update(const workloads::LaunchStat& s, size_t expected) {
    auto now = std::chrono::steady_clock::now();
    if (drawn_ && now - last_ < std::chrono::milliseconds(100) && s.index + 1 != expected) return;
    last_ = now;
    double elapsed = std::chrono::duration<double>(now - t0_).count();
    std::string of = expected ? fmt::format(" of {}", expected) : "";
    fmt::print(stderr, "\r{}: kernel {}{} ({}), {:.1f} s elapsed\033[K", bench_, s.index + 1, of, s.result.kernel, elapsed);
    std::fflush(stderr);
    drawn_ = true;
  }

 private:
  std::string bench_;
  std::chrono::steady_clock::time_point t0_, last_;
  bool drawn_ = false;
};

int run_benchmark(RunOptions o) {
  experiment::ValidatedRun v = experiment::validate(std::move(o.spec));
  std::unique_ptr<Progress> progress;
  experiment::LaunchCallback on_launch;
  if (o.progress || ::isatty(STDERR_FILENO)) {
    progress = std::make_unique<Progress>(v.spec.benchmark);
    on_launch = [p = progress.get()](const workloads::LaunchStat& s, size_t expected) { p->update(s, expected); };
  }
  experiment::RunResult r = experiment::run(v, on_launch);
  progress.reset();
  r.report.raw_counters = o.counters;
  if (o.digest) report::attach_memory_digest(r.report, r.outcome.context->device());
  emit_report(r.report, o.json);
  if (r.outcome.verified && o.json != "-") fmt::print("verification passed\n");
  return 0;
}

/// Runs the program with the strobe OpenCL platform as the only one it can see, once per pass of
/// its sampling method (a profiling pass first where it has one), and prints a summary of the
/// last pass's report on stderr. Returns the program's exit status (the first failing pass's).
int run_program(RunOptions o) {
  const experiment::ValidatedRun v = experiment::validate(std::move(o.spec));
  experiment::ScratchDir scratch;
  const bool keep = !o.json.empty() && o.json != "-";
  const std::string json = keep ? fs::absolute(o.json).string() : scratch.path() + "/report.json";
  std::error_code ec;
  if (keep) fs::remove(json, ec);  // a report left from an earlier run must not pass for this one

  const int passes = v.method ? v.method->passes() : 1;
  const experiment::ProgramPasses r = experiment::run_program_passes(v.spec, passes, json, scratch.path() + "/run");
  const int exit_status = r.exit_status;
  if (r.failed_pass >= 0 && r.failed_pass + 1 < passes) {
    fmt::print(stderr, "strobe: {} exited with status {} in pass {} of {}'s {}; the sampled pass did not run\n",
               v.spec.program[0], exit_status, r.failed_pass, v.spec.sampling, passes);
    return exit_status;
  }
  if (o.json == "-") {
    std::ifstream in(json);
    if (in) std::cout << in.rdbuf();
  }
  const bool reported = summarize_program_report(v.spec.program[0], v.spec.mode, json, keep ? json : "");
  // A program that launched work and ended without its report failed, whatever its status.
  if (!reported && exit_status == 0 && fs::exists(experiment::launch_log_path(json))) return 1;
  return exit_status;
}

}  // namespace

void add_run_command(CLI::App& app, Action& action, std::vector<std::string> program) {
  auto o = std::make_shared<RunOptions>();
  experiment::RunSpec& s = o->spec;
  auto* cmd = app.add_subcommand("run", "Run a built-in benchmark (see `strobe list`), or -- PROGRAM [ARGS...]: "
                                        "an OpenCL or HIP host program on the simulated GPU");
  cmd->add_option("benchmark", s.benchmark, "Benchmark name, or a capture FILE.cap (omit with -- PROGRAM)");
  add_param_option(*cmd, s);
  cmd->add_option("--mode", s.mode, "functional, timing, or analytical (GPUMech predicts every launch; default functional)");
  add_arch_option(*cmd, s);
  add_set_option(*cmd, s, "Override a GPU configuration parameter KEY=VALUE (timing mode; repeatable)");
  cmd->add_option("--sampling", s.sampling,
                  "Sampling method: none (default), " + experiment::method_names() + "; for gfx: workloads, megsim");
  add_method_options(*cmd, s);
  add_verify_flag(*cmd, s, "Check the results against the CPU reference (exit 1 on mismatch)");
  add_json_option(*cmd, o->json);
  add_wave_budget_option(*cmd);
  cmd->add_option("--memory-check", s.memory_check,
                  "Accesses past the end of an allocation: page (default; as the hardware, allowed inside a mapped page with a "
                  "warning) or strict (every such access is a fault)");
  add_threads_option(*cmd, s.threads);
  auto* launches = cmd->add_option("--launches", s.launches,
                                   "FILE.cap: the launches to replay, like 3,17,40-45 (default: all, in order)");
  auto* warm_state = cmd->add_option("--warm-state", s.warm_state,
                                     "FILE.cap: how a replayed launch's (or frame's) caches start: fitted (default; "
                                     "rebuilt from the capture's history of the launches or frames before it, walking "
                                     "back 4x the lines the configuration's data caches hold), history (the same, to "
                                     "the capture's whole bound) or none");
  auto* alone = cmd->add_flag("--alone", s.alone,
                              "FILE.cap, timing: each replayed launch (or frame) on a fresh GPU, warmed only by "
                              "--warm-state");
  auto* warm_launches = cmd->add_option("--warm-launches", s.warm_launches,
                                        "FILE.cap, timing: simulate up to N launches right before each replayed one "
                                        "in detail too, unreported, so it starts with their requests in flight "
                                        "(default 0)");
  cmd->add_flag("--digest", o->digest,
                "Include a digest of device memory after the run (memory_digest) in the JSON: equal digests mean "
                "the same results in the same buffers");
  cmd->add_flag("--counters", o->counters, "Timing mode: include every raw counter of each launch in the JSON");
  cmd->add_flag("--progress", o->progress, "Show progress on stderr even when it is not a terminal");
  auto* frames = cmd->add_option("--frames", o->gfx.spec.frames.frames, "gfx: workloads: the frames to render: A-B, A, or a list of them like 0-9,20 (default: all)");
  auto* images = cmd->add_option("--images", o->gfx.spec.images, "gfx: workloads: write each frame's window as DIR/frame-NNNNNN.ppm");
  auto* reference = cmd->add_option("--reference", o->gfx.spec.reference,
                                    "gfx: workloads: compare each frame's window with the images of this PNM stream "
                                    "(glretrace -s - --snapshot-format=PNM), in order");
  auto* skipped = cmd->add_option("--warm-frames", o->gfx.spec.frames.warm_frames,
                                   "gfx: workloads: render N frames before each range of --frames too, unreported, or "
                                   "all frames from 0 (all), so what earlier frames rendered into textures is there");
  auto* threshold = cmd->add_option("--reference-threshold", o->gfx.spec.threshold,
                                    "gfx: workloads: a pixel differs when a channel is off by more than this (default 16)");
  // Test hook: corrupts the first output read back for verification so tests can see a failure.
  cmd->add_flag("--test-corrupt-output", s.corrupt_for_test)->group("");
  cmd->callback([o, cmd, &action, frames, images, reference, threshold, skipped, launches, warm_state, alone,
                 warm_launches, program = std::move(program)] {
    experiment::RunSpec& s = o->spec;
    s.mode_given = cmd->get_option("--mode")->count() > 0;
    const bool frames_capture = experiment::is_frames_capture(s.benchmark);
    const bool graphics = s.benchmark.rfind("gfx:", 0) == 0 || frames_capture;
    const bool captured = s.benchmark.size() > 4 && s.benchmark.ends_with(".cap") && !frames_capture;
    if (frames_capture && launches->count())
      throw CLI::ValidationError("run", "--launches applies to a capture of launches; a capture of frames takes --frames");
    if (!frames_capture && !captured && warm_state->count())
      throw CLI::ValidationError("run", "--warm-state applies to a capture (FILE.cap)");
    if (!captured && warm_launches->count())
      throw CLI::ValidationError("run", "--warm-launches applies to a capture of launches (FILE.cap); a capture of "
                                        "frames takes --warm-frames");
    if (!captured && (launches->count() || (alone->count() && !frames_capture)))
      throw CLI::ValidationError("run", "--launches and --alone apply to a capture (FILE.cap)");
    if (captured) {
      if (launches->count() && s.launches.empty())
        throw CLI::ValidationError("run", "--launches: name at least one launch, like 0 or 3,17,40-45");
      if (!program.empty()) throw CLI::ValidationError("run", "give a capture or -- PROGRAM, not both");
      s.workload = experiment::Workload::Capture;
      s.capture = s.benchmark;
    }
    if (!graphics && (frames->count() || images->count() || reference->count() || threshold->count() || skipped->count()))
      throw CLI::ValidationError("run", "--frames, --images, --reference, --reference-threshold and --warm-frames "
                                        "apply to gfx: workloads and their captures");
    if (graphics) {
      if (!program.empty()) throw CLI::ValidationError("run", "give a gfx: workload or -- PROGRAM, not both");
      if (s.verify || s.corrupt_for_test || o->counters || o->digest || !s.params.empty() || s.skip_functional)
        throw CLI::ValidationError("run", "gfx: workloads take --frames, --mode, --arch, --set, --json, --images, "
                                          "--reference, --reference-threshold, --warm-frames, --sampling megsim, "
                                          "--sampling-set, --profile, --threads and --progress only");
      experiment::FrameRunSpec& g = o->gfx.spec;
      g.frames.workload = s.benchmark;
      g.frames.arch = s.arch;
      g.frames.sets = s.sets;
      g.frames.warm_state = s.warm_state;
      g.alone = s.alone;
      g.mode = s.mode;
      g.sampling = s.sampling;
      g.sampling_sets = s.sampling_sets;
      g.profile = s.profile;
      g.frames.threads = experiment::host_threads(s.threads);
      o->gfx.json = o->json;
      o->gfx.progress = o->progress;
      action = [o] { return run_graphics(o->gfx); };
      return;
    }
    if (program.empty()) {
      if (s.benchmark.empty()) throw CLI::ValidationError("run", "give a benchmark name, or -- PROGRAM [ARGS...]");
      action = [o] { return run_benchmark(*o); };
      return;
    }
    if (!s.benchmark.empty()) throw CLI::ValidationError("run", "give a benchmark or -- PROGRAM, not both");
    if (s.verify || s.corrupt_for_test || o->counters || o->digest || o->progress || !s.params.empty() ||
        !s.sampling_sets.empty())
      throw CLI::ValidationError("run", "--param, --verify, --counters, --progress, --sampling-set, "
                                        "--digest apply to benchmarks, not to -- PROGRAM");
    s.workload = experiment::Workload::Program;
    s.program = program;
    action = [o] { return run_program(*o); };
  });
}

}  // namespace strobe::cli
