#include "sampling/gpumech/launch_model.h"

#include <chrono>

#include <fmt/format.h>

#include "common/error.h"

#include "timing/cu/cu_params.h"

namespace strobe::sampling::gpumech {

namespace {
double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}
}  // namespace

namespace {

/// The launch's occupancy on `cfg`, as the dispatcher computes it.
timing::Occupancy launch_occupancy(const emu::Dispatch& d, const timing::GpuConfig& cfg) {
  const timing::CuResources res = timing::cu_resources(cfg);
  return timing::occupancy(timing::dispatch_needs(d, res), res);
}

/// Fills `m` from `trace`: the cache-only simulation on `cfg`, the parameters and latencies,
/// and the prediction, surveying every wave or, given `representative`, only that one (§2.7).
void model_trace(const emu::Dispatch& d, const LaunchTrace& trace, const std::vector<StaticInst>& statics,
                 const timing::GpuConfig& cfg, const LaunchModelOptions& o, const uint64_t* representative,
                 LaunchModel& m) {
  m.instructions = trace.instructions;
  m.workgroups = trace.workgroups;
  m.trace_bytes = trace.bytes();

  auto t0 = std::chrono::steady_clock::now();
  m.cache = simulate_caches(trace, statics, cfg, m.occupancy.workgroups_per_cu);
  m.cache_seconds = seconds_since(t0);

  t0 = std::chrono::steady_clock::now();
  m.params = model_params(cfg, m.occupancy, trace.workgroups, trace.waves.size(), o.policy);
  m.params.mshr_demand = o.mshr_demand;
  m.params.dram_demand = o.dram_demand;
  m.params.rc_normalisation = o.rc_normalisation;
  m.pcs = pc_latencies(*d.program, statics, m.cache, cfg, m.params);
  const TraceWaves waves(trace, statics, m.pcs);
  if (representative) {
    WaveSurvey s;
    s.representative.wave = *representative;
    s.miss_latency = waves.miss_latency(m.params);
    s.wave_insts = trace.instructions;
    // Only the representative is profiled again; the tail bound takes the longest wave's
    // instructions to stand for the slowest, without surveying every wave.
    size_t longest = 0;
    for (size_t w = 1; w < trace.waves.size(); ++w)
      if (trace.waves[w].size() > trace.waves[longest].size()) longest = w;
    s.longest_wave_slots = alone_slots(waves, m.params, longest);
    m.prediction = predict(waves, m.params, o.level, s);
  } else {
    m.prediction = predict(waves, m.params, o.level);
  }
  m.model_seconds = seconds_since(t0);
}

}  // namespace

BoundedCycles bounded_cycles(const LaunchModel& m, const timing::GpuConfig& cfg, bool dram, bool tail) {
  BoundedCycles b;
  b.balanced = b.cycles = m.prediction.cycles;
  // GB/s over MHz is bytes per thousand core cycles.
  const double bytes_per_cycle = cfg.dram_bandwidth_gbs * 1e3 / cfg.clock_mhz;
  b.dram = double(m.cache.l2_misses) * double(cfg.line_bytes) / bytes_per_cycle;
  b.tail = m.prediction.tail_cycles;
  if (dram && b.dram > b.cycles) b.cycles = b.dram, b.bound = "dram";
  if (tail && b.tail > b.cycles) b.cycles = b.tail, b.bound = "tail";
  return b;
}

LaunchModelOptions proxy_options(const timing::GpuConfig& cfg) {
  LaunchModelOptions o;
  o.policy = policy_of(cfg.scheduler).value_or(Policy::GreedyThenOldest);
  o.rc_normalisation = RcNormalisation::PerW;
  return o;
}

LaunchModel model_launch(const emu::Dispatch& d, emu::GlobalMemory& mem, const timing::GpuConfig& cfg,
                         const LaunchModelOptions& o, uint32_t threads) {
  LaunchModel m;
  m.occupancy = launch_occupancy(d, cfg);
  const std::vector<StaticInst> statics = static_insts(*d.program);
  const auto t0 = std::chrono::steady_clock::now();
  const LaunchTrace trace =
      collect_trace(d, mem, statics, TraceOptions{uint32_t(cfg.line_bytes), o.max_instructions, threads}, &m.stats);
  m.trace_seconds = seconds_since(t0);
  model_trace(d, trace, statics, cfg, o, nullptr, m);
  return m;
}

LaunchModel model_saved_launch(const emu::Dispatch& d, const SavedTrace& saved, const timing::GpuConfig& cfg,
                               const LaunchModelOptions& o, const std::string& where) {
  LaunchModel m;
  m.occupancy = launch_occupancy(d, cfg);
  const std::vector<StaticInst> statics = static_insts(*d.program);
  check_trace_program(saved.trace, statics, where);
  if (saved.trace.line_bytes != cfg.line_bytes)
    throw InputError(fmt::format("{}: GPUMech trace coalesced at {}-byte lines, the configuration has mem.line_bytes={} "
                                 "(profile again with that line size)", where, saved.trace.line_bytes, cfg.line_bytes));
  if (saved.trace.waves.empty()) throw InputError(fmt::format("{}: GPUMech trace has no waves to model", where));
  model_trace(d, saved.trace, statics, cfg, o, &saved.representative, m);
  return m;
}

SavedTrace trace_for_profile(const emu::Dispatch& d, emu::GlobalMemory& mem, const timing::GpuConfig& cfg,
                             uint64_t max_instructions, emu::DispatchStats& stats, profile::LaunchRecord* columns,
                             profile::RangeCutter* ranges, uint32_t threads) {
  const std::vector<StaticInst> statics = static_insts(*d.program);
  return saved_from_trace(d,
                          collect_trace(d, mem, statics, TraceOptions{uint32_t(cfg.line_bytes), max_instructions, threads},
                                        &stats, columns, ranges),
                          statics, cfg);
}

SavedTrace saved_from_trace(const emu::Dispatch& d, LaunchTrace trace, const std::vector<StaticInst>& statics,
                            const timing::GpuConfig& cfg) {
  SavedTrace s;
  s.trace = std::move(trace);
  if (s.trace.waves.empty()) return s;
  // The representative is chosen once per input (§2.7), on the profiling configuration; the
  // policy and level do not enter the choice (wave_perf is the wave running alone).
  LaunchModel m;
  m.occupancy = launch_occupancy(d, cfg);
  model_trace(d, s.trace, statics, cfg, LaunchModelOptions{}, nullptr, m);
  s.representative = m.prediction.representative.wave;
  return s;
}

profile::LaunchProfiler gpumech_launch_profiler(const timing::GpuConfig& cfg, uint64_t max_instructions) {
  return [cfg, max_instructions](const emu::Dispatch& d, emu::GlobalMemory& mem, uint32_t line_bytes, uint32_t threads,
                                 emu::DispatchStats& stats) {
    timing::GpuConfig at = cfg;
    at.line_bytes = line_bytes;
    profile::LaunchRecord r = profile::begin_record(d, mem);
    r.blobs[kProfileBlob] =
        encode_saved_trace(trace_for_profile(d, mem, at, max_instructions, stats, &r, nullptr, threads));
    return r;
  };
}

}  // namespace strobe::sampling::gpumech
