// JSON rendering of run reports.
#include "runtime/run_report.h"

namespace strobe::runtime {

nlohmann::json to_json(const RunReport& r) {
  nlohmann::json j;
  j["benchmark"] = r.benchmark;
  j["mode"] = r.mode;
  j["arch"] = r.arch;
  j["sampling"] = r.sampling;
  j["verified"] = r.verified;
  j["wall_seconds"] = r.wall_seconds;
  if (!r.params.is_null()) j["params"] = r.params;
  if (!r.phase_seconds.is_null()) j["phase_seconds"] = r.phase_seconds;
  uint64_t wave = 0, thread = 0, cycles = 0;
  double sim_seconds = 0;
  bool timed = false;
  auto kernels = nlohmann::json::array();
  for (size_t i = 0; i < r.launches.size(); ++i) {
    const auto& l = r.launches[i];
    const auto& s = l.result.stats;
    wave += s.wave_instructions;
    thread += s.thread_instructions;
    kernels.push_back({{"name", l.result.kernel},
                       {"launch", i},
                       {"grid", l.grid},
                       {"local", l.local},
                       {"workgroups", s.workgroups},
                       {"wavefronts", s.wavefronts},
                       {"wave_instructions", s.wave_instructions},
                       {"thread_instructions", s.thread_instructions},
                       {"vector_memory_instructions", s.vector_memory_instructions},
                       {"scalar_memory_instructions", s.scalar_memory_instructions},
                       {"lds_instructions", s.lds_instructions},
                       {"past_end_accesses", l.result.past_end.count},
                       {"wall_seconds", l.result.wall_seconds}});
    if (const auto& t = l.result.timing) {
      timed = true;
      cycles += t->cycles;
      sim_seconds += t->sim_seconds;
      auto& k = kernels.back();
      k["cycles"] = t->cycles;
      k["sim_seconds"] = t->sim_seconds;
      k["ipc"] = t->ipc;
      k["timing"] = t->to_json();
      // The raw per-instance counters run to tens of KB per launch; the derived summary
      // (CPI stack, units, caches, DRAM) stays, and --counters asks for the rest.
      if (!r.raw_counters) k["timing"].erase("counters");
    }
    if (const auto& sm = l.result.sampling)
      kernels.back()["sampling"] = {{"method", sm->method},
                                    {"level", sm->level},
                                    {"estimated_cycles", sm->estimated_cycles},
                                    {"detailed_instructions", sm->detailed_instructions},
                                    {"predicted_instructions", sm->predicted_instructions},
                                    {"functional_instructions", sm->functional_instructions},
                                    {"emulated", sm->emulated},
                                    {"detail", sm->detail}};
  }
  j["wave_instructions"] = wave;
  j["thread_instructions"] = thread;
  if (timed) {
    j["cycles"] = cycles;
    j["sim_seconds"] = sim_seconds;
    j["ipc"] = cycles ? double(wave) / double(cycles) : 0.0;
  }
  j["kernels"] = std::move(kernels);
  if (!r.timing_summary.is_null()) j["timing"] = r.timing_summary;
  if (!r.sampling_summary.is_null()) j["sampling_summary"] = r.sampling_summary;
  if (!r.memory_digest.empty()) j["memory_digest"] = r.memory_digest;
  if (!r.config.is_null()) j["config"] = r.config;
  return j;
}

void attach_timing(RunReport& r, runtime::Device& dev) {
  timing::Gpu* gpu = dev.gpu();
  if (!gpu) return;
  r.config = gpu->config_json();
  r.timing_summary = timing::summarize(gpu->snapshot(), gpu->now().value());
}

}  // namespace strobe::runtime
