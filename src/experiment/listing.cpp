#include "experiment/listing.h"

#include "sampling/frame_method.h"
#include "sampling/method.h"
#include "timing/config/gpu_config.h"

namespace strobe::experiment {

namespace {

/// One declared method parameter as JSON.
nlohmann::json param_json(const sampling::MethodParam& p) {
  if (p.is_text) return {{"name", p.name}, {"type", "text"}, {"default", p.text}, {"doc", p.doc}};
  nlohmann::json j{{"name", p.name}, {"default", p.value}, {"min", p.lo}, {"max", p.hi}, {"doc", p.doc}};
  if (!p.choices.empty()) j["choices"] = p.choices, j["default"] = p.choices[size_t(p.value)];
  return j;
}

}  // namespace

/// Every registered method: `kind` says whether it samples a compute workload's launches or a
/// graphics workload's frames.
nlohmann::json methods_listing() {
  nlohmann::json out = nlohmann::json::array();
  const auto add = [&](const std::string& name, const std::string& description, const char* kind,
                       const std::vector<sampling::MethodParam>& params) {
    nlohmann::json ps = nlohmann::json::array();
    for (const auto& p : params) ps.push_back(param_json(p));
    out.push_back({{"name", name}, {"description", description}, {"kind", kind}, {"params", std::move(ps)}});
  };
  for (const auto& [name, m] : sampling::methods()) add(name, m.description, "launches", m.params);
  for (const auto& [name, m] : sampling::frame_methods()) add(name, m.description, "frames", m.params);
  return out;
}

/// Every timing-model parameter (params.def): key, kind, default, bounds or choices, unit, doc.
nlohmann::json config_listing() {
  static const char* kinds[] = {"int", "float", "enum", "text"};
  nlohmann::json out = nlohmann::json::array();
  for (const timing::ParamInfo& p : timing::param_table()) {
    nlohmann::json j{{"key", p.key}, {"kind", kinds[size_t(p.kind)]}, {"default", p.default_text}, {"doc", p.doc}};
    if (p.kind == timing::ParamInfo::Kind::Int || p.kind == timing::ParamInfo::Kind::Float)
      j["min"] = p.min, j["max"] = p.max, j["unit"] = p.unit;
    if (p.kind == timing::ParamInfo::Kind::Enum) j["choices"] = p.choices;
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace strobe::experiment
