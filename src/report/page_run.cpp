// A run's section of the report page (see page.h): everything the page shows about one run
// report, computed from its JSON.
#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/core.h>

#include "common/error.h"
#include "report/json_read.h"
#include "report/page.h"

namespace strobe::report {

namespace {

using nlohmann::json;

double num(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : 0.0;
}

/// Bucket width for `points` buckets over `total` cycles: whole cycles, at least one.
double bucket_width(double total, size_t points) { return std::max(1.0, std::ceil(total / double(points))); }

/// The run's timeline: each launch's samples placed at its start on the run's cycle axis and
/// rebinned to at most kTimelinePoints buckets. Launches without a timeline (predicted, or
/// recorded with sim.timeline_interval=0) leave their buckets uncovered: IPC null there.
json timeline(const json& kernels, const std::vector<double>& starts, double total) {
  const double w = bucket_width(total, kTimelinePoints);
  const size_t n = total > 0 ? size_t(std::ceil(total / w)) : 0;
  std::vector<double> insts(n), covered(n), dispatched(n), retired(n);
  bool any = false;
  for (size_t i = 0; i < kernels.size(); ++i) {
    const json* t = kernels[i].contains("timing") ? &kernels[i]["timing"] : nullptr;
    if (!t || !t->contains("timeline")) continue;
    const json& tl = t->at("timeline");
    const double interval = num(tl, "interval_cycles"), cycles = num(kernels[i], "cycles");
    if (interval <= 0) continue;
    const json& wi = tl.at("wave_instructions");
    for (size_t s = 0; s < wi.size(); ++s) {
      const double from = starts[i] + double(s) * interval, to = starts[i] + std::min(double(s + 1) * interval, cycles);
      if (to <= from) break;
      any = true;
      spread_over(insts, w, from, to, wi.at(s).get<double>());
      spread_over(covered, w, from, to, to - from);
      spread_over(dispatched, w, from, to, tl.at("dispatched").at(s).get<double>());
      spread_over(retired, w, from, to, tl.at("retired").at(s).get<double>());
    }
  }
  if (!any) return nullptr;
  json t = json::array(), ipc = json::array();
  for (size_t b = 0; b < n; ++b) {
    t.push_back(double(b) * w);
    ipc.push_back(covered[b] > 0 ? json(insts[b] / covered[b]) : json());
  }
  return {{"bucket_cycles", w}, {"t", t}, {"ipc", ipc}, {"dispatched", dispatched}, {"retired", retired}};
}

/// Each CU's issue rate (wave instructions per cycle) over the run, at most kCuColumns columns.
json cu_map(const json& kernels, const std::vector<double>& starts, double total) {
  const double w = bucket_width(total, kCuColumns);
  const size_t n = total > 0 ? size_t(std::ceil(total / w)) : 0;
  size_t cus = 0;
  std::vector<std::vector<double>> insts;  // per CU, per column
  std::vector<double> covered(n);
  for (size_t i = 0; i < kernels.size(); ++i) {
    const json* t = kernels[i].contains("timing") ? &kernels[i]["timing"] : nullptr;
    if (!t || !t->contains("timeline")) continue;
    const json& tl = t->at("timeline");
    const double interval = num(tl, "cu_interval_cycles"), cycles = num(kernels[i], "cycles");
    const json& cols = tl.at("cu_wave_instructions");
    if (interval <= 0 || cols.empty()) continue;
    if (insts.empty()) cus = cols.at(0).size(), insts.assign(cus, std::vector<double>(n));
    for (size_t s = 0; s < cols.size(); ++s) {
      const double from = starts[i] + double(s) * interval, to = starts[i] + std::min(double(s + 1) * interval, cycles);
      if (to <= from) break;
      spread_over(covered, w, from, to, to - from);
      for (size_t c = 0; c < std::min(cus, cols.at(s).size()); ++c) spread_over(insts[c], w, from, to, cols.at(s).at(c).get<double>());
    }
  }
  if (insts.empty()) return nullptr;
  json t = json::array(), rate = json::array();
  for (size_t b = 0; b < n; ++b) t.push_back(double(b) * w);
  for (size_t c = 0; c < cus; ++c) {
    json row = json::array();
    for (size_t b = 0; b < n; ++b) row.push_back(covered[b] > 0 ? json(insts[c][b] / covered[b]) : json());
    rate.push_back(std::move(row));
  }
  return {{"cus", cus}, {"bucket_cycles", w}, {"t", t}, {"ipc", rate}};
}

/// Per CU and SIMD over every cycle the model simulated (the run summary's window, which
/// predicted launches never enter): VALU busy share and issue rate.
json simd_map(const json& run) {
  if (!run.contains("timing") || !run.at("timing").contains("utilisation")) return nullptr;
  const json& u = run.at("timing").at("utilisation");
  const double cycles = num(u, "cycles");
  const size_t cus = read_u64(u, "cus"), simds = read_u64(u, "simds");
  if (cus == 0 || simds == 0 || cycles <= 0) return nullptr;
  // The counts must be the arrays' shape: a damaged count would size the map by itself.
  for (const char* key : {"valu_busy", "issued"}) {
    const json& a = u.at(key);
    if (!a.is_array() || a.size() != cus)
      throw InputError(fmt::format("timing.utilisation: '{}' holds {} CUs, not the {} 'cus' says", key,
                                   a.is_array() ? a.size() : 0, cus));
    for (const json& row : a)
      if (!row.is_array() || row.size() != simds)
        throw InputError(fmt::format("timing.utilisation: a CU of '{}' holds {} SIMDs, not the {} 'simds' says", key,
                                     row.is_array() ? row.size() : 0, simds));
  }
  std::vector<std::vector<double>> busy(cus, std::vector<double>(simds)), issued = busy;
  for (size_t c = 0; c < cus; ++c)
    for (size_t s = 0; s < simds; ++s) {
      busy[c][s] = u.at("valu_busy").at(c).at(s).get<double>() / cycles;
      issued[c][s] = u.at("issued").at(c).at(s).get<double>() / cycles;
    }
  return {{"cus", cus}, {"simds", simds}, {"cycles", cycles}, {"valu_busy", busy}, {"issue", issued}};
}

/// True when some cache saw an access: a run with no detailed launch (analytical, say) has
/// only zeros, which is nothing to show.
bool any_access(const json& caches) {
  for (const auto& [level, c] : caches.items())
    if (num(c, "reads") + num(c, "writes") + num(c, "atomics") > 0) return true;
  return false;
}

/// Sums cache and DRAM counters over the launches (the run's own summary when it has one).
json memory_totals(const json& run) {
  if (run.contains("timing") && run["timing"].contains("caches")) {
    const json& t = run.at("timing");
    if (!any_access(t.at("caches"))) return nullptr;
    return {{"caches", t.at("caches")}, {"dram", t.value("dram", json::object())}, {"tlb", t.value("tlb", json())}};
  }
  json caches = json::object(), dram = json::object();
  for (const json& k : run.at("kernels")) {
    if (!k.contains("timing")) continue;
    // Copies, not temporaries: items() refers to the object it iterates.
    const json cs = k.at("timing").value("caches", json::object()), ds = k.at("timing").value("dram", json::object());
    for (const auto& [level, c] : cs.items())
      for (const auto& [f, v] : c.items()) {
        json& sum = caches[level];
        if (sum.is_null()) sum = json::object();
        if (f != "read_hit_rate") sum[f] = sum.value(f, 0.0) + v.get<double>();
      }
    for (const auto& [f, v] : ds.items())
      if (f != "bandwidth_bytes_per_cycle") dram[f] = dram.value(f, 0.0) + v.get<double>();
  }
  for (auto& [level, c] : caches.items()) {
    const double reads = c.value("reads", 0.0);
    c["read_hit_rate"] = reads > 0 ? c.value("read_hits", 0.0) / reads : 0.0;
  }
  if (caches.empty() || !any_access(caches)) return nullptr;
  return {{"caches", caches}, {"dram", dram}};
}

/// Per kernel name: launches, cycles, instructions, CPI stack cycles and L1V/L2 read hit rates.
json kernel_rows(const json& kernels, json& categories) {
  std::map<std::string, json> by;
  std::vector<std::string> order;
  for (const json& k : kernels) {
    const std::string name = k.value("name", "?");
    if (!by.count(name)) order.push_back(name), by[name] = {{"name", name}, {"launches", 0}, {"cycles", 0.0},
                                                            {"wave_instructions", 0.0}, {"cpi", json::object()}};
    json& r = by[name];
    r["launches"] = r["launches"].get<int>() + 1;
    r["cycles"] = r["cycles"].get<double>() + num(k, "cycles");
    r["wave_instructions"] = r["wave_instructions"].get<double>() + num(k, "wave_instructions");
    // An analytical (GPUMech) launch carries the model's CPI stack: kept per kernel as cycles
    // (CPI x instructions), divided back into a CPI when the rows are made.
    if (k.contains("sampling") && k.at("sampling").contains("detail")) {
      const json cpi = k.at("sampling").at("detail").value("cpi", json());
      if (cpi.is_object() && cpi.contains("stack")) {
        if (!r.contains("model_cpi")) r["model_cpi"] = json::object(), r["model_instructions"] = 0.0;
        const double insts = num(k, "wave_instructions");
        r["model_instructions"] = r["model_instructions"].get<double>() + insts;
        for (const auto& [cat, v] : cpi.at("stack").items())
          r["model_cpi"][cat] = r["model_cpi"].value(cat, 0.0) + v.get<double>() * insts;
      }
    }
    if (!k.contains("timing")) continue;
    const json stack = k.at("timing").value("cpi_stack", json::object());
    for (const auto& [cat, v] : stack.items()) {
      if (std::find(categories.begin(), categories.end(), cat) == categories.end()) categories.push_back(cat);
      r["cpi"][cat] = r["cpi"].value(cat, 0.0) + num(v, "cycles");
    }
    for (const char* level : {"l1v", "l2"}) {
      const json c = k.at("timing").value("caches", json::object()).value(level, json::object());
      r[std::string(level) + "_reads"] = r.value(std::string(level) + "_reads", 0.0) + num(c, "reads");
      r[std::string(level) + "_hits"] = r.value(std::string(level) + "_hits", 0.0) + num(c, "read_hits");
    }
  }
  json rows = json::array();
  for (const std::string& n : order) {
    json& r = by[n];
    if (r.contains("model_cpi") && r["model_instructions"].get<double>() > 0)
      for (auto& [cat, v] : r["model_cpi"].items()) v = v.get<double>() / r["model_instructions"].get<double>();
    rows.push_back(std::move(r));
  }
  return rows;
}

}  // namespace

json interval_of(const json& sampling_summary) {
  const json ms = sampling_summary.value("method_summary", json::object());
  return ms.is_object() ? ms.value("interval", json()) : json();
}

void spread_over(std::vector<double>& buckets, double width, double from, double to, double count) {
  if (to <= from || buckets.empty()) return;
  const double density = count / (to - from);
  size_t b = size_t(std::max(0.0, std::floor(from / width)));
  for (; b < buckets.size(); ++b) {
    const double lo = std::max(from, double(b) * width), hi = std::min(to, double(b + 1) * width);
    if (hi <= lo) break;
    buckets[b] += density * (hi - lo);
  }
}

json run_section(const std::string& name, const json& run) {
  const json& kernels = run.at("kernels");
  // Launches run one after another on the run's cycle axis; a predicted launch takes the
  // cycles its method estimated.
  std::vector<double> starts;
  json launches = json::array();
  double at = 0;
  for (const json& k : kernels) {
    starts.push_back(at);
    const double cycles = num(k, "cycles");
    json l = {{"launch", k.value("launch", launches.size())}, {"kernel", k.value("name", "?")}, {"start", at},
              {"cycles", cycles}, {"wave_instructions", num(k, "wave_instructions")}};
    if (k.contains("sampling")) {
      const json& s = k.at("sampling");
      l["level"] = s.value("level", "?");
      for (const char* f : {"detailed_instructions", "predicted_instructions", "functional_instructions"}) l[f] = num(s, f);
      l["detail"] = s.value("detail", json::object());
    } else {
      l["level"] = k.contains("timing") ? "detailed" : "functional";
    }
    launches.push_back(std::move(l));
    at += cycles;
  }
  json categories = json::array();
  json s = {{"kind", "run"},
            {"name", name},
            {"benchmark", run.value("benchmark", "?")},
            {"arch", run.value("arch", "?")},
            {"mode", run.value("mode", "?")},
            {"sampling", run.value("sampling", "none")},
            {"verified", run.value("verified", false)},
            {"wall_seconds", num(run, "wall_seconds")},
            {"params", run.value("params", json::object())},
            {"cycles", num(run, "cycles")},
            {"wave_instructions", num(run, "wave_instructions")},
            {"ipc", num(run, "ipc")},
            {"launches", launches}};
  s["kernels"] = kernel_rows(kernels, categories);
  s["cpi_categories"] = categories;
  s["timeline"] = timeline(kernels, starts, at);
  s["cu_map"] = cu_map(kernels, starts, at);
  s["simd_map"] = simd_map(run);
  s["memory"] = memory_totals(run);
  if (run.contains("sampling_summary")) {
    s["sampling_summary"] = run.at("sampling_summary");
    const json iv = interval_of(run.at("sampling_summary"));
    if (!iv.is_null()) s["interval"] = iv;
  }
  if (run.contains("config")) s["config"] = config_rows(run.at("config"), run.value("arch", ""));
  return s;
}

}  // namespace strobe::report
