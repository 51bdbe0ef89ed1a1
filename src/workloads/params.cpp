// Parameter declaration helpers and the parsing of `--param K=V`.
#include "workloads/params.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <set>
#include <stdexcept>

#include <fmt/core.h>

#include "common/error.h"
#include "common/param_decl.h"

namespace strobe::workloads {

namespace {

ParamSpec spec(std::string name, ParamKind kind, double def, double lo, double hi, std::string doc) {
  ParamSpec s;
  s.name = std::move(name), s.kind = kind, s.def = def, s.lo = lo, s.hi = hi, s.doc = std::move(doc), s.small = def;
  return s;
}

}  // namespace

ParamSpec int_param(std::string name, int64_t def, int64_t lo, int64_t hi, std::string doc) {
  return spec(std::move(name), ParamKind::Int, double(def), double(lo), double(hi), std::move(doc));
}

ParamSpec float_param(std::string name, double def, double lo, double hi, std::string doc) {
  return spec(std::move(name), ParamKind::Float, def, lo, hi, std::move(doc));
}

Params::Params(const std::vector<ParamSpec>& specs) : specs_(specs) {
  for (const auto& s : specs_) values_[s.name] = s.def;
}

const ParamSpec& Params::spec(const std::string& name) const {
  for (const auto& s : specs_)
    if (s.name == name) return s;
  throw std::logic_error("benchmark reads undeclared parameter '" + name + "'");
}

int64_t Params::i(const std::string& name) const {
  if (spec(name).kind != ParamKind::Int) throw std::logic_error("parameter '" + name + "' is not an integer");
  return int64_t(values_.at(name));
}

double Params::f(const std::string& name) const {
  if (spec(name).kind != ParamKind::Float) throw std::logic_error("parameter '" + name + "' is not a real number");
  return values_.at(name);
}

double Params::value(const std::string& name) const {
  spec(name);
  return values_.at(name);
}

nlohmann::json Params::to_json() const {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& s : specs_) {
    double v = values_.at(s.name);
    if (s.kind == ParamKind::Int)
      j[s.name] = int64_t(v);
    else
      j[s.name] = v;
  }
  return j;
}

namespace {

std::string valid_names(const std::vector<ParamSpec>& specs) {
  if (specs.empty()) return "it takes no parameters";
  std::string s = "valid: ";
  for (size_t i = 0; i < specs.size(); ++i) s += (i ? ", " : "") + specs[i].name;
  return s;
}

}  // namespace

Params resolve_params(const std::string& bench, const std::vector<ParamSpec>& specs,
                      const std::vector<std::string>& assignments) {
  Params p(specs);
  std::set<std::string> given;
  for (const auto& a : assignments) {
    auto eq = a.find('=');
    if (eq == std::string::npos || eq == 0)
      throw InputError(fmt::format("--param '{}': expected NAME=VALUE", a));
    std::string key = a.substr(0, eq), text = a.substr(eq + 1);
    // Silently taking the last of two would run something the first did not ask for.
    if (!given.insert(key).second) throw InputError(fmt::format("--param '{}': {} is given twice", a, key));
    const ParamSpec* spec = nullptr;
    for (const auto& s : specs)
      if (s.name == key) spec = &s;
    if (!spec)
      throw InputError(fmt::format("--param '{}': {} has no parameter '{}' ({})", a, bench, key, valid_names(specs)));
    const double v = read_value(*spec, text, "--param");
    p.set(key, v);
  }
  return p;
}

}  // namespace strobe::workloads
