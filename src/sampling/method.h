// Sampling methods as plug-ins: each registers a name, its declared parameters and a factory;
// the orchestration (passes over the workload, reports) is shared.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "runtime/device.h"
#include "sampling/common/warming.h"
#include "sampling/profile/profile_file.h"
#include "timing/config/gpu_config.h"

namespace strobe::sampling {

/// One declared parameter of a method, as every setting declares one (common/param_decl.h): its
/// default is the paper's value. An enumeration's value is an index into its choices, and
/// --sampling-set takes a name; a text parameter (a file path) is passed as written.
using MethodParam = ParamDecl;

/// What every method is built with.
struct MethodOptions {
  timing::GpuConfig gpu;         ///< the configuration being simulated
  bool skip_functional = false;  ///< predicted work is not emulated (results unverifiable)
  /// The launches come from a capture (docs/capture.md): each one's memory comes from its
  /// checkpoint, so the work a method predicts need not run for the sake of later launches, and
  /// is not emulated unless the launch's work-groups depend on each other (skips_predicted).
  bool from_capture = false;
  Warming warming = Warming::None;  ///< what functionally executed work warms
  /// Every declared parameter by name, defaults filled in. Methods read it only through the
  /// struct STROBE_METHOD_PARAMS generates, never by a name spelt out by hand.
  std::map<std::string, double> params;
  /// Every declared text parameter (MethodParam::is_text) by name, defaults filled in.
  std::map<std::string, std::string> texts;
  /// A functional profile read from a file (--profile), for a method that reads one
  /// (MethodInfo::reads_profile): it then skips its own profiling pass. Null: none given.
  std::shared_ptr<const profile::ProfileFile> profile;
  std::string profile_path;  ///< the file `profile` came from, named in errors
};

/// Whether the work a method predicts in launch `d` goes without emulation: always with
/// skip_functional; from a capture unless `d`'s work-groups use global atomics (whose results the
/// groups it simulates may read, so the predicted ones run functionally).
bool skips_predicted(const MethodOptions& o, const emu::Dispatch& d);

/// Where launch `i` (`d`, read from `mem`) leaves the profiled sequence `profiled`
/// (profile::departure_from_profile, `source` naming the profile), or nullopt. From a capture
/// nothing is read and nothing departs: the capture's launches are its profile's by construction
/// (both are the captured run, and a replay restores every launch's code and arguments), and
/// reading them would fetch pages of a launch the method only predicts (capture/keep.h).
std::optional<std::string> departure(const MethodOptions& o, size_t i, const emu::Dispatch& d,
                                     const emu::GlobalMemory& mem, std::span<const profile::LaunchIdentity> profiled,
                                     bool compare_kernargs, const std::string& source);

namespace detail {
/// A resolved parameter converted to its declared type (bools: non-zero is true; an enumeration
/// takes the value at its index; a text is as given).
template <class T>
T param_value(const MethodOptions& o, const char* name) {
  // Declared by the same list that reads it: always present.
  if constexpr (std::is_same_v<T, std::string>) return o.texts.at(name);
  else if constexpr (std::is_same_v<T, bool>) return o.params.at(name) != 0;
  else if constexpr (std::is_enum_v<T>) return static_cast<T>(static_cast<std::underlying_type_t<T>>(o.params.at(name)));
  else return T(o.params.at(name));
}
/// The names of an enumeration parameter's values: `param_choices(T{})`, found next to the enum
/// by argument-dependent lookup; none for numbers and bools.
template <class T>
std::vector<std::string> choices_of() {
  if constexpr (std::is_enum_v<T>) return param_choices(T{});
  else return {};
}
/// The declaration of parameter `name` of type T: a number (its default, bounds and an
/// enumeration's names) or, for std::string, a text whose default is `def`.
template <class T, class D>
MethodParam param_schema(const char* name, D def, double lo, double hi, const char* doc) {
  MethodParam p;
  p.name = name, p.doc = doc;
  if constexpr (std::is_same_v<T, std::string>) {
    p.kind = ParamKind::Text, p.def_text = def;
  } else {
    p.def = double(def), p.lo = lo, p.hi = hi, p.choices = choices_of<T>();
    p.kind = !p.choices.empty() ? ParamKind::Enum : std::is_integral_v<T> ? ParamKind::Int : ParamKind::Float;
  }
  return p;
}
}  // namespace detail

/// The name of enumeration parameter value `v` among its choices (`param_choices`, found next to
/// the enum by argument-dependent lookup).
template <class E>
std::string choice_name(E v) {
  return param_choices(E{})[size_t(v)];
}

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

  // A host program runs once per pass, each run a process of its own, so what the earlier passes
  // learned crosses process boundaries in a file (the pass state) instead of staying in memory.

  /// Whether save_passes() and restore_passes() are implemented (a multi-pass method without
  /// them can sample benchmarks only).
  virtual bool carries_passes() const { return passes() <= 1; }
  /// Writes to `path`, atomically, what passes 0..`pass` learned of workload `w`; called after
  /// end_pass(pass) for every pass but the last. Throws strobe::Error when it cannot.
  virtual void save_passes(int pass, const std::string& path, const profile::WorkloadIdentity& w) const;
  /// Takes what save_passes(pass - 1, ...) wrote to `path`, so that the next pass to run is
  /// `pass`. Throws InputError naming `path` for a corrupt file, another format version, another
  /// method or a workload other than `w`.
  virtual void restore_passes(int pass, const std::string& path, const profile::WorkloadIdentity& w);
};

