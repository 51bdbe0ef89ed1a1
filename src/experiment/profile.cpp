// The profile experiment (see profile.h).
#include "experiment/profile.h"

#include <fmt/format.h>

#include <filesystem>

#include "common/error.h"
#include "experiment/program.h"
#include "experiment/program_env.h"
#include "sampling/gpumech/launch_model.h"
#include "sampling/profile/functional_profile.h"
#include "workloads/benchmark.h"
#include "workloads/runner.h"

namespace strobe::experiment {

namespace sp = sampling::profile;

namespace {

/// The line size to count at: the one asked for, else the arch's L1V line (what the timing
/// model coalesces at, so profile and detailed simulation agree by default).
uint32_t line_bytes_for(const ProfileSpec& s) {
  const uint32_t n = s.line_bytes ? s.line_bytes : uint32_t(resolve_gpu_config(s.run.arch, s.run.sets).line_bytes);
  if (n < 4 || n > 4096 || (n & (n - 1)) != 0)
    throw InputError(fmt::format("--line-bytes {}: must be a power of two from 4 to 4096", n));
  return n;
}

}  // namespace

sp::WorkloadIdentity benchmark_identity(const std::string& bench, const workloads::Params& params) {
  sp::WorkloadIdentity w;
  w.kind = "benchmark";
  w.name = bench;
  const nlohmann::json j = params.to_json();  // an object: its keys iterate sorted
  for (const auto& [k, v] : j.items()) w.params.push_back(k + "=" + v.dump());
  return w;
}

void require_profile_of(const std::string& file, const sp::ProfileFile& p, const std::string& bench,
                        const std::vector<std::string>& params) {
  const workloads::BenchmarkInfo* info = workloads::Registry::instance().find(bench);
  if (!info) throw InputError(fmt::format("unknown benchmark '{}'", bench));
  const workloads::Params resolved = workloads::resolve_params(info->name, info->params, params);
  sp::require_match(file, sp::first_difference(p, benchmark_identity(info->name, resolved), p.line_bytes));
}

namespace {

/// A program's profile: the program run once under the profiling pass of tbpoint, whose pass
/// state is this same profile file, collected by the same collector as a benchmark's.
ProfileResult collect_program_profile(const ProfileSpec& spec, uint32_t line) {
  ScratchDir scratch;
  RunSpec p;
  p.workload = Workload::Program;
  p.program = spec.run.program;
  p.mode = "timing";  // the collector plugs in where sampling methods do, which needs the timing model
  p.arch = spec.run.arch;
  p.sets = {fmt::format("mem.line_bytes={}", line)};  // the method counts requests at the configured line
  p.sampling = "tbpoint";
  p.pass = 0;
  p.pass_state = scratch.path() + "/profile.msgpack";
  p.threads = spec.run.threads;
  const int status = run_program(p, scratch.path() + "/report.json", /*stdout_to_stderr=*/true);
  if (status != 0)
    throw InputError(fmt::format("{}: exited with status {} while it was profiled", p.program[0], status));
  if (!std::filesystem::exists(p.pass_state)) {
    const std::string report = scratch.path() + "/report.json";
    if (std::filesystem::exists(launch_log_path(report)))  // it launched work, then ended without its exit handlers
      throw Error(ExitCode::Failure, missing_report_error(p.program[0], report) + "; no profile was written");
    throw InputError(fmt::format("{}: made no use of the strobe OpenCL platform or HIP (no profile was written)",
                                 p.program[0]));
  }
  ProfileResult r;
  r.profile = sp::load(p.pass_state);
  r.seconds = r.profile.seconds;
  return r;
}

}  // namespace

ProfileResult collect_profile(const ProfileSpec& spec) {
  const uint32_t line = line_bytes_for(spec);
  if (spec.run.threads > RunSpec::kMaxThreads)
    throw InputError(fmt::format("--threads {}: at most {}", spec.run.threads, RunSpec::kMaxThreads));
  if (spec.run.workload == Workload::Program) {
    if (spec.gpumech)
      throw InputError("not implemented: --gpumech for a host program's profile (GPUMech traces are saved for "
                       "benchmarks only)");
    return collect_program_profile(spec, line);
  }
  const timing::GpuConfig gpu = resolve_gpu_config(spec.run.arch, spec.run.sets);
  sp::ProfileRunner runner(line, spec.gpumech ? sampling::gpumech::gpumech_launch_profiler(
                                                    gpu, sampling::gpumech::kDefaultMaxInstructions)
                                              : sp::plain_profile());
  workloads::RunRequest req;
  req.benchmark = spec.run.benchmark;
  req.params = spec.run.params;
  req.threads = host_threads(spec.run.threads);  // the profile is the same on any number
  // The runner plugs in where sampling methods do, which needs a timing model; it never uses it,
  // and the profile does not depend on the configuration (only the LDS limit checks read it).
  req.prepare_device = [&runner, &gpu](runtime::Device& dev) {
    dev.enable_timing(gpu);
    dev.set_dispatch_runner(&runner);
  };
  workloads::RunOutcome out = workloads::run_benchmark(std::move(req));
  ProfileResult r;
  r.profile.workload = benchmark_identity(out.benchmark, out.params);
  r.profile.line_bytes = line;
  r.profile.launches = runner.take();
  r.seconds = out.run_seconds;
  r.profile.seconds = out.run_seconds;
  return r;
}

ProfileResult profile(const ProfileSpec& spec) {
  if (spec.output.empty() == spec.check.empty()) throw InputError("profile: give either -o FILE or --check FILE");
  if (!spec.check.empty()) {
    // Loaded first: a corrupt file or another version is reported before any simulation.
    const sp::ProfileFile stored = sp::load(spec.check);
    ProfileSpec s = spec;
    if (!s.line_bytes) s.line_bytes = stored.line_bytes;
    ProfileResult r = collect_profile(s);
    sp::require_match(spec.check, sp::first_difference(stored, r.profile.workload, r.profile.line_bytes));
    std::vector<sp::LaunchIdentity> ids;
    for (const auto& l : r.profile.launches) ids.push_back(l.id);
    sp::require_match(spec.check, sp::first_difference(stored, ids));
    return r;
  }
  ProfileResult r = collect_profile(spec);
  sp::save(spec.output, r.profile);
  return r;
}

std::string profile_summary(const ProfileResult& r) {
  uint64_t groups = 0, insts = 0;
  for (const auto& l : r.profile.launches) {
    groups += l.workgroups.rows;
    insts += l.workgroups.sum(sp::column::kWaveInsts);
  }
  return fmt::format("{} launches, {} work-groups, {} wave instructions, {:.2f} s", r.profile.launches.size(), groups,
                     insts, r.seconds);
}

}  // namespace strobe::experiment
