// The registry of sampling methods and the resolution of their parameters.
#include "sampling/method.h"

#include <cmath>

#include <fmt/format.h>

#include "common/error.h"
#include "common/param_decl.h"
#include "emu/executor.h"
#include "sampling/profile/functional_profile.h"
#include "sampling/profile/profile_file.h"

namespace strobe::sampling {

namespace {

std::map<std::string, MethodInfo>& registry() {
  static std::map<std::string, MethodInfo> r;
  return r;
}

std::pair<std::string, std::string> split_set(const std::string& s) {
  const size_t eq = s.find('=');
  if (eq == std::string::npos || eq == 0)
    throw InputError(fmt::format("--sampling-set '{}': expected KEY=VALUE", s));
  return {s.substr(0, eq), s.substr(eq + 1)};
}

const MethodInfo& find(const std::string& name) {
  auto it = methods().find(name);
  if (it == methods().end()) {
    std::string known;
    for (const auto& [n, _] : methods()) known += (known.empty() ? "" : ", ") + n;
    throw InputError(fmt::format("--sampling '{}': unknown method (known: none, {})", name, known));
  }
  return it->second;
}

}  // namespace

bool skips_predicted(const MethodOptions& o, const emu::Dispatch& d) {
  return o.skip_functional || (o.from_capture && !emu::has_global_atomics(*d.program));
}

std::optional<std::string> departure(const MethodOptions& o, size_t i, const emu::Dispatch& d,
                                     const emu::GlobalMemory& mem, std::span<const profile::LaunchIdentity> profiled,
                                     bool compare_kernargs, const std::string& source) {
  if (o.from_capture) return std::nullopt;
  return profile::departure_from_profile(i, profile::identify(d, mem), profiled, compare_kernargs, source);
}

const std::map<std::string, MethodInfo>& methods() { return registry(); }

void SamplingMethod::save_passes(int, const std::string& path, const profile::WorkloadIdentity&) const {
  throw NotImplementedError(
      fmt::format("pass state {}: this sampling method cannot carry its passes to another process", path));
}

void SamplingMethod::restore_passes(int, const std::string& path, const profile::WorkloadIdentity&) {
  throw NotImplementedError(
      fmt::format("pass state {}: this sampling method cannot carry its passes from another process", path));
}

bool register_method(MethodInfo info) {
  const std::string name = info.name;
  registry().emplace(name, std::move(info));
  return true;
}

void check_sampling_sets(const std::vector<std::string>& names, const std::vector<std::string>& sets) {
  for (const std::string& s : sets) {
    const std::string key = split_set(s).first;
    bool declared = false;
    for (const std::string& n : names)
      for (const MethodParam& p : find(n).params) declared |= p.name == key;
    if (!declared) {
      std::string valid;
      for (const std::string& n : names)
        for (const MethodParam& p : find(n).params) valid += (valid.empty() ? "" : ", ") + p.name;
      throw InputError(fmt::format("--sampling-set '{}': unknown parameter '{}' (valid: {})", s, key, valid));
    }
  }
}

void resolve_params(const std::vector<MethodParam>& params, const std::vector<std::string>& sets, MethodOptions& o,
                    bool strict) {
  for (const MethodParam& p : params) {
    if (p.kind == ParamKind::Text) o.texts[p.name] = p.def_text;
    else o.params[p.name] = p.def;
  }
  for (const std::string& s : sets) {
    auto [key, text] = split_set(s);
    const MethodParam* decl = nullptr;
    for (const MethodParam& p : params)
      if (p.name == key) decl = &p;
    if (!decl) {
      if (!strict) continue;  // another selected method's parameter (check_sampling_sets vetted it)
      std::string valid;
      for (const MethodParam& p : params) valid += (valid.empty() ? "" : ", ") + p.name;
      throw InputError(fmt::format("--sampling-set '{}': unknown parameter '{}' (valid: {})", s, key, valid));
    }
    const double v = read_value(*decl, text, "--sampling-set");
    if (decl->kind == ParamKind::Text) o.texts[key] = text;
    else o.params[key] = v;
  }
}

profile::ProfileDetail profile_detail(const std::vector<std::string>& methods) {
  for (const std::string& m : methods) {
    if (m == "none") continue;
    const MethodInfo& info = find(m);
    if (info.reads_profile && info.profile_detail == profile::ProfileDetail::units) return profile::ProfileDetail::units;
  }
  return profile::ProfileDetail::sums;
}

std::unique_ptr<SamplingMethod> make_method(const std::string& name, const timing::GpuConfig& gpu,
                                            const std::vector<std::string>& sets, bool skip_functional,
                                            std::shared_ptr<const profile::ProfileFile> profile,
                                            const std::string& profile_path, Warming warming, bool from_capture) {
  const MethodInfo& info = find(name);
  MethodOptions o;
  o.gpu = gpu;
  o.skip_functional = skip_functional;
  o.from_capture = from_capture;
  o.warming = warming;
  if (info.reads_profile) {
    o.profile = std::move(profile);
    o.profile_path = profile_path;
  }
  resolve_params(info.params, sets, o, false);
  return info.make(o);
}

}  // namespace strobe::sampling
