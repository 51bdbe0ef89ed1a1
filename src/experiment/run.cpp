// A benchmark run under a validated spec (see run.h).
#include "experiment/run.h"

#include "experiment/capture.h"
#include "experiment/passes.h"
#include "experiment/profile.h"

namespace strobe::experiment {

report::RunReport run_report(const workloads::RunOutcome& out, const std::string& mode, const std::string& arch,
                             const std::string& sampling) {
  report::RunReport rep;
  rep.benchmark = out.benchmark;
  rep.mode = mode;
  rep.arch = arch;
  rep.sampling = sampling;
  rep.verified = out.verified;
  rep.wall_seconds = out.wall_seconds;
  rep.phase_seconds = {{"setup", out.setup_seconds}, {"run", out.run_seconds}, {"verify", out.verify_seconds}};
  rep.params = out.params.to_json();
  for (const auto& l : out.launches) rep.launches.push_back(report::LaunchRecord{l.result, l.grid, l.local});
  report::attach_timing(rep, out.context->device());
  report::attach_device(rep, out.context->device());
  return rep;
}

RunResult run(ValidatedRun& v, const LaunchCallback& on_launch) {
  const RunSpec& s = v.spec;
  if (s.workload == Workload::Capture) return replay(v, on_launch);
  RunResult r;
  nlohmann::json sampling_summary;
  if (v.profile) require_profile_of(s.profile, *v.profile, s.benchmark, s.params);
  if (v.method) {
    SampledRun sr = run_sampled(s.benchmark, s.params, v.gpu, s.sampling, *v.method, s.verify, on_launch,
                                v.memory_check, s.threads);
    r.outcome = std::move(sr.outcome);
    // Every pass counts: a profiling pass is part of what the method costs.
    r.outcome.run_seconds = sr.run_seconds;
    r.outcome.wall_seconds = sr.wall_seconds;
    sampling_summary = std::move(sr.summary);
    sampling_summary["warming"] = sampling::warming_name(v.warming);
  } else {
    workloads::RunRequest req;
    req.benchmark = s.benchmark;
    req.params = s.params;
    req.verify = s.verify;
    req.corrupt_for_test = s.corrupt_for_test;
    req.memory_check = v.memory_check;
    req.threads = s.threads;
    req.on_launch = on_launch;
    req.prepare_device = [&v](runtime::Device& dev) {
      dev.set_isa(timing::isa_of(v.gpu));  // functional runs too execute the preset's instruction set
      if (v.timing()) dev.enable_timing(v.gpu);
    };
    r.outcome = workloads::run_benchmark(std::move(req));
  }
  r.report = run_report(r.outcome, s.mode, s.arch, s.sampling);
  r.report.sampling_summary = std::move(sampling_summary);
  return r;
}

}  // namespace strobe::experiment
