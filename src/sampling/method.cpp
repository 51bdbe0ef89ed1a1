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

const MethodInfo& find(const std::string& spec) {
  const std::string name = parse_method_spec(spec).name;
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

MethodSpec parse_method_spec(const std::string& text) {
  MethodSpec m;
  const size_t colon = text.find(':');
  m.name = text.substr(0, colon);
  if (colon == std::string::npos) return m;
  if (m.name.empty()) throw InputError(fmt::format("--sampling '{}': no method before ':'", text));
  for (size_t at = colon + 1;;) {
    const size_t next = text.find(':', at);
    const std::string kv = text.substr(at, next == std::string::npos ? std::string::npos : next - at);
    if (kv.find('=') == std::string::npos || kv.front() == '=')
      throw InputError(fmt::format("--sampling '{}': '{}' is not KEY=VALUE", text, kv));
    m.sets.push_back(kv);
    if (next == std::string::npos) break;
    at = next + 1;
  }
  return m;
}

const MethodInfo& method_info(const std::string& spec) { return find(spec); }

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
  // A variant's own settings must be its method's (and read as its values); the shared --sampling-set
  // keys need only be some named method's.
  for (const std::string& n : names) {
    MethodOptions o;
    resolve_params(find(n).params, parse_method_spec(n).sets, o, true, fmt::format("--sampling '{}':", n));
  }
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
                    bool strict, const std::string& where) {
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
      throw InputError(fmt::format("{} '{}': unknown parameter '{}' (valid: {})", where, s, key, valid));
    }
    const double v = read_value(*decl, text, where);
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
  std::vector<std::string> all = sets;
  for (std::string& own : parse_method_spec(name).sets) all.push_back(std::move(own));  // a variant's own win
  resolve_params(info.params, all, o, false);
  return info.make(o);
}

}  // namespace strobe::sampling
