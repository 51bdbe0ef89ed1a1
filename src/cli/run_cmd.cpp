// `strobe run BENCH`: run a registered benchmark, optionally verify it, and report (DESIGN.md §5).
// `strobe run [options] -- PROGRAM [ARGS...]`: run an OpenCL host program on the simulator.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include "cli/commands.h"
#include "cli/gpu_config_options.h"
#include "cli/report.h"
#include "cli/run_program.h"
#include "cli/sampled_run.h"
#include "common/error.h"
#include "workloads/runner.h"

namespace strobe::cli {

namespace {

struct RunOptions {
  std::string bench;
  std::vector<std::string> params, sets, sampling_sets;
  std::string mode = "functional", arch = "r9nano", sampling = "none", json, memory_check = "page";
  bool verify = false, progress = false, corrupt = false, counters = false, skip_functional = false, digest = false;
  bool mode_given = false;
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

int run_run(RunOptions o) {
  if (o.mode != "functional" && o.mode != "timing")
    throw InputError(fmt::format("--mode '{}': expected functional or timing", o.mode));
  const bool sampled = o.sampling != "none";
  // A sampling method estimates detailed timing, so it implies the timing model.
  if (sampled && o.mode_given && o.mode != "timing")
    throw InputError(fmt::format("--sampling {} estimates detailed timing; it needs --mode timing", o.sampling));
  if (sampled) o.mode = "timing";
  // The configuration is resolved (arch and every --set checked) before anything runs.
  timing::GpuConfig gpu_cfg = resolve_gpu_config(o.arch, o.sets);
  const emu::MemoryCheck memory_check = emu::parse_memory_check(o.memory_check);
  // Fail loudly rather than silently running something other than what was asked for.
  if (!o.sets.empty() && o.mode != "timing")
    throw InputError("--set configures the timing model; it needs --mode timing");
  if (!sampled && (!o.sampling_sets.empty() || o.skip_functional))
    throw InputError("--sampling-set and --sampling-skip-functional need --sampling METHOD");
  std::unique_ptr<sampling::SamplingMethod> method;
  if (sampled) {
    sampling::check_sampling_sets({o.sampling}, o.sampling_sets);
    method = sampling::make_method(o.sampling, gpu_cfg, o.sampling_sets, o.skip_functional);
    if (o.skip_functional && o.verify)
      throw InputError("--verify: with --sampling-skip-functional predicted work is not emulated, so the results "
                       "cannot be verified");
  }

  workloads::RunRequest req;
  req.benchmark = o.bench;
  req.params = o.params;
  req.verify = o.verify;
  req.corrupt_for_test = o.corrupt;
  req.memory_check = memory_check;
  if (o.mode == "timing") req.prepare_device = [&gpu_cfg](runtime::Device& dev) { dev.enable_timing(gpu_cfg); };
  std::unique_ptr<Progress> progress;
  if (o.progress || ::isatty(STDERR_FILENO)) {
    progress = std::make_unique<Progress>(o.bench);
    req.on_launch = [p = progress.get()](const workloads::LaunchStat& s, size_t expected) { p->update(s, expected); };
  }
  workloads::RunOutcome out;
  SampledRun sr;
  if (method) {
    sr = run_sampled(o.bench, o.params, gpu_cfg, o.sampling, *method, o.verify, req.on_launch, memory_check);
    out = std::move(sr.outcome);
    out.run_seconds = sr.run_seconds;
    out.wall_seconds = sr.wall_seconds;
  } else {
    out = workloads::run_benchmark(std::move(req));
  }
  progress.reset();

  RunReport rep;
  rep.benchmark = out.benchmark;
  rep.mode = o.mode;
  rep.arch = o.arch;
  rep.sampling = o.sampling;
  rep.verified = out.verified;
  rep.wall_seconds = out.wall_seconds;
  rep.phase_seconds = {{"setup", out.setup_seconds}, {"run", out.run_seconds}, {"verify", out.verify_seconds}};
  rep.params = out.params.to_json();
  for (const auto& l : out.launches) {
    LaunchRecord rec;
    rec.result = l.result;
    rec.grid = l.grid;
    rec.local = l.local;
    rep.launches.push_back(std::move(rec));
  }
  rep.raw_counters = o.counters;
  if (method) rep.sampling_summary = sr.summary;
  attach_timing(rep, out.context->device());
  if (o.digest) rep.memory_digest = fmt::format("{:016x}", out.context->device().memory().digest());
  emit_report(rep, o.json);
  if (out.verified && o.json != "-") fmt::print("verification passed\n");
  return 0;
}

}  // namespace

void add_run_command(CLI::App& app, Action& action, std::vector<std::string> program) {
  auto o = std::make_shared<RunOptions>();
  auto* cmd = app.add_subcommand("run", "Run a built-in benchmark (see `strobe list`), or -- PROGRAM [ARGS...]: "
                                        "an OpenCL host program on the simulated GPU");
  cmd->add_option("benchmark", o->bench, "Benchmark name (omit with -- PROGRAM)");
  cmd->add_option("--param", o->params, "Benchmark parameter NAME=VALUE (repeatable)");
  cmd->add_option("--mode", o->mode, "functional or timing (default functional)");
  cmd->add_option("--arch", o->arch, "GPU preset r9nano, mi100, or FILE.toml (default r9nano)");
  cmd->add_option("--set", o->sets, "Override a GPU configuration parameter KEY=VALUE (timing mode; repeatable)");
  cmd->add_option("--sampling", o->sampling, "Sampling method: none (default), " + method_names());
  cmd->add_option("--sampling-set", o->sampling_sets, "Override a sampling-method parameter KEY=VALUE (repeatable)");
  cmd->add_flag("--sampling-skip-functional", o->skip_functional,
                "Do not emulate predicted work at all (faster; the results are then unverifiable)");
  cmd->add_flag("--verify", o->verify, "Check the results against the CPU reference (exit 1 on mismatch)");
  cmd->add_option("--json", o->json, "Write the JSON report to FILE, or - for stdout");
  cmd->add_option("--memory-check", o->memory_check,
                  "Accesses past the end of an allocation: page (default; as the hardware, allowed inside a mapped page with a "
                  "warning) or strict (every such access is a fault)");
  cmd->add_flag("--digest", o->digest,
                "Include a digest of device memory after the run (memory_digest) in the JSON: equal digests mean "
                "the same results in the same buffers");
  cmd->add_flag("--counters", o->counters, "Timing mode: include every raw counter of each launch in the JSON");
  cmd->add_flag("--progress", o->progress, "Show progress on stderr even when it is not a terminal");
  // Test hook: corrupts the first output read back for verification so tests can see a failure.
  cmd->add_flag("--test-corrupt-output", o->corrupt)->group("");
  cmd->callback([o, cmd, &action, program = std::move(program)] {
    if (program.empty()) {
      if (o->bench.empty()) throw CLI::ValidationError("run", "give a benchmark name, or -- PROGRAM [ARGS...]");
      o->mode_given = cmd->get_option("--mode")->count() > 0;
      action = [o] { return run_run(*o); };
      return;
    }
    if (!o->bench.empty()) throw CLI::ValidationError("run", "give a benchmark or -- PROGRAM, not both");
    if (o->verify || o->corrupt || o->counters || o->digest || o->progress || !o->params.empty() || !o->sampling_sets.empty() ||
        o->skip_functional)
      throw CLI::ValidationError("run", "--param, --verify, --counters, --progress, --sampling-set, "
                                        "--sampling-skip-functional, --digest apply to benchmarks, not to -- PROGRAM");
    ProgramRunOptions p{program, o->mode, o->arch, o->sampling, o->json, o->sets,
                        cmd->get_option("--mode")->count() > 0, o->memory_check};
    action = [p] { return run_opencl_program(p); };
  });
}

}  // namespace strobe::cli
