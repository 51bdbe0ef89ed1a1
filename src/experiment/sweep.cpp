// Sweep specs, their expansion into tasks, and the merge of their results (see sweep.h).
#include "experiment/sweep.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <toml++/toml.h>

#include "common/atomic_file.h"
#include "common/error.h"
#include "common/toml_doc.h"
#include "experiment/frames.h"
#include "experiment/run_spec.h"
#include "gfx/stream/captured.h"
#include "sampling/frame_method.h"
#include "sampling/method.h"
#include "sampling/profile/profile_file.h"

namespace strobe::experiment {

namespace {

/// A TOML scalar as the command line writes it ("2048", "0.5", "oldest", "true").
std::optional<std::string> scalar_text(const toml::node& n) {
  if (auto v = n.value<int64_t>()) return std::to_string(*v);
  if (auto v = n.value<bool>()) return *v ? std::string("true") : std::string("false");
  if (auto v = n.value<double>()) return fmt::format("{}", *v);
  if (auto v = n.value<std::string>()) return *v;
  return std::nullopt;
}

/// `doc[key]`, a list of strings; InputError naming the file and key otherwise.
std::vector<std::string> string_list(const toml::table& doc, const std::string& key, const std::string& source) {
  std::vector<std::string> out;
  const toml::node* n = doc.get(key);
  if (!n) return out;
  const toml::array* a = n->as_array();
  if (!a) throw InputError(fmt::format("{}: {} must be a list of strings", source, key));
  for (size_t i = 0; i < a->size(); ++i) {
    const auto s = (*a)[i].value<std::string>();
    if (!s) throw InputError(fmt::format("{}: {}[{}] is not a string", source, key, i));
    out.push_back(*s);
  }
  return out;
}

std::string hex(uint64_t v) { return fmt::format("{:016x}", v); }

}  // namespace

SweepSpec parse_sweep(const std::string& text, const std::string& source) {
  const toml::table doc = parse_toml(text, source);
  static const std::set<std::string> known = {"workloads", "grid",   "methods", "sampling_sets",
                                              "warming",   "repeat", "profile", "capture", "warm_state"};
  for (const auto& [k, v] : doc)
    if (!known.contains(std::string(k.str())))
      throw InputError(fmt::format("{}: unknown key '{}' (known: {})", source, k.str(), fmt::join(known, ", ")));
  SweepSpec s;
  s.source = source;
  const std::vector<std::string> lines = string_list(doc, "workloads", source);
  if (lines.empty()) throw InputError(fmt::format("{}: workloads: give at least one \"BENCH [--param K=V]...\"", source));
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string where = fmt::format("{}: workloads[{}]", source, i);
    std::string first;
    std::istringstream(lines[i]) >> first;
    const bool gfx = first.rfind("gfx:", 0) == 0;
    if (i > 0 && gfx != s.graphics)
      throw InputError(fmt::format("{}: graphics captures and benchmarks in one sweep; sweep them apart", where));
    s.graphics = gfx;
    if (gfx) {
      // "gfx:NAME [--frames A-B]": a capture, all its frames or those asked.
      std::istringstream in(lines[i]);
      std::string name, option, frames, extra;
      in >> name >> option >> frames >> extra;
      if ((!option.empty() && option != "--frames") || (!option.empty() && frames.empty()) || !extra.empty())
        throw InputError(fmt::format("{}: '{}': expected 'gfx:NAME [--frames A-B]'", where, lines[i]));
      try {
        gfx::resolve_trace(name);
        if (!frames.empty()) gfx::parse_frame_ranges(frames, "--frames");
      } catch (const InputError& e) {
        throw InputError(fmt::format("{}: {}", where, e.what()));
      }
      s.workloads.push_back({name, frames.empty() ? std::vector<std::string>{} : std::vector<std::string>{frames}});
    } else {
      s.workloads.push_back(workloads::parse_set_line(lines[i], where));
    }
  }
  s.methods = string_list(doc, "methods", source);
  for (const std::string& m : s.methods)
    if (s.graphics ? !sampling::frame_methods().contains(m)
                   : !sampling::methods().contains(sampling::parse_method_spec(m).name)) {
      std::vector<std::string> names;
      if (s.graphics)
        for (const auto& [n, _] : sampling::frame_methods()) names.push_back(n);
      else
        for (const auto& [n, _] : sampling::methods()) names.push_back(n);
      throw InputError(fmt::format("{}: methods: unknown {}method '{}' (known: {})", source,
                                   s.graphics ? "frame-sampling " : "", m, fmt::join(names, ", ")));
    }
  s.sampling_sets = string_list(doc, "sampling_sets", source);
  if (!s.sampling_sets.empty() && s.methods.empty())
    throw InputError(fmt::format("{}: sampling_sets without methods", source));
  if (s.graphics) {
    if (!s.sampling_sets.empty()) sampling::check_frame_sampling_sets(s.methods, s.sampling_sets);
  } else {
    sampling::check_sampling_sets(s.methods, s.sampling_sets);  // and each variant's own settings
  }
  if (s.graphics)
    for (const char* key : {"warming", "profile"})
      if (doc.get(key))
        throw InputError(fmt::format("{}: {}: not for graphics workloads (their counts come from a rendering pass "
                                     "or a capture, and their warm state from frames rendered or a capture)",
                                     source, key));
  if (const toml::node* w = doc.get("warming")) {
    const auto v = w->value<std::string>();
    if (!v || (*v != "none" && *v != "caches"))
      throw InputError(fmt::format("{}: warming must be \"none\" or \"caches\"", source));
    s.warming = *v;
  }
  if (const toml::node* r = doc.get("repeat")) {
    const auto v = r->value<int64_t>();
    if (!v || *v < 1 || *v > 100) throw InputError(fmt::format("{}: repeat must be an integer in [1, 100]", source));
    s.repeat = int(*v);
  }
  bool reads = false;
  for (const std::string& m : s.methods) reads |= !s.graphics && sampling::method_info(m).reads_profile;
  s.profile = reads;
  if (const toml::node* p = doc.get("profile")) {
    const auto v = p->value<bool>();
    if (!v) throw InputError(fmt::format("{}: profile must be true or false", source));
    if (*v && !reads)
      throw InputError(fmt::format("{}: profile = true, but none of the methods reads a profile", source));
    s.profile = *v;
  }
  if (const toml::node* c = doc.get("capture")) {
    const auto v = c->value<bool>();
    if (!v) throw InputError(fmt::format("{}: capture must be true or false", source));
    s.capture = *v;
  }
  if (const toml::node* w = doc.get("warm_state")) {
    const auto v = w->value<std::string>();
    if (!v || (*v != "history" && *v != "fitted"))
      throw InputError(fmt::format("{}: warm_state must be \"history\" or \"fitted\"", source));
    if (!s.capture) throw InputError(fmt::format("{}: warm_state is for a capture sweep (capture = true)", source));
    s.warm_state = *v;
  }
  if (s.capture) {
    if (doc.get("profile") && s.profile)
      throw InputError(fmt::format("{}: profile = true with capture = true: the capture holds the profiles", source));
    s.profile = false;
    if (s.warming != "none")
      throw InputError(fmt::format("{}: warming = \"{}\" with capture = true: a capture's history warms the caches",
                                   source, s.warming));
  }
  if (const toml::node* g = doc.get("grid")) {
    const toml::table* t = g->as_table();
    if (!t) throw InputError(fmt::format("{}: grid must be a table of KEY = [values]", source));
    for (const auto& [k, v] : *t) {
      SweepAxis axis{std::string(k.str()), {}};
      const toml::array* a = v.as_array();
      if (!a || a->empty())
        throw InputError(fmt::format("{}: grid.{} must be a non-empty list of values", source, axis.key));
      for (size_t i = 0; i < a->size(); ++i) {
        const auto text = scalar_text((*a)[i]);
        if (!text) throw InputError(fmt::format("{}: grid.{}[{}] is not a number, string or bool", source, axis.key, i));
        // A value listed twice would make two tasks of one point, with one id.
        if (std::find(axis.values.begin(), axis.values.end(), *text) != axis.values.end())
          throw InputError(fmt::format("{}: grid.{} lists {} twice", source, axis.key, *text));
        axis.values.push_back(*text);
      }
      s.grid.push_back(std::move(axis));
    }
  }
  return s;
}

