// The report page's model (see page.h): which kind of result each input is, and the sections
// of comparisons, sets and sweeps. Run sections are page_run.cpp's.
#include "report/page.h"

#include <cmath>
#include <map>
#include <set>

#include <fmt/core.h>

#include "common/error.h"
#include "report/json_read.h"
#include "timing/config/gpu_config.h"

namespace strobe::report {

namespace {

using nlohmann::json;

void flatten(const json& j, const std::string& prefix, std::map<std::string, json>& out) {
  for (const auto& [k, v] : j.items()) {
    const std::string key = prefix.empty() ? k : prefix + "." + k;
    if (v.is_object()) flatten(v, key, out);
    else out[key] = v;
  }
}

/// One method's point on an error-versus-speedup plot, with what a reader needs beside it.
json method_point(const std::string& method, const std::string& label, const json& m) {
  json p = {{"method", method},
            {"label", label},
            {"error_pct", m.value("error_pct", json())},
            {"speedup", m.value("speedup", json())},
            {"speedup_min", m.value("speedup_min", json())},
            {"speedup_max", m.value("speedup_max", json())},
            {"fallback", m.value("fallback", false)}};
  return p;
}

/// GPUMech's (or any method's) per-launch CPI stacks beside detail's, summed per kernel name
/// weighted by each launch's instructions, so the bars are the kernel's CPI by category.
json cpi_pairs(const std::string& method, const json& m, const json& reference) {
  struct Acc {
    double insts = 0;
    std::vector<std::string> cats;
    std::map<std::string, double> predicted, detailed;
    std::set<std::string> unmodelled;
  };
  std::map<std::string, Acc> by;
  std::vector<std::string> order;
  const json& ks = m.value("kernels", json::array());
  for (size_t i = 0; i < ks.size(); ++i) {
    const json& k = ks[i];
    if (!k.contains("cpi")) continue;
    const std::string name = k.value("name", "?");
    const size_t launch = k.value("launch", i);
    const double insts = launch < reference.size() ? reference.at(launch).value("wave_instructions", 0.0) : 0.0;
    if (!by.count(name)) order.push_back(name);
    Acc& a = by[name];
    a.insts += insts;
    for (const json& c : k.at("cpi").at("stack")) {
      const std::string cat = c.value("category", "?");
      if (std::find(a.cats.begin(), a.cats.end(), cat) == a.cats.end()) a.cats.push_back(cat);
      if (c.value("modelled", false)) a.predicted[cat] += c.value("predicted", 0.0) * insts;
      else a.unmodelled.insert(cat);
      a.detailed[cat] += c.value("detailed", 0.0) * insts;
    }
  }
  json rows = json::array();
  for (const std::string& name : order) {
    const Acc& a = by[name];
    if (a.insts <= 0) continue;
    json cats = json::array();
    for (const std::string& c : a.cats)
      cats.push_back({{"category", c},
                      {"detailed", a.detailed.count(c) ? a.detailed.at(c) / a.insts : 0.0},
                      {"predicted", a.unmodelled.count(c) ? json() : json(a.predicted.count(c) ? a.predicted.at(c) / a.insts : 0.0)}});
    rows.push_back({{"kernel", name}, {"method", method}, {"categories", cats}});
  }
  return rows;
}

json compare_section(const std::string& name, const json& c) {
  json methods = json::array(), points = json::array(), cpi = json::array(), launches = json::object();
  const json& reference = c.at("kernels");
  for (const auto& [m, e] : c.at("methods").items()) {
    json row = method_point(m, m, e);
    for (const char* f : {"estimated_cycles", "full_cycles", "ipc_error_pct", "detailed_share", "verified", "levels",
                          "repeats", "mean_abs_cpi_error_pct"})
      if (e.contains(f)) row[f] = e[f];
    if (e.contains("sampling")) row["interval"] = interval_of(e.at("sampling"));
    methods.push_back(row);
    points.push_back(method_point(m, m, e));
    for (json& p : cpi_pairs(m, e, reference)) cpi.push_back(std::move(p));
    // Each launch's level and estimate under this method, to draw over the full run's launches.
    json ls = json::array();
    for (const json& k : e.value("kernels", json::array()))
      ls.push_back({{"launch", k.value("launch", ls.size())}, {"level", k.value("level", "?")},
                    {"estimated_cycles", k.value("estimated_cycles", 0.0)}, {"full_cycles", k.value("full_cycles", 0.0)},
                    {"error_pct", k.value("error_pct", json())}, {"detail", k.value("detail", json::object())}});
    launches[m] = ls;
  }
  return {{"kind", "compare"}, {"name", name}, {"benchmark", c.value("benchmark", "?")},
          {"full_cycles", c.value("cycles", 0.0)}, {"repeat", c.value("repeat", 1)}, {"methods", methods},
          {"points", points}, {"cpi_pairs", cpi}, {"method_launches", launches}};
}

json set_section(const std::string& name, const json& s) {
  json points = json::array(), runs = json::array();
  for (const json& r : s.at("runs")) {
    std::string label = r.value("benchmark", "?");
    for (const json& a : r.value("args", json::array())) label += " " + a.get<std::string>();
    runs.push_back({{"label", label}, {"full_cycles", r.value("full_cycles", 0.0)}, {"launches", r.value("launches", 0)}});
    const json ms = r.value("methods", json::object());  // iterated below: must outlive items()
    for (const auto& [m, e] : ms.items())
      if (!e.contains("failure")) points.push_back(method_point(m, label, e));  // a failed method has no point
  }
  return {{"kind", "set"}, {"name", name}, {"set", s.value("set", "?")}, {"arch", s.value("arch", "?")},
          {"repeat", s.value("repeat", 1)}, {"runs", runs}, {"points", points},
          {"aggregates", s.value("aggregates", json::object())}};
}

json sweep_section(const std::string& name, const json& t) {
  // A row holds the task's fields, its grid point and METHOD.FIELD columns per method.
  static const std::set<std::string> fixed = {"task", "benchmark", "params", "cycles", "wave_instructions", "wall_seconds"};
  std::vector<std::string> grid, methods;
  auto add = [](std::vector<std::string>& v, const std::string& x) {
    if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
  };
  // The methods are those with an error column; a grid key (possibly dotted: l2.size_kb) is any
  // other column that is not one of the task's own or a method's.
  for (const json& row : t.at("rows"))
    for (const auto& [k, v] : row.items())
      if (const size_t dot = k.rfind('.'); dot != std::string::npos && k.substr(dot) == ".error_pct")
        add(methods, k.substr(0, dot));
  for (const json& row : t.at("rows"))
    for (const auto& [k, v] : row.items()) {
      const size_t dot = k.rfind('.');
      const bool method_field = dot != std::string::npos &&
                                std::find(methods.begin(), methods.end(), k.substr(0, dot)) != methods.end();
      if (!fixed.count(k) && !method_field) add(grid, k);
    }
  json points = json::array();
  for (const json& row : t.at("rows")) {
    std::string label = row.value("benchmark", "?");
    for (const std::string& g : grid)
      if (row.contains(g)) label += fmt::format(" {}={}", g, row.at(g).is_string() ? row.at(g).get<std::string>() : row.at(g).dump());
    for (const std::string& m : methods) {
      json e = {{"error_pct", row.value(m + ".error_pct", json())}, {"speedup", row.value(m + ".speedup", json())},
                {"fallback", row.value(m + ".fallback", false)}};
      if (e["error_pct"].is_null()) continue;
      json p = method_point(m, label, e);
      p["estimated_cycles"] = row.value(m + ".estimated_cycles", json());
      p["full_cycles"] = row.value("cycles", json());
      points.push_back(std::move(p));
    }
  }
  // The table's columns in the CSV's order: the task, its grid point, full detail, each method.
  json columns = {"task", "benchmark", "params"};
  for (const std::string& g : grid) columns.push_back(g);
  for (const char* f : {"cycles", "wave_instructions", "wall_seconds"}) columns.push_back(f);
  for (const std::string& m : methods)
    for (const char* f : {"estimated_cycles", "error_pct", "speedup", "fallback"}) columns.push_back(m + "." + f);
  return {{"kind", "sweep"}, {"name", name}, {"spec", t.value("spec", "")}, {"grid", grid}, {"methods", methods},
          {"columns", columns},
          {"rows", t.at("rows")}, {"points", points}, {"missing", t.value("missing", json::array())},
          {"failed", t.value("failed", json::array())}};
}

}  // namespace

json config_rows(const json& config, const std::string& arch) {
  std::map<std::string, json> have, preset;
  flatten(config, "", have);
  bool known = false;
  try {
    flatten(timing::to_json(timing::load_config(arch)), "", preset);
    known = true;
  } catch (const Error&) {
    // A configuration file that is no longer there: the values stay, without a baseline.
  }
  json rows = json::array();
  for (const auto& [k, v] : have) {
    const auto it = preset.find(k);
    const json base = known && it != preset.end() ? it->second : json();
    rows.push_back({{"key", k}, {"value", v}, {"preset", base}, {"changed", known && base != v}});
  }
  return rows;
}

/// MEGsim's selection as a report draws it: the clusters, the cluster of each frame in `index`
/// (the frames plotted), the BIC scan and the similarity matrix.
json megsim_view(const json& m, const json& index) {
  json clusters = json::array();
  for (const json& c : m.at("clusters"))
    clusters.push_back({{"representative", c.at("representative")}, {"size", c.at("size")},
                        {"first", c.at("frames").front()}, {"last", c.at("frames").back()}});
  // Each plotted frame's cluster, for the strip under the similarity matrix.
  std::map<uint64_t, size_t> cluster_of;
  for (size_t c = 0; c < m.at("clusters").size(); ++c)
    for (const json& f : m["clusters"][c].at("frames")) cluster_of[f.get<uint64_t>()] = c;
  json labels = json::array();
  for (const json& f : index) labels.push_back(cluster_of.count(f.get<uint64_t>()) ? json(cluster_of[f.get<uint64_t>()]) : json());
  return {{"k", m.at("k")}, {"frame_reduction", m.at("frame_reduction")}, {"bic", m.at("bic")},
          {"clusters", clusters}, {"cluster_of_frame", labels},
          {"similarity", m.at("similarity")}, {"estimate_note", m.value("estimate_note", "")}};
}

/// At most 1,500 evenly spaced positions of `n`: the frames a per-frame chart plots.
size_t frame_step(size_t n) { return std::max<size_t>(1, (n + 1499) / 1500); }

/// A graphics run (`strobe run gfx:... --json`): each frame's work, thinned to at most 1,500
/// points, its cycles when the run timed it, and MEGsim's frame selection when the run made one.
json frames_section(const std::string& name, const json& r) {
  const json& frames = r.at("frames");
  const size_t n = frames.size(), step = frame_step(n);
  json index = json::array(), fragments = json::array(), shader = json::array(), draws = json::array(),
       cycles = json::array(), geometry = json::array(), tiles = json::array();
  json cpi = json::object(), busy = json::object();
  bool timed = false;
  auto wave_instructions = [](const json& programs) {
    double sum = 0;
    for (const auto& [name, c] : programs.items()) sum += c.value("wave_instructions", 0.0);
    return sum;
  };
  for (size_t i = 0; i < n; i += step) {
    const json& f = frames[i];
    index.push_back(f.value("frame", i));
    fragments.push_back(f.value("fragments", 0));
    draws.push_back(f.value("draws", 0));
    shader.push_back(wave_instructions(f.value("vertex_shaders", json::object())) +
                     wave_instructions(f.value("pixel_shaders", json::object())));
    const bool has = f.contains("timing") && f["timing"].contains("cycles");
    timed = timed || has;
    cycles.push_back(has ? f["timing"]["cycles"] : json());
    // Where the frame's time went: the geometry and tile phases, the shader cores' CPI stack
    // (fractions of the frame's issue slots) and each fixed-function stage's busy share.
    const json t = has ? f["timing"] : json::object();
    const json pipeline = t.value("pipeline", json::object());
    geometry.push_back(pipeline.value("geometry_cycles", json()));
    tiles.push_back(pipeline.value("tile_cycles", json()));
    const size_t at = index.size() - 1;
    const json stack = t.value("cpi_stack", json::object()), fractions = pipeline.value("busy_fraction", json::object());
    for (const auto& [category, v] : stack.items()) {
      if (!cpi.contains(category)) cpi[category] = json::array();
      while (cpi[category].size() < at) cpi[category].push_back(nullptr);
      cpi[category].push_back(v.value("fraction", 0.0));
    }
    for (const auto& [stage, v] : fractions.items()) {
      if (!busy.contains(stage)) busy[stage] = json::array();
      while (busy[stage].size() < at) busy[stage].push_back(nullptr);
      busy[stage].push_back(v);
    }
  }
  for (json* series : {&cpi, &busy})
    for (auto& [name, values] : series->items())
      while (values.size() < index.size()) values.push_back(nullptr);
  json out = {{"kind", "frames"}, {"name", name}, {"workload", r.value("workload", "?")},
              {"frames", n}, {"step", step}, {"frame", index}, {"fragments", fragments},
              {"shader_instructions", shader}, {"draws", draws}};
  if (timed) {
    out["cycles"] = cycles;
    out["geometry_cycles"] = geometry;
    out["tile_cycles"] = tiles;
    out["cpi"] = cpi;
    out["busy"] = busy;
  }
  if (r.contains("sampling") && r["sampling"].value("method", "") == "megsim")
    out["megsim"] = megsim_view(r["sampling"], index);
  return out;
}

/// A graphics comparison (`strobe compare gfx:... --json`): full detail's cycles per frame,
/// thinned, with the frames each method simulated at their full-detail cycles; each method's
/// estimates, errors, speedups and interval; and MEGsim's selection.
json frame_compare_section(const std::string& name, const json& r) {
  const json& per = r.at("reference").at("per_frame");
  const size_t n = per.size(), step = frame_step(n);
  std::map<uint64_t, double> cycles_of;
  for (const json& f : per) cycles_of[f.at("frame").get<uint64_t>()] = f.at("cycles").get<double>();
  json index = json::array(), cycles = json::array();
  for (size_t i = 0; i < n; i += step) {
    index.push_back(per[i].at("frame"));
    cycles.push_back(per[i].at("cycles"));
  }
  json methods = json::array();
  const json& all = r.at("methods");
  for (auto it = all.begin(); it != all.end(); ++it) {
    const json& m = it.value();
    json simulated = json::array();
    for (const json& f : m.value("representative_frames", json::array())) {
      const auto c = cycles_of.find(f.get<uint64_t>());
      simulated.push_back({{"frame", f}, {"cycles", c != cycles_of.end() ? json(c->second) : json()}});
    }
    json interval = {{"kind", m.value("interval", json::object()).value("kind", "none")},
                     {"text", m.value("interval", json::object()).value("text", "")}};
    if (m.contains("intervals")) {
      const json& c = m["intervals"].at("cycles");
      const double t = c.at("total").get<double>(), h = c.at("half_width").get<double>();
      interval["low"] = t - h;
      interval["high"] = t + h;
      interval["confidence"] = m.value("confidence", 0.95);
    }
    methods.push_back({{"method", it.key()},
                       {"frames_simulated", m.at("frames_simulated")},
                       {"estimate", m.at("estimate")},
                       {"errors", m.at("errors")},
                       {"speedup", m.value("speedup", json())},
                       {"speedup_cpu", m.value("speedup_cpu", json())},
                       {"simulated", simulated},
                       {"interval", interval}});
  }
  const json& ref = r.at("reference");
  // Simulated in the comparison's own process, or read from earlier runs' files.
  const json source = ref.value("source", json("simulated in this process"));
  json out = {{"kind", "frame-compare"}, {"name", name}, {"workload", r.value("workload", "?")},
              {"frames", n}, {"step", step}, {"frame", index}, {"cycles", cycles},
              {"totals", ref.at("totals")}, {"seconds", ref.value("seconds", 0.0)},
              {"cpu_seconds", ref.value("cpu_seconds", json())},
              {"source", source.is_string() ? source
                                            : json(fmt::format("{} earlier runs", source.value("runs", json::array()).size()))},
              {"methods", methods}};
  if (all.contains("megsim") && all["megsim"].contains("clusters")) out["megsim"] = megsim_view(all["megsim"], index);
  return out;
}

namespace {

/// The non-negative integer at `key` of `j`, or nothing where `j` leaves it out or null.
void check_u64_if(const json& j, const std::string& key) {
  if (j.contains(key) && !j.at(key).is_null()) read_u64(j, key.c_str());
}

/// The number at `key` of `j`, or nothing where `j` leaves it out or null.
void check_number_if(const json& j, const std::string& key) {
  if (j.contains(key) && !j.at(key).is_null()) read_number(j, key.c_str());
}

/// `what` prefixed to an InputError that `check` throws.
template <class F>
void within(const std::string& what, F check) {
  try {
    check();
  } catch (const InputError& e) {
    throw InputError(fmt::format("{}: {}", what, e.what()));
  }
}

/// Refuses a run or compare report whose counts or mode no strobe run writes: a cycle total of
/// "many" or -5 would otherwise be drawn as 0, and an unknown mode as if it were one.
void check_run_result(const json& r) {
  const std::string mode = r.at("mode").is_string() ? r.at("mode").get<std::string>() : r.at("mode").dump();
  if (mode != "functional" && mode != "timing" && mode != "analytical")
    throw InputError(fmt::format("mode '{}' is not functional, timing or analytical", mode));
  for (const char* key : {"cycles", "wave_instructions"})
    if (r.contains(key)) read_u64(r, key);
  for (size_t i = 0; i < r.at("kernels").size(); ++i) {
    const json& k = r.at("kernels")[i];
    within(fmt::format("kernels[{}]", i), [&] {
      if (!k.is_object()) throw InputError("not an object");
      for (const char* key : {"cycles", "wave_instructions", "workgroups"})
        if (k.contains(key)) read_u64(k, key);
    });
  }
  if (r.contains("methods") && r.at("methods").is_object())
    for (const auto& [name, m] : r.at("methods").items())
      if (m.is_object() && m.contains("estimated_cycles"))
        within("method " + name, [&] { read_u64(m, "estimated_cycles"); });
}

/// One method's entry of a comparison row: a failure's reason, or its estimate, error and speedup.
void check_method_entry(const json& m) {
  if (!m.is_object()) throw InputError("not an object");
  if (m.contains("failure")) {
    if (!m.at("failure").is_string()) throw InputError(fmt::format("'failure' is {}, not text", m.at("failure").dump()));
    return;
  }
  read_number(m, "error_pct");
  check_u64_if(m, "estimated_cycles");
  for (const char* key : {"speedup", "speedup_min", "speedup_max", "ipc_error_pct", "detailed_share"})
    check_number_if(m, key);
  if (m.contains("fallback") && !m.at("fallback").is_boolean())
    throw InputError(fmt::format("'fallback' is {}, not true or false", m.at("fallback").dump()));
}

/// Refuses a set comparison whose runs or methods hold values no set comparison writes.
void check_set_result(const json& s) {
  if (!s.at("runs").is_array()) throw InputError("'runs' is not a list");
  for (size_t i = 0; i < s.at("runs").size(); ++i) {
    const json& r = s.at("runs")[i];
    within(fmt::format("runs[{}]", i), [&] {
      if (!r.is_object()) throw InputError("not an object");
      if (!r.value("benchmark", json()).is_string()) throw InputError("'benchmark' is missing or not text");
      read_u64(r, "full_cycles");
      check_u64_if(r, "launches");
      check_u64_if(r, "wave_instructions");
      if (!r.value("methods", json()).is_object()) throw InputError("'methods' is missing or not an object");
      for (const auto& [name, m] : r.at("methods").items()) within("method " + name, [&] { check_method_entry(m); });
    });
  }
}

/// Refuses a sweep table whose rows hold values no `strobe sweep --collect` writes.
void check_sweep_table(const json& t) {
  if (!t.at("rows").is_array()) throw InputError("'rows' is not a list");
  for (size_t i = 0; i < t.at("rows").size(); ++i) {
    const json& row = t.at("rows")[i];
    within(fmt::format("rows[{}]", i), [&] {
      if (!row.is_object()) throw InputError("not an object");
      for (const char* key : {"cycles", "wave_instructions"}) check_u64_if(row, key);
      check_number_if(row, "wall_seconds");
      for (const auto& [k, v] : row.items()) {
        const size_t dot = k.rfind('.');
        if (dot == std::string::npos) continue;
        const std::string field = k.substr(dot + 1);
        if (field == "estimated_cycles") check_u64_if(row, k);
        else if (field == "error_pct" || field == "speedup") check_number_if(row, k);
      }
    });
  }
}

/// Refuses a graphics run whose frames hold counts no graphics run writes.
void check_frames_result(const json& r) {
  for (size_t i = 0; i < r.at("frames").size(); ++i) {
    const json& f = r.at("frames")[i];
    within(fmt::format("frames[{}]", i), [&] {
      if (!f.is_object()) throw InputError("not an object");
      for (const char* key : {"frame", "fragments", "draws"}) check_u64_if(f, key);
      if (f.contains("timing") && f.at("timing").contains("cycles")) within("timing", [&] { read_whole(f.at("timing"), "cycles"); });
    });
  }
}

/// Refuses a graphics comparison whose reference frames or methods hold values none writes.
void check_frame_comparison(const json& r) {
  const json& per = r.at("reference").at("per_frame");
  if (!per.is_array()) throw InputError("'reference.per_frame' is not a list");
  for (size_t i = 0; i < per.size(); ++i)
    within(fmt::format("reference.per_frame[{}]", i), [&] {
      read_u64(per[i], "frame");
      read_whole(per[i], "cycles");
    });
  if (!r.at("methods").is_object()) throw InputError("'methods' is not an object");
  for (const auto& [name, m] : r.at("methods").items())
    within("method " + name, [&] {
      if (!m.is_object()) throw InputError("not an object");
      read_u64(m, "frames_simulated");
      check_number_if(m, "speedup");
      for (const json& f : m.value("representative_frames", json::array()))
        if (!is_count(f))
          throw InputError(fmt::format("a representative frame is {}, not a frame number", f.dump()));
    });
}

}  // namespace

json report_page(const std::vector<PageInput>& inputs) {
  json sections = json::array();
  for (const PageInput& in : inputs) {
    const json& r = in.result;
    try {
      if (!r.is_object()) throw InputError("not a JSON object");
      if (r.contains("set") && r.contains("runs") && r.contains("aggregates")) {
        check_set_result(r);
        sections.push_back(set_section(in.name, r));
      } else if (r.contains("frames") && r.contains("workload") && r["frames"].is_array()) {
        check_frames_result(r);
        sections.push_back(frames_section(in.name, r));
      } else if (r.contains("workload") && r.contains("reference") && r.contains("methods") &&
                 r["reference"].contains("per_frame")) {
        check_frame_comparison(r);
        sections.push_back(frame_compare_section(in.name, r));
      } else if (r.contains("rows") && r.contains("spec")) {
        check_sweep_table(r);
        sections.push_back(sweep_section(in.name, r));
      } else if (r.contains("kernels") && r.contains("mode") && r["kernels"].is_array()) {
        check_run_result(r);
        if (r.contains("methods") && r["methods"].is_object()) {
          // The reference names the methods compared with it, but ran none of them.
          json full = r;
          full["sampling"] = "none";
          sections.push_back(run_section(in.name + " (full detail)", full));
          sections.push_back(compare_section(in.name, r));
        } else {
          sections.push_back(run_section(in.name, r));
        }
      } else {
        throw InputError("not a strobe result: expected a run or compare report (strobe run/compare --json), a "
                         "graphics run or comparison (strobe run/compare gfx:... --json), a set comparison or a sweep table (strobe "
                         "sweep --collect)");
      }
    } catch (const json::exception& e) {
      throw InputError(fmt::format("{}: malformed strobe result ({})", in.name, e.what()));
    } catch (const InputError& e) {
      throw InputError(fmt::format("{}: {}", in.name, e.what()));
    }
  }
  return {{"sections", sections}};
}

}  // namespace strobe::report
