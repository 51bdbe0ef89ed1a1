// splitmix64 (Steele, Lea and Flood): the one bit mixer and seeded stream the sampling methods
// share, fixed on every platform unlike std:: distributions.
#pragma once

#include <cstdint>

namespace strobe::sampling {

/// splitmix64's output function: a bijective 64-bit mix.
inline uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// The next value of the splitmix64 stream whose state is `s`.
inline uint64_t splitmix64(uint64_t& s) { return mix64(s += 0x9E3779B97F4A7C15ull); }

}  // namespace strobe::sampling
