// Sampling methods as plug-ins: each registers a name, its declared parameters and a factory;
// the orchestration (passes over the workload, reports) is shared.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "runtime/device.h"
#include "timing/config/gpu_config.h"

namespace strobe::sampling {

/// One declared parameter of a method: the default is the paper's value.
struct MethodParam {
  std::string name;
  double value = 0;
  double lo = 0, hi = 0;
  std::string doc;
};

/// What every method is built with.
struct MethodOptions {
  timing::GpuConfig gpu;         ///< the configuration being simulated
  bool skip_functional = false;  ///< predicted work is not emulated (results unverifiable)
  std::map<std::string, double> params;  ///< every declared parameter, defaults filled in
  double param(const std::string& name) const { return params.at(name); }
};

/// A sampling method: the dispatch runner for each pass it makes over the workload.
class SamplingMethod {
 public:
  virtual ~SamplingMethod() = default;
  /// Passes over the whole workload (a profile-driven method profiles first); the estimates of
  /// the last pass are the method's result.
  virtual int passes() const { return 1; }
  /// The runner of pass `pass` (0-based), valid for the method's lifetime.
  virtual runtime::DispatchRunner& runner(int pass) = 0;
  /// Called after pass `pass` has run (e.g. to cluster what a profiling pass saw).
  virtual void end_pass(int pass) {}
  /// Method-level facts for the report (clusters chosen, kernels matched, ...).
  virtual nlohmann::json summary() const { return nlohmann::json::object(); }
};

/// A registered method.
struct MethodInfo {
  std::string name;
  std::string description;
  std::vector<MethodParam> params;
  std::unique_ptr<SamplingMethod> (*make)(const MethodOptions&) = nullptr;
};

/// Every registered method, by name.
const std::map<std::string, MethodInfo>& methods();
/// Registers a method (from a static initialiser, see STROBE_SAMPLING_METHOD).
bool register_method(MethodInfo info);

/// Builds `name` with `sets` ("KEY=VALUE", keys among the method's declared parameters; `known`
/// lists keys another selected method declares, which are not an error here). Throws
/// InputError naming an unknown method, key or bad value.
std::unique_ptr<SamplingMethod> make_method(const std::string& name, const timing::GpuConfig& gpu,
                                            const std::vector<std::string>& sets, bool skip_functional);

/// Checks that every key of `sets` is declared by at least one of `names`; throws InputError.
void check_sampling_sets(const std::vector<std::string>& names, const std::vector<std::string>& sets);

}  // namespace strobe::sampling

/// Registers a sampling method at static-initialisation time.
#define STROBE_SAMPLING_METHOD(var, ...) \
  static const bool var = ::strobe::sampling::register_method(::strobe::sampling::MethodInfo{__VA_ARGS__})
