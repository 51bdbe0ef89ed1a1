// The registry of frame-sampling methods; parameters resolve as the compute methods' do.
#include "sampling/frame_method.h"

#include <fmt/format.h>

#include "common/error.h"

namespace strobe::sampling {

namespace {

std::map<std::string, FrameMethodInfo>& registry() {
  static std::map<std::string, FrameMethodInfo> r;
  return r;
}

const FrameMethodInfo& find(const std::string& name) {
  auto it = registry().find(name);
  if (it == registry().end()) {
    std::string known;
    for (const auto& [n, _] : registry()) known += (known.empty() ? "" : ", ") + n;
    throw InputError(fmt::format("--sampling {} for a graphics workload: unknown frame-sampling method (known: {})",
                                 name, known));
  }
  return it->second;
}

}  // namespace

const std::map<std::string, FrameMethodInfo>& frame_methods() { return registry(); }

bool register_frame_method(FrameMethodInfo info) {
  const std::string name = info.name;
  registry().emplace(name, std::move(info));
  return true;
}

BuiltFrameMethod make_frame_method(const std::string& name, const std::vector<std::string>& sets) {
  const FrameMethodInfo& info = find(name);
  BuiltFrameMethod b;
  resolve_params(info.params, sets, b.options, false);
  b.needs_profile = info.needs_profile && info.needs_profile(b.options);
  b.method = info.make(b.options);
  return b;
}

void check_frame_sampling_sets(const std::vector<std::string>& names, const std::vector<std::string>& sets) {
  std::vector<MethodParam> declared;
  for (const std::string& n : names)
    for (const MethodParam& p : find(n).params) declared.push_back(p);
  // Strict resolution against the union: an unknown key or a bad value of any method fails here.
  MethodOptions o;
  resolve_params(declared, sets, o, true);
}

}  // namespace strobe::sampling
