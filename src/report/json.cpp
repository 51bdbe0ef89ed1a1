// The JSON writer (see json.h).
#include "report/json.h"

#include <fmt/core.h>

#include "common/error.h"
#include "report/json_read.h"
#include "report/timing_json.h"

namespace strobe::report {

nlohmann::json to_json(const RunReport& r) {
  nlohmann::json j;
  j["benchmark"] = r.benchmark;
  j["mode"] = r.mode;
  j["arch"] = r.arch;
  j["isa"] = r.isa;
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
    if (l.capture_launch >= 0) kernels.back()["capture_launch"] = l.capture_launch;
    if (const auto& t = l.result.timing) {
      timed = true;
      cycles += t->cycles;
      sim_seconds += t->sim_seconds;
      auto& k = kernels.back();
      k["cycles"] = t->cycles;
      k["sim_seconds"] = t->sim_seconds;
      k["ipc"] = t->ipc;
      k["timing"] = launch_timing_json(*t);
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
  if (!r.capture.is_null()) j["capture"] = r.capture;
  if (!r.host.is_null()) j["host"] = r.host;
  if (!r.memory_digest.empty()) j["memory_digest"] = r.memory_digest;
  if (r.host_threads) j["host_threads"] = r.host_threads;
  if (!r.config.is_null()) j["config"] = r.config;
  return j;
}

namespace {

nlohmann::json spread_fields(nlohmann::json j, const Spread& s) {
  j["speedup"] = s.median;
  j["speedup_min"] = s.min;
  j["speedup_max"] = s.max;
  return j;
}

/// A launch's predicted and detailed CPI and their stacks, category by category.
nlohmann::json cpi_comparison_json(const CpiComparison& c) {
  nlohmann::json stack = nlohmann::json::array();
  for (const CpiCategory& k : c.categories)
    stack.push_back({{"category", k.name},
                     {"detailed_category", k.detailed_name},
                     {"modelled", k.modelled},
                     {"predicted", k.modelled ? nlohmann::json(k.predicted) : nlohmann::json()},
                     {"detailed", k.detailed}});
  return {{"predicted", c.predicted_cpi},
          {"detailed", c.detailed_cpi},
          {"error_pct", c.error_pct},
          {"simds", c.simds},
          {"stack", stack}};
}

nlohmann::json launch_json(const LaunchComparison& l) {
  nlohmann::json j = {{"launch", l.launch},
                      {"name", l.name},
                      {"full_cycles", l.full_cycles},
                      {"estimated_cycles", l.estimated_cycles},
                      {"error_pct", l.error_pct},
                      {"level", l.level},
                      {"full_wall_seconds", l.full_wall_seconds},
                      {"sampled_wall_seconds", l.sampled_wall_seconds}};
  if (l.has_sampling) {
    j["detailed_instructions"] = l.detailed_instructions;
    j["predicted_instructions"] = l.predicted_instructions;
    j["detail"] = l.detail;
  }
  if (l.cpi) j["cpi"] = cpi_comparison_json(*l.cpi);
  return j;
}

/// One method's entry in a one-run comparison.
nlohmann::json method_json(const MethodComparison& m) {
  nlohmann::json kernels = nlohmann::json::array();
  for (const auto& l : m.launches) kernels.push_back(launch_json(l));
  nlohmann::json j = spread_fields({{"estimated_cycles", m.estimated_cycles},
                        {"full_cycles", m.full_cycles},
                        {"error_pct", m.error_pct},
                        {"ipc_error_pct", m.ipc_error_pct},
                        {"detailed_share", m.detailed_share},
                        {"full_wall_seconds", m.full_wall_seconds},
                        {"sampled_wall_seconds", m.sampled_wall_seconds},
                        {"repeats", m.speedups.size()},
                        {"levels", m.levels},
                        {"fallback", m.fallback},
                        {"verified", m.verified},
                        {"sampling", m.sampling},
                        {"kernels", kernels}},
                       m.speedup);
  if (m.mean_abs_cpi_error_pct) j["mean_abs_cpi_error_pct"] = *m.mean_abs_cpi_error_pct;
  if (m.one_shot_speedup) j["one_shot_speedup"] = *m.one_shot_speedup;
  return j;
}

/// One method's cell in a set row.
nlohmann::json set_method_json(const MethodComparison& m) {
  nlohmann::json j = spread_fields({{"estimated_cycles", m.estimated_cycles},
                        {"error_pct", m.error_pct},
                        {"ipc_error_pct", m.ipc_error_pct},
                        {"speedups", m.speedups},
                        {"full_seconds", m.full_wall_seconds},
                        {"sampled_seconds", m.sampled_wall_seconds},
                        {"levels", m.levels},
                        {"fallback", m.fallback},
                        {"detailed_share", m.detailed_share},
                        {"verified", m.verified}},
                       m.speedup);
  if (m.mean_abs_cpi_error_pct) j["mean_abs_cpi_error_pct"] = *m.mean_abs_cpi_error_pct;
  if (m.one_shot_speedup) j["one_shot_speedup"] = *m.one_shot_speedup;
  if (!m.failure.empty()) j["failure"] = m.failure;
  return j;
}

nlohmann::json set_run_json(const SetRunRow& r) {
  nlohmann::json methods = nlohmann::json::object();
  for (const auto& m : r.methods) methods[m.name] = set_method_json(m);
  nlohmann::json out = {{"benchmark", r.benchmark},
          {"args", r.args},
          {"params", r.params},
          {"launches", r.launches},
          {"wave_instructions", r.wave_instructions},
          {"full_cycles", r.full_cycles},
          {"full_seconds", {{"median", r.full_seconds.median}, {"min", r.full_seconds.min}, {"max", r.full_seconds.max}}},
          {"repeats", r.repeats},
          {"methods", methods},
          {"provenance", r.provenance}};
  if (r.capture_seconds) out["capture_seconds"] = *r.capture_seconds;
  return out;
}

nlohmann::json aggregate_json(const AggregateRow& a) {
  nlohmann::json out = {{"runs", a.runs},
          {"failed_runs", a.failed_runs},
          {"total_speedup", a.total_speedup},
          {"geomean_speedup", a.geomean_speedup},
          {"mean_abs_error_pct", a.mean_abs_error_pct},
          {"max_abs_error_pct", a.max_abs_error_pct},
          {"summed_cycles_error_pct", a.summed_cycles_error_pct},
          {"fallback_runs", a.fallback_runs},
          {"sampled_runs", a.sampled_runs},
          {"mean_abs_error_pct_sampled", a.mean_abs_error_pct_sampled},
          {"geomean_ipc_error_pct", a.geomean_ipc_error_pct},
          {"sample_size", a.sample_size}};
  if (a.one_shot_total_speedup) out["one_shot_total_speedup"] = *a.one_shot_total_speedup;
  return out;
}

}  // namespace

nlohmann::json to_json(const SetRunRow& r) { return set_run_json(r); }

SetRunRow set_run_row_from_json(const nlohmann::json& j) {
  try {
    SetRunRow r;
    r.benchmark = j.at("benchmark").get<std::string>();
    r.args = j.at("args").get<std::vector<std::string>>();
    r.params = j.at("params");
    r.launches = read_u64(j, "launches");
    r.wave_instructions = read_u64(j, "wave_instructions");
    r.full_cycles = read_u64(j, "full_cycles");
    const auto& fs = j.at("full_seconds");
    r.full_seconds = {read_number(fs, "median"), read_number(fs, "min"), read_number(fs, "max")};
    r.repeats = read_u64(j, "repeats");
    r.provenance = j.value("provenance", nlohmann::json());
    if (j.contains("capture_seconds")) r.capture_seconds = j.at("capture_seconds").get<double>();
    for (const auto& [name, m] : j.at("methods").items()) {
      MethodComparison mc;
      mc.name = name;
      mc.estimated_cycles = read_u64(m, "estimated_cycles");
      mc.full_cycles = r.full_cycles;
      mc.error_pct = m.at("error_pct").get<double>();
      mc.ipc_error_pct = m.at("ipc_error_pct").get<double>();
      mc.speedups = m.at("speedups").get<std::vector<double>>();
      mc.full_wall_seconds = m.at("full_seconds").get<double>();
      mc.sampled_wall_seconds = m.at("sampled_seconds").get<double>();
      mc.levels = m.at("levels").get<std::map<std::string, int>>();
      mc.fallback = m.at("fallback").get<bool>();
      mc.detailed_share = m.at("detailed_share").get<double>();
      mc.verified = m.at("verified").get<bool>();
      mc.speedup = {m.at("speedup").get<double>(), m.at("speedup_min").get<double>(), m.at("speedup_max").get<double>()};
      if (m.contains("mean_abs_cpi_error_pct")) mc.mean_abs_cpi_error_pct = m.at("mean_abs_cpi_error_pct").get<double>();
      mc.failure = m.value("failure", std::string());
      if (m.contains("one_shot_speedup")) mc.one_shot_speedup = m.at("one_shot_speedup").get<double>();
      r.methods.push_back(std::move(mc));
    }
    return r;
  } catch (const nlohmann::json::exception& e) {
    throw InputError(fmt::format("set run row: {}", e.what()));
  } catch (const InputError& e) {
    throw InputError(fmt::format("set run row: {}", e.what()));
  }
}

nlohmann::json to_json(const RunComparison& c) {
  nlohmann::json methods = nlohmann::json::object();
  for (const auto& m : c.methods) methods[m.name] = method_json(m);
  nlohmann::json j = c.reference;
  j["methods"] = methods;
  j["repeat"] = c.repeat;
  return j;
}

nlohmann::json to_json(const SetComparison& s) {
  nlohmann::json runs = nlohmann::json::array();
  for (const auto& r : s.runs) runs.push_back(set_run_json(r));
  nlohmann::json aggregates = nlohmann::json::object();
  for (const auto& [name, a] : s.aggregates) aggregates[name] = aggregate_json(a);
  return {{"set", s.set},         {"size", s.size},       {"description", s.description},
          {"arch", s.arch},       {"methods", s.methods}, {"repeat", s.repeat},
          {"runs", runs},         {"aggregates", aggregates}};
}

}  // namespace strobe::report