SweepSpec load_sweep(const std::string& path) { return parse_sweep(read_file(path), path); }

std::vector<SweepTask> expand(const SweepSpec& spec) {
  std::vector<SweepTask> out;
  // Grid points in mixed radix, the last axis fastest. The count is checked before anything is
  // expanded (each task is validated, so a runaway grid would take minutes to be refused).
  uint64_t points = 1;
  for (const SweepAxis& a : spec.grid) {
    points *= a.values.size();
    if (points > kMaxSweepTasks) break;
  }
  if (points > kMaxSweepTasks || points * spec.workloads.size() > kMaxSweepTasks)
    throw InputError(fmt::format("{}: {} workload{} at {}{} grid point{} make more than {} tasks; split the study",
                                 spec.source, spec.workloads.size(), spec.workloads.size() == 1 ? "" : "s",
                                 points > kMaxSweepTasks ? "over " : "", std::min<uint64_t>(points, kMaxSweepTasks),
                                 points == 1 ? "" : "s", kMaxSweepTasks));
  std::map<std::string, std::string> labels;  // id -> label, to refuse two tasks of one id
  for (size_t w = 0; w < spec.workloads.size(); ++w) {
    const workloads::SetRun& run = spec.workloads[w];
    for (size_t p = 0; p < points; ++p) {
      SweepTask t;
      t.workload = w;
      size_t rest = p;
      std::vector<size_t> digit(spec.grid.size());
      for (size_t a = spec.grid.size(); a-- > 0;) {
        digit[a] = rest % spec.grid[a].values.size();
        rest /= spec.grid[a].values.size();
      }
      RunSpec rs;
      rs.benchmark = run.benchmark;
      rs.params = run.params;
      rs.mode = "timing";
      rs.mode_given = true;
      for (size_t a = 0; a < spec.grid.size(); ++a) {
        const std::string& key = spec.grid[a].key;
        const std::string& value = spec.grid[a].values[digit[a]];
        t.point.emplace_back(key, value);
        if (key == "arch") rs.arch = value;
        else rs.sets.push_back(key + "=" + value);
      }
      t.label = run.benchmark;
      for (const std::string& p2 : run.params) t.label += (spec.graphics ? " frames " : " ") + p2;
      for (const auto& [k, v] : t.point) t.label += " " + k + "=" + v;
      try {
        if (spec.graphics) {
          resolve(FrameSpec{run.benchmark, run.params.empty() ? "" : run.params[0], "0", rs.arch, rs.sets});
        } else {
          validate(rs);  // the preset, every --set key and value, the benchmark's parameters
        }
      } catch (const InputError& e) {
        throw InputError(fmt::format("{}: task '{}': {}", spec.source, t.label, e.what()));
      }
      t.args = {spec.methods.empty() ? "run" : "compare"};
      if (spec.capture) {
        t.args.push_back(kCaptureArg);
      } else {
        t.args.push_back(run.benchmark);
        // A graphics workload's one "parameter" is its frames.
        for (const std::string& p2 : run.params) t.args.insert(t.args.end(), {spec.graphics ? "--frames" : "--param", p2});
      }
      t.args.insert(t.args.end(), {"--arch", rs.arch});
      // Sorted, so the task (and its result's name) is the same whatever order the grid's axes
      // are listed in.
      std::vector<std::string> sets = rs.sets;
      std::sort(sets.begin(), sets.end());
      for (const std::string& s : sets) t.args.insert(t.args.end(), {"--set", s});
      if (spec.methods.empty()) {
        t.args.insert(t.args.end(), {"--mode", "timing"});
      } else {
        t.args.insert(t.args.end(), {"--sampling", fmt::format("{}", fmt::join(spec.methods, ","))});
        for (const std::string& s : spec.sampling_sets) t.args.insert(t.args.end(), {"--sampling-set", s});
        if (!spec.capture && !spec.graphics) t.args.insert(t.args.end(), {"--sampling-warming", spec.warming});
        // Only when not the default: a task's arguments name its result.
        if (spec.capture && spec.warm_state != kDefaultWarmState)
          t.args.insert(t.args.end(), {"--warm-state", spec.warm_state});
        t.args.insert(t.args.end(), {"--repeat", std::to_string(spec.repeat)});
      }
      std::string joined;
      for (const std::string& a : t.args) joined += a + '\0';
      if (spec.profile) joined += "profile";
      if (spec.capture) {  // the capture stands for the workload in the arguments, not in the id
        joined += "capture";
        joined += std::string(1, '\0') + run.benchmark;
        for (const std::string& p2 : run.params) joined += std::string(1, '\0') + p2;
      }
      t.id = hex(sampling::profile::fnv1a(joined));
      if (auto [it, fresh] = labels.emplace(t.id, t.label); !fresh)
        throw InputError(fmt::format("{}: tasks '{}' and '{}' are the same run (a workload listed twice?)", spec.source,
                                     it->second, t.label));
      out.push_back(std::move(t));
    }
  }
  return out;
}

