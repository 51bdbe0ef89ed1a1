// The pass driver (see passes.h).
#include "experiment/passes.h"

namespace strobe::experiment {

SampledRun run_sampled(const std::string& bench, const std::vector<std::string>& params, const timing::GpuConfig& cfg,
                       const std::string& method_name, sampling::SamplingMethod& method, bool verify,
                       const std::function<void(const workloads::LaunchStat&, size_t)>& on_launch,
                       emu::MemoryCheck memory_check, uint32_t threads) {
  SampledRun out;
  nlohmann::json passes = nlohmann::json::array();
  uint64_t analysis_insts = 0;
  for (int p = 0; p < method.passes(); ++p) {
    bool last = p + 1 == method.passes();
    workloads::RunRequest req;
    req.benchmark = bench;
    req.params = params;
    req.verify = verify && last;
    req.on_launch = on_launch;
    req.memory_check = memory_check;
    req.threads = threads;
    req.prepare_device = [&cfg, &method, p](runtime::Device& dev) {
      dev.enable_timing(cfg);
      dev.set_dispatch_runner(&method.runner(p));
    };
    workloads::RunOutcome o = workloads::run_benchmark(std::move(req));
    method.end_pass(p);
    out.run_seconds += o.run_seconds;
    out.wall_seconds += o.wall_seconds;
    passes.push_back({{"run_seconds", o.run_seconds}, {"wall_seconds", o.wall_seconds}, {"launches", o.launches.size()}});
    // A method may add a pass when one ends (SimProf grows its sample until the interval meets
    // the budget): what was the last pass is then analysis too.
    last = p + 1 == method.passes();
    if (!last)
      for (const auto& l : o.launches)
        if (l.result.sampling) analysis_insts += l.result.sampling->functional_instructions;
    if (last) out.outcome = std::move(o);
  }
  // Work of earlier passes (a profile) is analysis too.
  out.summary = sampling_summary(out.outcome.launches, analysis_insts);
  out.summary["method"] = method_name;
  out.summary["passes"] = passes;
  out.summary["method_summary"] = method.summary();
  return out;
}

nlohmann::json sampling_summary(const std::vector<workloads::LaunchStat>& launches, uint64_t earlier_analysis) {
  uint64_t detailed = 0, predicted = 0, functional = earlier_analysis;
  bool emulated = true;
  nlohmann::json levels = nlohmann::json::object();
  for (const auto& l : launches) {
    const auto& s = l.result.sampling;
    if (!s) continue;
    detailed += s->detailed_instructions;
    predicted += s->predicted_instructions;
    functional += s->functional_instructions;
    emulated &= s->emulated;
    levels[s->level] = levels.value(s->level, 0) + 1;
  }
  const double timed = double(std::max<uint64_t>(detailed + predicted, 1));
  return {{"instructions", {{"detailed", detailed}, {"predicted", predicted}, {"functional", functional}}},
          {"shares", {{"detailed", double(detailed) / timed}, {"predicted", double(predicted) / timed},
                      {"functional", double(functional) / timed}}},
          {"launch_levels", levels},
          {"emulated", emulated}};
}

}  // namespace strobe::experiment
