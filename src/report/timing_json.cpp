// The timing model's results as JSON (see timing_json.h).
#include "report/timing_json.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "timing/cu/compute_unit.h"

namespace strobe::report {

namespace {

/// Per CU and per SIMD: instructions issued and VALU busy cycles, from the `cu.C.simd.S.*`
/// counters; {"cus", "simds", "issued": [[...] per CU], "valu_busy": [[...] per CU]}.
nlohmann::json utilisation_json(const timing::StatsSnapshot& s) {
  struct Value {
    unsigned cu, simd;
    bool busy;
    uint64_t v;
  };
  std::vector<Value> found;
  uint32_t cus = 0, simds = 0;
  for (size_t i = 0; i < s.names().size(); ++i) {
    unsigned c = 0, k = 0;
    char tail[16] = {};
    if (std::sscanf(s.names()[i].c_str(), "cu.%u.simd.%u.%15s", &c, &k, tail) != 3) continue;
    const std::string t = tail;
    if (t != "issued" && t != "valu_busy") continue;
    found.push_back({c, k, t == "valu_busy", s.values()[i]});
    cus = std::max(cus, uint32_t(c + 1)), simds = std::max(simds, uint32_t(k + 1));
  }
  std::vector<std::vector<uint64_t>> issued(cus, std::vector<uint64_t>(simds)), busy = issued;
  for (const Value& f : found) (f.busy ? busy : issued)[f.cu][f.simd] = f.v;
  return {{"cus", cus}, {"simds", simds}, {"issued", issued}, {"valu_busy", busy}};
}

/// A launch's timeline; the per-CU series is merged to at most 16 columns (a
/// power-of-two number of timeline samples each), which is all a heat map can show.
nlohmann::json timeline_json(const timing::Timeline& t) {
  constexpr size_t kCuColumns = 16;
  const size_t n = t.samples();
  size_t f = 1;
  while ((n + f - 1) / f > kCuColumns) f *= 2;
  std::vector<std::vector<uint64_t>> cu((n + f - 1) / f, std::vector<uint64_t>(t.cus));
  for (size_t i = 0; i < n; ++i)
    for (size_t c = 0; c < t.cus; ++c) cu[i / f][c] += t.cu_wave_instructions[i * t.cus + c];
  return {{"interval_cycles", t.interval},
          {"wave_instructions", t.wave_instructions},
          {"dispatched", t.dispatched},
          {"retired", t.retired},
          {"cu_interval_cycles", t.interval * f},
          {"cu_wave_instructions", cu}};
}

}  // namespace

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
  for (const char* u : {"valu", "scalar", "vmem", "lds", "branch", "export"})
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
  j["utilisation"] = utilisation_json(s);
  j["utilisation"]["cycles"] = cycles;
  // Address translation, when modelled (tlb.enabled=on): per path, and the shared level.
  if (std::find(s.names().begin(), s.names().end(), "tlb.l2.hits") != s.names().end()) {
    nlohmann::json tlb;
    for (const char* path : {"vector", "scalar", "instr"})
      for (const char* k : {"lookups", "hits", "misses", "wait_cycles"})
        tlb[path][k] = s.sum(std::string("tlb.") + path + ".", std::string(".") + k);
    tlb["l2"] = {{"hits", s.get("tlb.l2.hits")}, {"misses", s.get("tlb.l2.misses")},
                 {"walk_wait_cycles", s.get("tlb.walk_wait_cycles")}};
    j["tlb"] = tlb;
  }
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
  j["timeline"] = timeline_json(t.timeline);
  // Per SIMD, a launch adds 2 numbers per SIMD of the GPU to every launch's record; the run's
  // summary keeps the map over all its detailed cycles, which is what a reader looks at.
  j.erase("utilisation");
  j["counters"] = t.stats.to_json();
  return j;
}

nlohmann::json frame_timing_json(const timing::FrameTiming& t) {
  nlohmann::json j = timing_summary_json(t.stats, t.cycles);
  j["frame"] = t.frame;
  j["cycles"] = t.cycles;
  j["sim_seconds"] = t.sim_seconds;
  j["wave_instructions"] = t.wave_instructions;
  j["thread_instructions"] = t.thread_instructions;
  j["ipc"] = t.cycles ? double(t.wave_instructions) / double(t.cycles) : 0.0;
  j["phase_ends"] = t.phase_ends;
  // The fixed-function stages: their counters, and each stage's busy share of the frame (the
  // rasteriser's and blender's summed over tile units, so up to gfx.tile_units).
  nlohmann::json p = nlohmann::json::object();
  const auto& names = t.stats.names();
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i].rfind("gfx.", 0) == 0) p[names[i].substr(4)] = t.stats.values()[i];
  const double c = t.cycles ? double(t.cycles) : 1.0;
  p["busy_fraction"] = {{"setup", double(t.stats.get("gfx.setup_busy")) / c},
                        {"raster", double(t.stats.get("gfx.raster_busy")) / c},
                        {"blend", double(t.stats.get("gfx.blend_busy")) / c}};
  j["pipeline"] = p;
  return j;
}

}  // namespace strobe::report
