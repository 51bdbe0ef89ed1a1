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

/// Registers `T` (constructible from `const Params&`) under `name`.
template <typename T>
bool register_benchmark(std::string name, std::string description, std::vector<ParamSpec> params) {
  return Registry::instance().add(
      {std::move(name), std::move(description), std::move(params),
       [](const Params& p) -> std::unique_ptr<Benchmark> { return std::make_unique<T>(p); }});
}

}  // namespace strobe::workloads

/// Registers benchmark class `Class` as NAME with a one-line DESCRIPTION and a braced list of
/// ParamSpecs, e.g. STROBE_BENCHMARK(Fir, "fir", "...", {int_param("n", ...)}).
#define STROBE_BENCHMARK(Class, NAME, DESCRIPTION, ...)                                             \
  [[maybe_unused]] static const bool strobe_benchmark_registered_##Class =                           \
      ::strobe::workloads::register_benchmark<Class>(NAME, DESCRIPTION, std::vector<::strobe::workloads::ParamSpec> __VA_ARGS__)
