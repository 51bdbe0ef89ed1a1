// Benchmark parameters: each declared once with kind, default, range and a one-line doc
// (DESIGN.md §3.3), and the values a run resolved from `--param K=V`.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace strobe::workloads {

/// Whether a parameter takes integers or reals.
enum class ParamKind { Int, Float };

/// The declaration of one benchmark parameter.
struct ParamSpec {
  std::string name;
  ParamKind kind = ParamKind::Int;
  double def = 0;   ///< default value
  double lo = 0;    ///< smallest accepted value (inclusive)
  double hi = 0;    ///< largest accepted value (inclusive)
  std::string doc;  ///< one-line description
  double small = 0; ///< value for the quick test-suite run (`strobe list --json` shows it)

  /// Sets the quick-test value (the default is used when this is never called).
  ParamSpec with_small(double v) && { small = v; return std::move(*this); }
};

/// An integer parameter (values are exact up to 2^53, far beyond any size that fits a device).
ParamSpec int_param(std::string name, int64_t def, int64_t lo, int64_t hi, std::string doc);
/// A real-valued parameter.
ParamSpec float_param(std::string name, double def, double lo, double hi, std::string doc);

/// The resolved values of every declared parameter of one run.
class Params {
 public:
  Params() = default;
  /// All parameters at their defaults.
  explicit Params(const std::vector<ParamSpec>& specs);
  /// An integer parameter's value; a name the benchmark did not declare is a programming error.
  int64_t i(const std::string& name) const;
  /// A float parameter's value.
  double f(const std::string& name) const;
  /// Sets a value (already validated).
  void set(const std::string& name, double v) { values_[name] = v; }
  /// The effective parameters as JSON (integers as integers).
  nlohmann::json to_json() const;

 private:
  const ParamSpec& spec(const std::string& name) const;
  std::vector<ParamSpec> specs_;
  std::map<std::string, double> values_;
};

/// Resolves `K=V` assignments against `specs` (later assignments win). Throws InputError for a
/// malformed assignment, an unknown name (listing the valid ones), a non-numeric value, a
/// fractional value for an integer parameter, or a value outside the declared range.
Params resolve_params(const std::string& bench, const std::vector<ParamSpec>& specs,
                      const std::vector<std::string>& assignments);

/// A parameter value as the CLI prints it (integers without a decimal point).
std::string format_value(const ParamSpec& spec, double v);

}  // namespace strobe::workloads