bool profile_with_traces(const SweepSpec& s) {
  // SimProf's proxy is GPUMech's unless the sweep or the variant sets it to the pilot run; STEM's
  // signature is GPUMech's only when either sets it so (a variant's own setting wins).
  for (const std::string& spec : s.methods) {
    const sampling::MethodSpec m = sampling::parse_method_spec(spec);
    const auto set = [&](const std::string& key, const char* value) {
      for (auto it = m.sets.rbegin(); it != m.sets.rend(); ++it)
        if (it->starts_with(key + "=")) return *it == key + "=" + value;
      return std::find(s.sampling_sets.begin(), s.sampling_sets.end(), key + "=" + value) != s.sampling_sets.end();
    };
    if (m.name == "gpumech" || (m.name.rfind("simprof", 0) == 0 && !set("proxy", "pilot")) ||
        (m.name == "stem" && set("signature", "gpumech")))
      return true;
  }
  return false;
}

std::string SweepLayout::profile(const SweepSpec& s, size_t workload) const {
  const workloads::SetRun& r = s.workloads[workload];
  std::string joined = r.benchmark;
  for (const std::string& p : r.params) joined += '\0' + p;
  if (profile_with_traces(s)) joined += std::string(1, '\0') + "gpumech";
  return dir + "/profiles/" + r.benchmark + "-" + hex(sampling::profile::fnv1a(joined)) + ".prof";
}

