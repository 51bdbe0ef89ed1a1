// Benchmark parameters: each declared once with kind, default, range and a one-line doc
// (DESIGN.md §3.3), and the values a run resolved from `--param K=V`. A benchmark declares a
// struct of its parameters and binds each field to its declaration (ParamField), so it reads
// `p.n`, never a name string: a misspelt field does not compile.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/param_decl.h"

namespace strobe::workloads {

/// Whether a parameter takes integers or reals (a benchmark's are one or the other).
using ParamKind = ::strobe::ParamKind;

/// The declaration of one benchmark parameter: the one declaration type every setting shares
/// (common/param_decl.h), with the value the quick test-suite run takes.
struct ParamSpec : ParamDecl {
  double small = 0;  ///< value for the quick test-suite run (`strobe list --json` shows it)

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
  /// Any declared parameter's value as resolved (integers are exact).
  double value(const std::string& name) const;
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

/// A parameter's declaration bound to the field of `S` (a benchmark's parameter struct) that
/// receives its value: the name is written once, here, and the benchmark reads the field.
template <class S>
struct ParamField {
  ParamSpec spec;
  std::function<void(S&, double)> assign;  ///< stores a resolved value in its field

  /// Sets the quick-test value (the default is used when this is never called).
  ParamField with_small(double v) && {
    spec.small = v;
    return std::move(*this);
  }
};

/// An integer parameter stored in `field` (any integral type, bool included: non-zero is true),
/// converted as `T(int64_t(value))`.
template <class S, class T>
ParamField<S> int_param(T S::*field, std::string name, int64_t def, int64_t lo, int64_t hi, std::string doc) {
  static_assert(std::is_integral_v<T>, "an integer parameter needs an integral field");
  return {int_param(std::move(name), def, lo, hi, std::move(doc)),
          [field](S& s, double v) { s.*field = static_cast<T>(int64_t(v)); }};
}

/// A real-valued parameter stored in `field` (float or double).
template <class S, class T>
ParamField<S> float_param(T S::*field, std::string name, double def, double lo, double hi, std::string doc) {
  static_assert(std::is_floating_point_v<T>, "a real parameter needs a floating-point field");
  return {float_param(std::move(name), def, lo, hi, std::move(doc)),
          [field](S& s, double v) { s.*field = static_cast<T>(v); }};
}

/// A parameter struct's field and its name, for int_param and float_param: the name a user
/// passes to `--param` is the field's own, so the two cannot drift apart.
#define STROBE_FIELD(Struct, field) &Struct::field, #field

/// The declarations of `fields`, in order (what `strobe list` shows).
template <class S>
std::vector<ParamSpec> param_specs(const std::vector<ParamField<S>>& fields) {
  std::vector<ParamSpec> specs;
  for (const ParamField<S>& f : fields) specs.push_back(f.spec);
  return specs;
}

/// The struct `S` filled from resolved values: each bound field gets its parameter's value.
template <class S>
S bind_params(const std::vector<ParamField<S>>& fields, const Params& p) {
  S s{};
  for (const ParamField<S>& f : fields) f.assign(s, p.value(f.spec.name));
  return s;
}

}  // namespace strobe::workloads
