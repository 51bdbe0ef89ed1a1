// The benchmark plug-in interface: one folder per benchmark under src/workloads/, registered by
// name from its own file with STROBE_BENCHMARK (no central list).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "workloads/params.h"

namespace strobe::workloads {

class Context;

/// One benchmark instance, built with its resolved parameters. A run calls setup, run and
/// (with --verify) verify, in that order, on one Context.
class Benchmark {
 public:
  virtual ~Benchmark() = default;
  /// Generates the seeded inputs and allocates/uploads device buffers (not part of the measured work).
  virtual void setup(Context& ctx) = 0;
  /// Launches the kernels: the work a timing model measures. May launch any number of kernels.
  virtual void run(Context& ctx) = 0;
  /// Downloads the outputs, computes the CPU reference and compares; throws VerificationError
  /// naming the first mismatch.
  virtual void verify(Context& ctx) = 0;
};

/// What `strobe list` shows about a benchmark, and how to build one.
struct BenchmarkInfo {
  std::string name;
  std::string description;  ///< one line
  std::vector<ParamSpec> params;
  std::function<std::unique_ptr<Benchmark>(const Params&)> make;
};

/// Every registered benchmark, by name.
class Registry {
 public:
  /// The process-wide registry that STROBE_BENCHMARK fills during static initialisation.
  static Registry& instance();
  /// Adds a benchmark; a duplicate name is a programming error (aborts with a message).
  bool add(BenchmarkInfo info);
  /// The benchmark called `name`, or nullptr.
  const BenchmarkInfo* find(const std::string& name) const;
  /// All benchmarks sorted by name.
  std::vector<const BenchmarkInfo*> all() const;

 private:
  std::vector<std::unique_ptr<BenchmarkInfo>> entries_;
};

/// Registers `T` (constructible from its parameter struct `S`) under `name`, with the
/// parameters `fields` declares and binds to the fields of `S`.
template <typename T, typename S>
bool register_benchmark(std::string name, std::string description, std::vector<ParamField<S>> fields) {
  std::vector<ParamSpec> specs = param_specs(fields);
  return Registry::instance().add({std::move(name), std::move(description), std::move(specs),
                                   [fields = std::move(fields)](const Params& p) -> std::unique_ptr<Benchmark> {
                                     return std::make_unique<T>(bind_params(fields, p));
                                   }});
}

/// The same with a braced list of fields (what STROBE_BENCHMARK usually passes).
template <typename T, typename S>
bool register_benchmark(std::string name, std::string description, std::initializer_list<ParamField<S>> fields) {
  return register_benchmark<T, S>(std::move(name), std::move(description), std::vector<ParamField<S>>(fields));
}

}  // namespace strobe::workloads

/// Registers benchmark class `Class` as NAME with a one-line DESCRIPTION and its parameters: a
/// braced list (or a vector) of fields of the struct Class is built from, e.g.
/// STROBE_BENCHMARK(Fir, "fir", "...", {int_param(&FirParams::n, "n", ...)}).
#define STROBE_BENCHMARK(Class, NAME, DESCRIPTION, ...)                   \
  [[maybe_unused]] static const bool strobe_benchmark_registered_##Class = \
      ::strobe::workloads::register_benchmark<Class>(NAME, DESCRIPTION, __VA_ARGS__)
