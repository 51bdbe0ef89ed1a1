// Shared machinery for end-to-end kernel tests: one fixture parameterised over every build of the
// test kernels (clang-15 code object v2/v3/v4 and clang-19 v5), device buffers, ULP comparison.
#pragma once

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "runtime/device.h"

namespace strobe::e2e {

/// One compiled flavour of kernels/tests: where its code objects are and what produced them.
struct KernelBuild {
  std::string dir;    ///< directory under the build tree
  std::string label;  ///< e.g. "clang15_v4"
};

/// Prints the flavour by its label in test output.
inline void PrintTo(const KernelBuild& b, std::ostream* os) { *os << b.label; }

/// All flavours the build can produce (some may be absent, e.g. without clang-19).
inline std::vector<KernelBuild> kernel_builds() {
  return {{"kernels/tests", "clang15_v4"},
          {"kernels-v2", "clang15_v2"},
          {"kernels-v3", "clang15_v3"},
          {"kernels-clang19/tests", "clang19_v5"}};
}

/// Deterministic 64-bit generator (splitmix64) so inputs are identical on every platform.
class Rng {
 public:
  explicit Rng(uint64_t seed) : s_(seed) {}
  uint64_t next() {
    uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint32_t u32() { return uint32_t(next()); }
  /// Uniform float in [lo, hi).
  float uniform(float lo, float hi) { return lo + (hi - lo) * float(next() >> 40) * 0x1p-24f; }
  double uniform_d(double lo, double hi) { return lo + (hi - lo) * double(next() >> 11) * 0x1p-53; }

 private:
  uint64_t s_;
};

/// Distance in units in the last place between two floats of the same sign class.
inline uint64_t ulp_distance(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b) ? 0 : UINT64_MAX;
  auto key = [](float f) {
    int32_t i = std::bit_cast<int32_t>(f);
    return int64_t(i < 0 ? int32_t(0x80000000u) - i : i);
  };
  int64_t d = key(a) - key(b);
  return uint64_t(d < 0 ? -d : d);
}

inline uint64_t ulp_distance(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b) ? 0 : UINT64_MAX;
  auto key = [](double f) {
    int64_t i = std::bit_cast<int64_t>(f);
    return i < 0 ? int64_t(0x8000000000000000ull) - i : i;
  };
  __int128 d = __int128(key(a)) - key(b);
  return uint64_t(d < 0 ? -d : d);
}

/// Fixture: a fresh Device per test and the code object directory of the current flavour.
class KernelTest : public ::testing::TestWithParam<KernelBuild> {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::path(STROBE_BUILD_DIR) / GetParam().dir;
    if (!std::filesystem::exists(dir_))
      GTEST_SKIP() << "no " << GetParam().label << " kernels in " << dir_ << " (compiler not installed)";
  }

  /// Loads kernels/tests/<name>.cl as built by the current flavour.
  runtime::Module& load(const std::string& name) { return dev_.load((dir_ / (name + ".hsaco")).string()); }

  /// Copies `v` into a new device buffer.
  template <typename T>
  uint64_t upload(const std::vector<T>& v) {
    uint64_t a = dev_.malloc(std::max<size_t>(v.size() * sizeof(T), 1));
    dev_.copy_to_device(a, v.data(), v.size() * sizeof(T));
    return a;
  }
  /// A zero-filled device buffer of `n` elements of T.
  template <typename T>
  uint64_t zeros(size_t n) {
    uint64_t a = dev_.malloc(std::max<size_t>(n * sizeof(T), 1));
    dev_.memset(a, 0, n * sizeof(T));
    return a;
  }
  template <typename T>
  std::vector<T> download(uint64_t addr, size_t n) {
    std::vector<T> v(n);
    dev_.copy_to_host(v.data(), addr, n * sizeof(T));
    return v;
  }

  runtime::LaunchResult launch(runtime::Module& m, const std::string& kernel, runtime::Dim3 grid, runtime::Dim3 local,
                               std::vector<runtime::ArgValue> args, uint32_t dims = 0) {
    runtime::LaunchConfig cfg;
    cfg.grid = grid;
    cfg.local = local;
    cfg.dims = dims ? dims : (grid[2] > 1 ? 3 : grid[1] > 1 ? 2 : 1);
    cfg.args = std::move(args);
    return dev_.launch(m, kernel, cfg);
  }

  runtime::Device dev_;
  std::filesystem::path dir_;
};

using runtime::ArgValue;

/// Instantiates a KernelTest suite over every kernel build flavour.
#define STROBE_E2E_SUITE(Suite)                                                                  \
  INSTANTIATE_TEST_SUITE_P(AllBuilds, Suite, ::testing::ValuesIn(::strobe::e2e::kernel_builds()), \
                           [](const auto& info) { return info.param.label; })

}  // namespace strobe::e2e
