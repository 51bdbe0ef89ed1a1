// The timing model's results as JSON (see timing_json.h).
#include "report/timing_json.h"

#include <string>

#include "timing/cu/compute_unit.h"

namespace strobe::report {

nlohmann::json timing_summary_json(const timing::StatsSnapshot& s, uint64_t cycles) {
  nlohmann::json j;
  nlohmann::json cpi = nlohmann::json::object();
  uint64_t cpi_total = 0;
  for (size_t r = 0; r < size_t(timing::CpiReason::COUNT); ++r)
    cpi_total += s.sum("cu.", std::string(".cpi.") + timing::cpi_name(timing::CpiReason(r)));
  for (size_t r = 0; r < size_t(timing::CpiReason::COUNT); ++r) {
    const uint64_t v = s.sum("cu.", std::string(".cpi.") + timing::cpi_name(timing::CpiReason(r)));
    cpi[timing::cpi_name(timing::CpiReason(r))] = {{"cycles", v}, {"fraction", cpi_total ? double(v) / double(cpi_total) : 0.0}};
  }
  j["cpi_stack"] = cpi;
  nlohmann::json units = nlohmann::json::object();
  for (const char* u : {"valu", "scalar", "vmem", "lds", "branch"})
    units[u] = {{"busy_cycles", s.sum("cu.", std::string(".busy.") + u)},
                {"instructions", s.sum("cu.", std::string(".issued.") + u)}};
  units["internal"] = {{"instructions", s.sum("cu.", ".issued.internal")}};
  j["units"] = units;
  nlohmann::json caches = nlohmann::json::object();
  for (const char* c : {"l1v", "scache", "l1i", "l2"}) {
    nlohmann::json e;
    for (const char* k : {"reads", "read_hits", "read_misses", "mshr_merges", "mshr_full", "writes", "write_hits",
                          "write_misses", "atomics", "writebacks", "evictions"})
      e[k] = s.sum(std::string(c) + ".", std::string(".") + k);
    const uint64_t reads = e["reads"];
    e["read_hit_rate"] = reads ? double(uint64_t(e["read_hits"])) / double(reads) : 0.0;
    caches[c] = e;
  }
  j["caches"] = caches;
  nlohmann::json dram;
  for (const char* k : {"reads", "writes", "bytes", "row_hits", "row_misses", "row_conflicts", "queue_cycles"})
    dram[k] = s.get(std::string("dram.") + k);
  dram["bandwidth_bytes_per_cycle"] = cycles ? double(s.get("dram.bytes")) / double(cycles) : 0.0;
  j["dram"] = dram;
  return j;
}

nlohmann::json launch_timing_json(const timing::LaunchTiming& t) {
  nlohmann::json j = timing_summary_json(t.stats, t.cycles);
  j["kernel"] = t.kernel;
  j["cycles"] = t.cycles;
  j["sim_seconds"] = t.sim_seconds;
  j["wave_instructions"] = t.wave_instructions;
  j["thread_instructions"] = t.thread_instructions;
  j["ipc"] = t.ipc;
  j["occupancy"] = {{"waves_per_simd", t.occupancy.waves_per_simd},
                    {"workgroups_per_cu", t.occupancy.workgroups_per_cu},
                    {"waves_per_cu", t.occupancy.waves_per_cu},
                    {"limiter", t.occupancy.limiter},
                    {"peak_waves_per_cu", t.peak_waves_per_cu}};
  j["ipc_trace"] = {{"interval_cycles", t.ipc_trace_interval}, {"ipc", t.ipc_trace}};
  j["counters"] = t.stats.to_json();
  return j;
}

}  // namespace strobe::report
