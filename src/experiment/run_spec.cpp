// The rules of a run and of a comparison (see run_spec.h). Each rule is one function below,
// called by both validators where it applies to both.
#include "experiment/run_spec.h"

#include <algorithm>
#include <sstream>
#include <thread>

#include <sched.h>

#include <fmt/core.h>

#include "common/error.h"
#include "experiment/program_env.h"
#include "sampling/frame_method.h"

namespace strobe::experiment {

namespace {

bool env(Spelling s) { return s == Spelling::Environment; }

/// The method `--mode analytical` runs on every launch.
constexpr const char* kAnalyticalMethod = "gpumech";

/// `--mode analytical` is GPUMech on every launch: it names its method itself, so another method
/// contradicts it (naming gpumech again is allowed, and is how a program's run receives it).
void resolve_analytical_mode(RunSpec& spec, Spelling s) {
  if (spec.mode != "analytical") return;
  if (spec.sampling != "none" && spec.sampling != kAnalyticalMethod)
    throw InputError(env(s) ? fmt::format("STROBE_MODE=analytical predicts every launch with {}; it does not combine "
                                          "with STROBE_SAMPLING={}",
                                          kAnalyticalMethod, spec.sampling)
                            : fmt::format("--mode analytical predicts every launch with {}; it does not combine with "
                                          "--sampling {} (use one or the other)",
                                          kAnalyticalMethod, spec.sampling));
  spec.sampling = kAnalyticalMethod;
}

/// A sampling method estimates detailed timing: it implies the timing model, and contradicts a
/// functional mode asked for explicitly.
void require_timing_for_sampling(RunSpec& spec, Spelling s) {
  if (spec.sampling == "none" || spec.mode == "analytical") return;
  if (spec.mode_given && spec.mode != "timing")
    throw InputError(env(s) ? fmt::format("STROBE_SAMPLING={} estimates detailed timing; it needs STROBE_MODE=timing",
                                          spec.sampling)
                            : fmt::format("--sampling {} estimates detailed timing; it needs --mode timing", spec.sampling));
  spec.mode = "timing";
}

/// Method parameters and skip-functional mean nothing without a method.
void require_method_for_method_options(const RunSpec& spec, Spelling s) {
  if (spec.sampling != "none") return;
  if (env(s) && spec.skip_functional)
    throw InputError("STROBE_SAMPLING_SKIP_FUNCTIONAL=1 needs a sampling method: give STROBE_SAMPLING=METHOD");
  if (!spec.sampling_sets.empty() || spec.skip_functional)
    throw InputError("--sampling-set and --sampling-skip-functional need --sampling METHOD");
}

/// The warming asked for, parsed once for every front end: an unknown value is named; warming
/// needs a method whose functional work it warms, and work that is not emulated warms nothing.
sampling::Warming check_warming(const RunSpec& spec, bool has_method, Spelling s) {
  const std::string option = env(s) ? "STROBE_SAMPLING_WARMING" : "--sampling-warming";
  const sampling::Warming w = sampling::parse_warming(spec.warming, option);
  if (w == sampling::Warming::None) return w;
  if (!has_method)
    throw InputError(env(s) ? fmt::format("{}={} warms the caches for a sampling method; give STROBE_SAMPLING=METHOD",
                                          option, spec.warming)
                            : fmt::format("{} {} warms the caches for a sampling method; give --sampling METHOD",
                                          option, spec.warming));
  if (spec.skip_functional)
    throw InputError(fmt::format("{}{}{}: with {} predicted work is not emulated, so it has no accesses to warm with",
                                 option, env(s) ? "=" : " ", spec.warming,
                                 env(s) ? "STROBE_SAMPLING_SKIP_FUNCTIONAL=1" : "--sampling-skip-functional"));
  return w;
}

/// Skipping the emulation of predicted work leaves nothing to verify.
void forbid_verify_when_skipping(bool skip_functional, bool verify) {
  if (skip_functional && verify)
    throw InputError("--verify: with --sampling-skip-functional predicted work is not emulated, so the results "
                     "cannot be verified");
}

/// A program runs once per pass, each run a process of its own, so a method with several passes
/// samples it only when it can carry what its passes learned from one process to the next.
void require_carried_passes(const sampling::SamplingMethod& m, const std::string& name, Spelling s,
                            const std::string& command) {
  if (m.carries_passes()) return;
  if (env(s))
    throw NotImplementedError(fmt::format("STROBE_SAMPLING={}: the method makes {} passes over the workload and "
                                          "cannot carry them from one run of the program to the next",
                                          name, m.passes()));
  throw NotImplementedError(fmt::format("--sampling {} for host programs (OpenCL or HIP): the method makes {} "
                                        "passes over the workload and cannot carry them from one run of the "
                                        "program to the next (use strobe {} BENCH --sampling {})",
                                        name, m.passes(), command, name));
}

/// Inside a program (the environment's spelling) the run is one pass of the method: which one,
/// and the file its state crosses in when the method makes several. The front end that starts
/// the program runs every pass itself (pass -1).
void check_program_pass(const RunSpec& spec, const sampling::SamplingMethod* m, Spelling s) {
  if (spec.pass < 0 && spec.pass_state.empty()) {
    if (env(s) && m && m->passes() > 1)
      throw InputError(fmt::format("STROBE_SAMPLING={} makes {} passes over the program, each a run of its own: "
                                   "set STROBE_PASS (0 to {}) and STROBE_PASS_STATE=FILE (strobe run --sampling {} "
                                   "-- PROGRAM sets both)",
                                   spec.sampling, m->passes(), m->passes() - 1, spec.sampling));
    return;
  }
  if (!m) throw InputError("STROBE_PASS and STROBE_PASS_STATE are passes of a sampling method: set STROBE_SAMPLING");
  const int passes = m->passes();
  if (spec.pass < 0 || spec.pass >= passes)
    throw InputError(fmt::format("STROBE_PASS {}: STROBE_SAMPLING={} makes passes 0 to {}", spec.pass, spec.sampling,
                                 passes - 1));
  if (passes > 1 && spec.pass_state.empty())
    throw InputError(fmt::format("STROBE_PASS {}: STROBE_SAMPLING={} makes {} passes, which need STROBE_PASS_STATE=FILE "
                                 "to carry its state between them",
                                 spec.pass, spec.sampling, passes));
}

/// Loads --profile for the methods that read one; null without one. The profile is of one
/// workload, not of a configuration, so any --arch or --set may reuse it.
std::shared_ptr<const sampling::profile::ProfileFile> load_profile(const RunSpec& spec,
                                                                   const std::vector<std::string>& methods) {
  if (spec.profile.empty()) return nullptr;
  bool read = false;
  std::string readers;
  for (const auto& [name, info] : sampling::methods())
    if (info.reads_profile) readers += (readers.empty() ? "" : ", ") + name;
  for (const auto& m : methods)
    if (m != "none") read |= sampling::method_info(m).reads_profile;
  if (!read)
    throw InputError(fmt::format("--profile {}: no method given reads a functional profile (methods that do: {})",
                                 spec.profile, readers));
  auto p = std::make_shared<sampling::profile::ProfileFile>(
      sampling::profile::load(spec.profile, sampling::profile_detail(methods)));
  // Which benchmark and parameters it profiles is checked where benchmarks are known
  // (experiment::require_profile_of, before a run or comparison starts); a program's command
  // line is known here. Launch by launch the method checks the rest as it runs.
  if (spec.workload == Workload::Program)
    sampling::profile::require_match(spec.profile,
                                     sampling::profile::workload_difference(p->workload, program_identity(spec.program)));
  return p;
}

}  // namespace

void check_mode(const std::string& mode, Spelling s) {
  if (mode != "functional" && mode != "timing")
    throw InputError(fmt::format("{} '{}': expected functional or timing", env(s) ? "STROBE_MODE" : "--mode", mode));
}

void check_run_mode(const std::string& mode, Spelling s) {
  if (mode != "functional" && mode != "timing" && mode != "analytical")
    throw InputError(
        fmt::format("{} '{}': expected functional, timing or analytical", env(s) ? "STROBE_MODE" : "--mode", mode));
}

uint32_t host_threads(uint32_t requested) {
  if (requested) return requested;
  // The processors this process may run on (taskset, a cgroup's cpuset, a Slurm allocation),
  // not every processor the machine has.
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(uint32_t(CPU_COUNT(&set)), 1u);
  return std::max(std::thread::hardware_concurrency(), 1u);
}

bool models_timing(const std::string& mode) { return mode == "timing" || mode == "analytical"; }

void require_timing_for_sets(const std::vector<std::string>& sets, const std::string& mode, Spelling s) {
  // Fail loudly rather than silently run something other than what was asked for.
  if (!sets.empty() && !models_timing(mode)) {
    // --timeline-interval is a --set of its own; name the option that was given.
    const bool only_timeline = std::all_of(sets.begin(), sets.end(), [](const std::string& kv) {
      return kv.rfind("sim.timeline_interval=", 0) == 0;
    });
    if (only_timeline && !env(s)) throw InputError("--timeline-interval times the timing model; it needs --mode timing");
    throw InputError(env(s) ? "STROBE_SET configures the timing model; it needs STROBE_MODE=timing"
                            : "--set configures the timing model; it needs --mode timing");
  }
}

timing::GpuConfig resolve_gpu_config(const std::string& arch, const std::vector<std::string>& sets) {
  timing::GpuConfig cfg = timing::load_config(arch);
  for (const auto& s : sets) timing::apply_override(cfg, s);
  timing::validate(cfg);
  return cfg;
}

namespace {

/// The rules of a capture's replay.
void check_capture_run(const RunSpec& spec) {
  if (spec.capture.empty()) throw InputError("a capture replay needs the capture file");
  if (spec.sampling != "none" && !spec.profile.empty())
    throw InputError("--profile: a capture holds the profiles its methods read; give no --profile with a capture");
  if (spec.sampling != "none" && spec.warming != "none")
    throw InputError("--sampling-warming: a capture's history warms the caches before every launch simulated in "
                     "detail; nothing runs functionally to warm them");
  if (spec.sampling != "none" && (!spec.launches.empty() || spec.alone))
    throw InputError(fmt::format("--launches and --alone: {} chooses the launches it simulates itself; give the "
                                 "whole capture",
                                 spec.sampling));
  if (spec.alone && !models_timing(spec.mode))
    throw InputError("--alone: each launch on a fresh GPU needs the timing model (--mode timing)");
  if (spec.warm_launches > 0 && spec.sampling != "none")
    throw NotImplementedError(fmt::format("--warm-launches with --sampling {}: a method's detailed launches warm from "
                                          "the capture's history only",
                                          spec.sampling));
  if (spec.warm_launches > 0 && !models_timing(spec.mode))
    throw InputError("--warm-launches: the launches before a replayed one are simulated in detail; it needs "
                     "--mode timing");
  if (!spec.params.empty())
    throw InputError("--param: a capture holds the parameters it was captured with; capture again to change them");
  if (spec.warm_state != "history" && spec.warm_state != "fitted" && spec.warm_state != "none")
    throw InputError(fmt::format("--warm-state '{}': expected history, fitted or none", spec.warm_state));
}

/// gfx942 runs the suite's benchmarks, which the build compiles for it; captures hold gfx803
/// code, OpenCL and HIP programs are compiled for gfx803, and graphics shaders by RADV for it.
void require_suite_for_gfx942(const RunSpec& spec, const timing::GpuConfig& gpu) {
  if (timing::isa_of(gpu) != isa::Target::Gfx942) return;
  const char* what = spec.workload == Workload::Program ? "OpenCL and HIP programs (compiled for gfx803)"
                     : spec.workload == Workload::Capture ? "captures (their code is gfx803's)"
                     : spec.benchmark.rfind("gfx:", 0) == 0 ? "graphics frames (RADV compiles them for gfx803)"
                                                            : nullptr;
  if (what) throw NotImplementedError(fmt::format("gpu.isa gfx942 for {}; only the suite's benchmarks run on gfx942", what));
}

}  // namespace

ValidatedRun validate(RunSpec spec, Spelling spelling) {
  ValidatedRun v;
  check_run_mode(spec.mode, spelling);
  resolve_analytical_mode(spec, spelling);
  require_timing_for_sampling(spec, spelling);
  // The configuration is resolved (arch and every --set checked) before anything runs, also
  // for a program: a bad one is then a usage error, not a platform failing inside the program.
  v.gpu = resolve_gpu_config(spec.arch, spec.sets);
  require_suite_for_gfx942(spec, v.gpu);
  v.memory_check = emu::parse_memory_check(spec.memory_check);
  if (spec.threads > RunSpec::kMaxThreads)
    throw InputError(fmt::format("{} {}: at most {}", env(spelling) ? "STROBE_THREADS" : "--threads", spec.threads,
                                 RunSpec::kMaxThreads));
  spec.threads = host_threads(spec.threads);
  require_timing_for_sets(spec.sets, spec.mode, spelling);
  require_method_for_method_options(spec, spelling);
  if (spec.sampling == "none" && !spec.profile.empty())
    throw InputError("--profile: a functional profile is for a sampling method; give --sampling METHOD");
  v.warming = check_warming(spec, spec.sampling != "none", spelling);
  if (spec.sampling != "none") {
    sampling::check_sampling_sets({spec.sampling}, spec.sampling_sets);
    v.profile = load_profile(spec, {spec.sampling});
    v.method = sampling::make_method(spec.sampling, v.gpu, spec.sampling_sets, spec.skip_functional, v.profile,
                                     spec.profile, v.warming);
    if (spec.workload == Workload::Program) require_carried_passes(*v.method, spec.sampling, spelling, spec.command);
  }
  if (spec.workload == Workload::Program) check_program_pass(spec, v.method.get(), spelling);
  if (!spec.capture_output.empty() && (spec.mode != "functional" || spec.sampling != "none"))
    throw InputError(fmt::format("{}: a capture records a functional run; give no {} with it",
                                 env(spelling) ? "STROBE_CAPTURE" : "strobe capture",
                                 spec.sampling != "none" ? (env(spelling) ? "STROBE_SAMPLING" : "--sampling")
                                                         : (env(spelling) ? "STROBE_MODE=timing" : "--mode timing")));
  if (spec.workload == Workload::Capture)
    check_capture_run(spec);
  else if (spec.warm_launches > 0)
    throw InputError("--warm-launches: for a capture (FILE.cap), whose launches can run alone");
  forbid_verify_when_skipping(spec.skip_functional, spec.verify);
  v.spec = std::move(spec);
  return v;
}

ValidatedCompare validate(CompareSpec spec) {
  if (spec.repeat < 1 || spec.repeat > CompareSpec::kMaxRepeat)
    throw InputError(fmt::format("--repeat {}: must be 1 to {}", spec.repeat, CompareSpec::kMaxRepeat));
  ValidatedCompare v;
  v.methods = parse_methods(spec.run.sampling);
  v.gpu = resolve_gpu_config(spec.run.arch, spec.run.sets);
  require_suite_for_gfx942(spec.run, v.gpu);
  sampling::check_sampling_sets(v.methods, spec.run.sampling_sets);
  v.warming = check_warming(spec.run, true, Spelling::CommandLine);
  if (spec.run.workload == Workload::Capture) check_capture_run(spec.run);
  forbid_verify_when_skipping(spec.run.skip_functional, spec.run.verify);
  v.profile = load_profile(spec.run, v.methods);
  // The detailed reference and the methods run on the same host threads (one unless asked):
  // a speedup is then the method's, not the host's extra cores.
  spec.run.threads = std::max(spec.run.threads, 1u);
  v.spec = std::move(spec);
  for (const auto& name : v.methods) {
    const auto m = v.make(name);
    if (v.spec.run.workload == Workload::Program) require_carried_passes(*m, name, Spelling::CommandLine, "compare");
  }
  return v;
}

std::unique_ptr<sampling::SamplingMethod> ValidatedCompare::make(const std::string& name) const {
  return sampling::make_method(name, gpu, spec.run.sampling_sets, spec.run.skip_functional, profile,
                               spec.run.profile, warming);
}

std::vector<std::string> parse_methods(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream ss(list);
  for (std::string m; std::getline(ss, m, ',');) {
    if (m.empty()) throw InputError(fmt::format("--sampling '{}': empty method name", list));
    if (m == "none") throw InputError("--sampling: compare needs sampling methods, not none");
    for (const auto& seen : out)
      if (seen == m) throw InputError(fmt::format("--sampling '{}': {} is named twice", list, m));
    out.push_back(m);
  }
  if (out.empty()) throw InputError("--sampling: name at least one method");
  return out;
}

std::string frame_method_names() {
  std::string out;
  for (const auto& [name, info] : sampling::frame_methods()) out += (out.empty() ? "" : ", ") + name;
  return out;
}

std::string method_names() {
  std::string out;
  for (const auto& [name, info] : sampling::methods()) out += (out.empty() ? "" : ", ") + name;
  return out;
}

}  // namespace strobe::experiment