std::string SweepLayout::capture(const SweepSpec& s, size_t workload) const {
  const workloads::SetRun& r = s.workloads[workload];
  std::string joined = r.benchmark;
  for (const std::string& p : r.params) joined += '\0' + p;
  if (profile_with_traces(s)) joined += std::string(1, '\0') + "gpumech";  // a capture with traces is another file
  return dir + "/captures/" + r.benchmark + "-" + hex(sampling::profile::fnv1a(joined)) + ".cap";
}

namespace {

/// A graphics task's row: a timing run's cycles and seconds, or a comparison's reference and
/// each frame method's estimate, cycle error and speedup (no method of frames falls back).
void graphics_row(nlohmann::json& row, const nlohmann::json& r, const SweepSpec& spec) {
  if (!r.contains("reference")) {  // strobe run gfx:... --mode timing
    row["cycles"] = r.at("timing").at("cycles");
    row["wall_seconds"] = r.at("timing").at("seconds");
    return;
  }
  const nlohmann::json& ref = r.at("reference");
  row["cycles"] = ref.at("totals").at("cycles");
  row["wall_seconds"] = ref.at("seconds");
  for (const std::string& m : spec.methods) {
    const nlohmann::json& e = r.at("methods").at(m);
    row[m + ".estimated_cycles"] = e.at("estimate").at("cycles");
    row[m + ".error_pct"] = 100 * e.at("errors").at("cycles").get<double>();
    row[m + ".speedup"] = e.at("speedup");
    row[m + ".fallback"] = false;
    if (spec.capture) row[m + ".one_shot_speedup"] = e.value("speedup_one_shot", nlohmann::json());
  }
  if (spec.capture && r.contains("capture")) row["capture_seconds"] = r["capture"].value("capture_seconds", 0.0);
}

}  // namespace