/// A registered method.
/// A summary's `interval` for an estimate that has none, saying why (`why` completes "the
/// estimate is ..."): the reports print it beside the intervals of statistical methods, so
/// every method says plainly whether its cycles carry one.
inline nlohmann::json no_interval(const std::string& why) {
  return {{"kind", "prediction"}, {"text", "no confidence interval: the estimate is " + why}};
}

struct MethodInfo {
  std::string name;
  std::string description;
  std::vector<MethodParam> params;
  std::unique_ptr<SamplingMethod> (*make)(const MethodOptions&) = nullptr;
  /// Whether the method can start from a functional profile file (`strobe profile`, --profile).
  bool reads_profile = false;
  /// What of the profile it reads: a launch-level method only each launch's sums.
  profile::ProfileDetail profile_detail = profile::ProfileDetail::units;
};

/// The detail a profile read for all of `methods` must keep: units if any of them reads units
/// ("none" and methods that read no profile ask for nothing).
profile::ProfileDetail profile_detail(const std::vector<std::string>& methods);

/// Every registered method, by name.
const std::map<std::string, MethodInfo>& methods();

/// A method as a command line names it: a registered name, or a variant of it with its own
/// parameter values, NAME:KEY=VALUE[:KEY=VALUE...] ("pka:parallelism=0"), so that one comparison
/// can set a method beside its variants against the same reference.
struct MethodSpec {
  std::string name;               ///< the registered method
  std::vector<std::string> sets;  ///< its own KEY=VALUE settings, applied after --sampling-set's
};

/// Splits `text` into its method and settings; InputError when a setting is not KEY=VALUE or
/// the method is missing. The name is not looked up here.
MethodSpec parse_method_spec(const std::string& text);

/// The registration of the method `spec` names (a variant's is its method's); InputError naming
/// an unknown method.
const MethodInfo& method_info(const std::string& spec);
/// Registers a method (from a static initialiser, see STROBE_SAMPLING_METHOD).
bool register_method(MethodInfo info);

/// Builds `name` (a method or a variant, MethodSpec) with `sets` ("KEY=VALUE", keys among the
/// method's declared parameters; keys only another selected method declares are not an error
/// here), then the variant's own settings. `profile` (loaded from
/// `profile_path`) reaches a method that reads profiles and is ignored by one that does not;
/// `warming` says what the work it runs functionally warms; `from_capture`, that its launches are
/// a capture's (MethodOptions::from_capture). Throws InputError naming an unknown method, key or
/// bad value.
std::unique_ptr<SamplingMethod> make_method(const std::string& name, const timing::GpuConfig& gpu,
                                            const std::vector<std::string>& sets, bool skip_functional,
                                            std::shared_ptr<const profile::ProfileFile> profile = nullptr,
                                            const std::string& profile_path = {}, Warming warming = Warming::None,
                                            bool from_capture = false);

/// Fills `o.params` and `o.texts` with every parameter of `params` at its default, then applies
/// `sets` ("KEY=VALUE"; "2%" reads 0.02, an enumeration takes a name). A key `params` does not
/// declare is skipped, or with `strict` an InputError listing the valid keys; a bad value is an
/// InputError naming the key; `where` begins each message.
void resolve_params(const std::vector<MethodParam>& params, const std::vector<std::string>& sets, MethodOptions& o,
                    bool strict, const std::string& where = "--sampling-set");

/// Checks that every key of `sets` is declared by at least one of `names`, and that each
/// variant's own settings are its method's, with valid values; throws InputError.
void check_sampling_sets(const std::vector<std::string>& names, const std::vector<std::string>& sets);

}  // namespace strobe::sampling

/// Registers a sampling method at static-initialisation time.
#define STROBE_SAMPLING_METHOD(var, ...) \
  static const bool var = ::strobe::sampling::register_method(::strobe::sampling::MethodInfo{__VA_ARGS__})

/// Declares a method's parameters once. `LIST(X)` calls `X(type, name, default, lo, hi, doc)` for
/// each; this generates `struct Name` with one typed field per parameter (initialised to its
/// default), `Name::schema()` (the MethodParam list to register, in declaration order) and
/// `Name::from(const MethodOptions&)` (the resolved values). Field and user-facing name are the
/// same token, so a misspelt parameter is a compile error, not a run-time lookup failure. A
/// `type` that is an enumeration declares its value names with `param_choices(type)` beside it;
/// its default is an enumerator and lo, hi span the enumerators' values. A `std::string` type
/// declares a text parameter (a file path): its default is a string literal, lo and hi unused.
#define STROBE_METHOD_PARAMS(Name, LIST)                                                          \
  struct Name {                                                                                   \
    LIST(STROBE_DETAIL_PARAM_FIELD)                                                               \
    static std::vector<::strobe::sampling::MethodParam> schema() {                               \
      return {LIST(STROBE_DETAIL_PARAM_SCHEMA)};                                                  \
    }                                                                                             \
    static Name from(const ::strobe::sampling::MethodOptions& o) {                               \
      Name p;                                                                                     \
      LIST(STROBE_DETAIL_PARAM_READ)                                                              \
      return p;                                                                                   \
    }                                                                                             \
  }
#define STROBE_DETAIL_PARAM_FIELD(type, name, def, lo, hi, doc) type name = type(def);
#define STROBE_DETAIL_PARAM_SCHEMA(type, name, def, lo, hi, doc) \
  ::strobe::sampling::detail::param_schema<type>(#name, def, double(lo), double(hi), doc),
#define STROBE_DETAIL_PARAM_READ(type, name, def, lo, hi, doc) \
  p.name = ::strobe::sampling::detail::param_value<type>(o, #name);
