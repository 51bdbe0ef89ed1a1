#include "experiment/listing.h"

#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/param_decl.h"
#include "sampling/frame_method.h"
#include "sampling/method.h"
#include "timing/config/gpu_config.h"
#include "workloads/benchmark.h"

namespace strobe::experiment {

nlohmann::json benchmarks_listing() {
  nlohmann::json out = nlohmann::json::array();
  for (const workloads::BenchmarkInfo* b : workloads::Registry::instance().all()) {
    nlohmann::json params = nlohmann::json::array();
    for (const workloads::ParamSpec& p : b->params) {
      nlohmann::json j = to_json(p);
      j["small"] = p.kind == ParamKind::Int ? nlohmann::json(int64_t(p.small)) : nlohmann::json(p.small);
      params.push_back(std::move(j));
    }
    out.push_back({{"name", b->name}, {"description", b->description}, {"params", std::move(params)}});
  }
  return out;
}

/// Every registered method: `kind` says whether it samples a compute workload's launches or a
/// graphics workload's frames.
nlohmann::json methods_listing() {
  nlohmann::json out = nlohmann::json::array();
  const auto add = [&](const std::string& name, const std::string& description, const char* kind,
                       const std::vector<sampling::MethodParam>& params) {
    nlohmann::json ps = nlohmann::json::array();
    for (const auto& p : params) ps.push_back(to_json(p));
    out.push_back({{"name", name}, {"description", description}, {"kind", kind}, {"params", std::move(ps)}});
  };
  for (const auto& [name, m] : sampling::methods()) add(name, m.description, "launches", m.params);
  for (const auto& [name, m] : sampling::frame_methods()) add(name, m.description, "frames", m.params);
  return out;
}

/// Every timing-model parameter (params.def): name (the dotted key), kind, default, bounds,
/// unit or choices, doc.
nlohmann::json config_listing() {
  nlohmann::json out = nlohmann::json::array();
  for (const ParamDecl& p : timing::param_table()) out.push_back(to_json(p));
  return out;
}

std::string param_row(const nlohmann::json& p, int width) {
  const auto text = [](const nlohmann::json& v) {
    return v.is_string() ? v.get<std::string>() : v.is_number_float() ? fmt::format("{:g}", v.get<double>()) : v.dump();
  };
  std::string range = "text";
  if (p.contains("choices")) range = fmt::format("{}", fmt::join(p["choices"].get<std::vector<std::string>>(), "|"));
  else if (p.contains("min"))
    range = fmt::format("[{} .. {}]{}", text(p["min"]), text(p["max"]),
                        p.value("unit", "").empty() ? "" : " " + p["unit"].get<std::string>());
  return fmt::format("{:<{}} {:>10}  {}  {}", p["name"].get<std::string>(), width, text(p["default"]), range,
                     p["doc"].get<std::string>());
}

}  // namespace strobe::experiment

namespace strobe::experiment {

namespace {

/// The entry of `listing` called `name`, or null.
const nlohmann::json* find_entry(const nlohmann::json& listing, std::string_view name) {
  for (const nlohmann::json& e : listing)
    if (e.value("name", "") == name) return &e;
  return nullptr;
}

/// A section: `title`, then each parameter of `params` as a `strobe list` row.
void section(std::string& out, const std::string& title, const nlohmann::json& params, int width) {
  out += "\n" + title + "\n";
  if (params.empty()) out += "  (none)\n";
  for (const nlohmann::json& p : params) out += "  " + param_row(p, width) + "\n";
}

}  // namespace

std::string named_parameters_help(const std::vector<std::string>& benchmarks, const std::vector<std::string>& methods,
                                  const std::vector<std::string>& keys) {
  std::string out;
  if (!benchmarks.empty()) {
    const nlohmann::json listing = benchmarks_listing();
    for (const std::string& b : benchmarks) {
      if (b.starts_with("gfx:") || b.ends_with(".cap")) continue;  // frames and captures carry no --param
      if (const nlohmann::json* e = find_entry(listing, b))
        section(out, fmt::format("Parameters of {} (--param NAME=VALUE):", b), (*e)["params"], 12);
      else out += fmt::format("\nNo benchmark is named '{}' (strobe list names them).\n", b);
    }
  }
  if (!methods.empty()) {
    const nlohmann::json listing = methods_listing();
    for (const std::string& m : methods) {
      if (m == "none") continue;
      // A variant (pka:parallelism=0) has its method's parameters.
      const std::string name = m.substr(0, m.find(':'));
      if (const nlohmann::json* e = find_entry(listing, name))
        section(out, fmt::format("Parameters of {} (--sampling-set KEY=VALUE):", m), (*e)["params"], 22);
      else out += fmt::format("\nNo sampling method is named '{}' (strobe list names them).\n", name);
    }
  }
  if (!keys.empty()) {
    const nlohmann::json listing = config_listing();
    nlohmann::json found = nlohmann::json::array();
    std::string unknown;
    for (const std::string& k : keys) {
      if (const nlohmann::json* e = find_entry(listing, k)) found.push_back(*e);
      else if (k.find('.') != std::string::npos) unknown += (unknown.empty() ? "" : ", ") + k;  // not a set name
    }
    if (!found.empty()) section(out, "The timing-model keys given (--set KEY=VALUE):", found, 28);
    if (!unknown.empty()) out += fmt::format("\nNo timing-model key is named {} (strobe list --config names them).\n", unknown);
  }
  return out;
}

}  // namespace strobe::experiment
