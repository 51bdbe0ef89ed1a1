// Runs one conformance kernel on strobe's emulator: the inputs uploaded as typed buffers, one
// work-item per element (or per vector), the output read back. Shared by the integer,
// conversion and relational suites, which differ only in their kernels and references.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "runtime/device.h"

namespace strobe::conformance {

/// The two builds every conformance kernel exists in, as (directory under the build tree, label).
inline const std::vector<std::pair<std::string, std::string>>& conformance_builds() {
  static const std::vector<std::pair<std::string, std::string>> builds = {
      {"kernels/conformance", "clang15_v4"}, {"kernels-clang19/conformance", "clang19_v5"}};
  return builds;
}

/// One loaded conformance code object and the device it runs on.
class KernelRunner {
 public:
  explicit KernelRunner(const std::string& path) : module_(&dev_.load(path)) {}

  /// Copies `v` into a new device buffer and returns its address.
  template <typename S>
  uint64_t upload(const std::vector<S>& v) {
    const uint64_t a = dev_.malloc(std::max<size_t>(v.size() * sizeof(S), 1));
    dev_.copy_to_device(a, v.data(), v.size() * sizeof(S));
    return a;
  }

  /// A device buffer of `n` elements of S, filled with a pattern no builtin result relies on.
  template <typename S>
  uint64_t output(size_t n) {
    const uint64_t a = dev_.malloc(n * sizeof(S));
    dev_.memset(a, 0xA5, n * sizeof(S));
    return a;
  }

  /// Refills `bytes` at `addr` with the pattern of output(), so stale results cannot pass.
  void fill(uint64_t addr, size_t bytes) { dev_.memset(addr, 0xA5, bytes); }

  /// Reads `n` elements of S back from `addr`.
  template <typename S>
  std::vector<S> download(uint64_t addr, size_t n) {
    std::vector<S> v(n);
    dev_.copy_to_host(v.data(), addr, n * sizeof(S));
    return v;
  }

  /// Launches `kernel` over `items` work-items with `buffers` as its arguments; returns the
  /// error the launch raised, or "" when it ran.
  std::string launch(const std::string& kernel, uint32_t items, const std::vector<uint64_t>& buffers) {
    runtime::LaunchConfig cfg;
    cfg.grid = {items, 1, 1};
    cfg.local = {std::min<uint32_t>(items, 64), 1, 1};
    for (uint64_t b : buffers) cfg.args.push_back(runtime::ArgValue::buffer(b));
    try {
      dev_.launch(*module_, kernel, cfg);
    } catch (const std::exception& e) {
      return kernel + ": " + e.what();
    }
    return "";
  }

 private:
  runtime::Device dev_;
  runtime::Module* module_;
};

/// The path of a conformance code object, or "" (and the test skipped) when it was not built.
inline std::string conformance_object(const std::string& build_dir, const std::string& stem) {
  const auto path = std::filesystem::path(STROBE_BUILD_DIR) / build_dir / (stem + ".hsaco");
  return std::filesystem::exists(path) ? path.string() : "";
}

}  // namespace strobe::conformance
