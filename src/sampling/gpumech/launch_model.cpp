#include "sampling/gpumech/launch_model.h"

#include <chrono>

#include "timing/cu/cu_params.h"

namespace strobe::sampling::gpumech {

namespace {
double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}
}  // namespace

LaunchModel model_launch(const emu::Dispatch& d, emu::GlobalMemory& mem, const timing::GpuConfig& cfg,
                         const LaunchModelOptions& o) {
  LaunchModel m;
  const timing::CuResources res = timing::cu_resources(cfg);
  m.occupancy = timing::occupancy(timing::dispatch_needs(d, res), res);
  const std::vector<StaticInst> statics = static_insts(*d.program);

  auto t0 = std::chrono::steady_clock::now();
  const LaunchTrace trace =
      collect_trace(d, mem, statics, TraceOptions{uint32_t(cfg.line_bytes), o.max_instructions}, &m.stats);
  m.trace_seconds = seconds_since(t0);
  m.instructions = trace.instructions;
  m.workgroups = trace.workgroups;
  m.trace_bytes = trace.bytes();

  t0 = std::chrono::steady_clock::now();
  m.cache = simulate_caches(trace, statics, cfg, m.occupancy.workgroups_per_cu);
  m.cache_seconds = seconds_since(t0);

  t0 = std::chrono::steady_clock::now();
  m.params = model_params(cfg, m.occupancy, trace.workgroups, trace.waves.size(), o.policy);
  m.params.mshr_demand = o.mshr_demand;
  m.params.dram_demand = o.dram_demand;
  m.params.rc_normalisation = o.rc_normalisation;
  m.pcs = pc_latencies(*d.program, statics, m.cache, cfg, m.params);
  m.prediction = predict(TraceWaves(trace, statics, m.pcs), m.params, o.level);
  m.model_seconds = seconds_since(t0);
  return m;
}

}  // namespace strobe::sampling::gpumech
