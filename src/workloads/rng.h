// The deterministic input generator every benchmark uses, so inputs are identical everywhere.
#pragma once

#include <cstdint>

namespace strobe::workloads {

/// splitmix64: tiny, fast, and fully specified (std:: distributions are not portable).
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
  /// Uniform integer in [0, n).
  uint32_t below(uint32_t n) { return uint32_t((uint64_t(u32()) * n) >> 32); }
  /// Uniform float in [lo, hi).
  float uniform(float lo, float hi) { return lo + (hi - lo) * float(next() >> 40) * 0x1p-24f; }
  /// Uniform double in [0, 1).
  double unit() { return double(next() >> 11) * 0x1p-53; }

 private:
  uint64_t s_;
};

/// Rounds `n` up to a multiple of `m`.
inline uint32_t round_up(uint64_t n, uint32_t m) { return uint32_t((n + m - 1) / m * m); }

}  // namespace strobe::workloads