const char* SweepLayout::status(const SweepTask& t) const {
  if (std::filesystem::exists(result(t))) return "done";
  return std::filesystem::exists(error(t)) ? "failed" : "todo";
}

SweepTable collect(const SweepSpec& spec, const std::vector<SweepTask>& tasks, const SweepLayout& layout) {
  if (!std::filesystem::is_directory(layout.dir))
    throw InputError(fmt::format("sweep: nothing to collect: {} does not exist, so none of the {} tasks of {} has "
                                 "run (strobe sweep {} runs them; --out names the directory if it is elsewhere)",
                                 layout.dir, tasks.size(), spec.source, spec.source));
  SweepTable t;
  for (const SweepTask& task : tasks) {
    const std::string result = layout.result(task);
    if (!std::filesystem::exists(result)) {
      const std::string err = layout.error(task);
      if (std::filesystem::exists(err)) {
        std::string why = read_file(err);
        while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
        const size_t nl = why.rfind('\n');
        t.failed.push_back(task.label + ": " + (nl == std::string::npos ? why : why.substr(nl + 1)));
      } else {
        t.missing.push_back(task.label);
      }
      continue;
    }
    const workloads::SetRun& run = spec.workloads[task.workload];
    nlohmann::json row = {{"task", task.id}, {"benchmark", run.benchmark},
                          {"params", fmt::format("{}", fmt::join(run.params, " "))}};
    for (const auto& [k, v] : task.point) row[k] = v;
    try {
      const nlohmann::json r = nlohmann::json::parse(read_file(result));
      if (spec.graphics) {
        graphics_row(row, r, spec);
        t.rows.push_back(std::move(row));
        continue;
      }
      row["cycles"] = r.value("cycles", nlohmann::json());
      row["wave_instructions"] = r.value("wave_instructions", nlohmann::json());
      row["wall_seconds"] = r.value("wall_seconds", nlohmann::json());
      for (const std::string& m : spec.methods) {
        const nlohmann::json& e = r.at("methods").at(m);
        for (const char* f : {"estimated_cycles", "error_pct", "speedup", "fallback"})
          row[m + "." + f] = e.value(f, nlohmann::json());
        if (spec.capture)
          for (const char* f : {"one_shot_speedup", "full_wall_seconds", "sampled_wall_seconds"})
            row[m + "." + f] = e.value(f, nlohmann::json());
      }
      if (spec.capture && r.contains("capture")) row["capture_seconds"] = r["capture"].value("capture_seconds", 0.0);
    } catch (const nlohmann::json::exception& e) {
      throw InputError(fmt::format("sweep result {} ({}): not a strobe result of this sweep ({}); delete it to run "
                                   "the task again",
                                   result, task.label, e.what()));
    }
    t.rows.push_back(std::move(row));
  }
  return t;
}

std::string sweep_csv(const SweepTable& t, const SweepSpec& spec) {
  std::vector<std::string> cols = {"task", "benchmark", "params"};
  for (const SweepAxis& a : spec.grid) cols.push_back(a.key);
  cols.insert(cols.end(), {"cycles", "wave_instructions", "wall_seconds"});
  for (const std::string& m : spec.methods) {
    for (const char* f : {"estimated_cycles", "error_pct", "speedup", "fallback"}) cols.push_back(m + "." + f);
    if (spec.capture)
      for (const char* f : {"one_shot_speedup", "full_wall_seconds", "sampled_wall_seconds"}) cols.push_back(m + "." + f);
  }
  if (spec.capture) cols.push_back("capture_seconds");
  auto cell = [](const nlohmann::json& v) {
    std::string s = v.is_null() ? "" : v.is_string() ? v.get<std::string>() : v.dump();
    if (s.find_first_of(",\"\n") != std::string::npos) {
      std::string q = "\"";
      for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
      return q + "\"";
    }
    return s;
  };
  std::string out = fmt::format("{}\n", fmt::join(cols, ","));
  for (const auto& row : t.rows) {
    std::vector<std::string> cells;
    for (const std::string& c : cols) cells.push_back(cell(row.value(c, nlohmann::json())));
    out += fmt::format("{}\n", fmt::join(cells, ","));
  }
  return out;
}

}  // namespace strobe::experiment
