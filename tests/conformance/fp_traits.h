// Floating-point formats of the conformance suite: how a device value is stored, widened to the
// host's long double reference precision, and measured in units in the last place (ULP).
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>

namespace strobe::conformance {

/// IEEE binary16 storage (the host has no half type).
struct Half {
  uint16_t bits = 0;
};

/// IEEE binary16 -> long double (exact).
inline long double half_to_ld(uint16_t h) {
  const int sign = h >> 15, exp = (h >> 10) & 0x1F, man = h & 0x3FF;
  long double v;
  if (exp == 0x1F) v = man ? std::numeric_limits<long double>::quiet_NaN() : std::numeric_limits<long double>::infinity();
  else if (exp == 0) v = std::ldexp((long double)man, -24);
  else v = std::ldexp((long double)(man | 0x400), exp - 25);
  return sign ? -v : v;
}

/// long double -> IEEE binary16, rounded to nearest even.
inline uint16_t ld_to_half(long double d) {
  const uint16_t sign = std::signbit(d) ? 0x8000 : 0;
  if (std::isnan(d)) return 0x7E00;
  d = std::fabs(d);
  if (std::isinf(d) || d >= 65520.0L) return sign | 0x7C00;
  if (d == 0) return sign;
  int e;
  std::frexp(d, &e);                   // d = m * 2^e, m in [0.5, 1)
  const int exp = std::max(e - 1, -14);  // unbiased exponent of the result
  long double r = std::nearbyint(std::ldexp(d, 10 - exp));
  uint32_t m = uint32_t(r);
  if (m >= 2048) return sign | uint16_t(((exp + 1 + 15) << 10) | ((m >> 1) & 0x3FF));
  if (m < 1024) return sign | uint16_t(m);
  return sign | uint16_t(((exp + 15) << 10) | (m & 0x3FF));
}

/// What the suite needs to know of one floating-point type.
template <typename T>
struct Fp;

template <>
struct Fp<float> {
  using Store = float;
  static constexpr int kMantissa = 23, kMinExp = -126;
  static constexpr bool kFlushesDenormals = true;  // gfx803 float denormals are flushed by default
  static constexpr const char* kSuffix = "f32";
  static long double widen(float v) { return v; }
  static float narrow(long double v) { return float(v); }
  static uint64_t bits(float v) { return std::bit_cast<uint32_t>(v); }
};

template <>
struct Fp<double> {
  using Store = double;
  static constexpr int kMantissa = 52, kMinExp = -1022;
  static constexpr bool kFlushesDenormals = false;
  static constexpr const char* kSuffix = "f64";
  static long double widen(double v) { return v; }
  static double narrow(long double v) { return double(v); }
  static uint64_t bits(double v) { return std::bit_cast<uint64_t>(v); }
};

template <>
struct Fp<Half> {
  using Store = uint16_t;
  static constexpr int kMantissa = 10, kMinExp = -14;
  static constexpr bool kFlushesDenormals = false;
  static constexpr const char* kSuffix = "f16";
  static long double widen(uint16_t v) { return half_to_ld(v); }
  static uint16_t narrow(long double v) { return ld_to_half(v); }
  static uint64_t bits(uint16_t v) { return v; }
};

/// The largest finite value of T.
template <typename T>
long double max_finite() {
  return std::ldexp(2.0L - std::ldexp(1.0L, -Fp<T>::kMantissa), -Fp<T>::kMinExp + 1);
}

/// The smallest normal value of T.
template <typename T>
long double min_normal() {
  return std::ldexp(1.0L, Fp<T>::kMinExp);
}

/// One ULP of T at the magnitude of `ref` (the spacing of T's values there; subnormals share
/// the smallest normal binade's spacing).
template <typename T>
long double ulp_of(long double ref) {
  int e = std::ilogb(ref);
  if (ref == 0 || e < Fp<T>::kMinExp) e = Fp<T>::kMinExp;
  return std::ldexp(1.0L, e - Fp<T>::kMantissa);
}

/// The error of `got` against the exact `ref`, in ULPs of T; 0 for matching NaNs, infinities
/// and zeros (the sign of a zero counts), infinity for any other mismatch of those classes.
template <typename T>
long double ulp_error(long double got, long double ref) {
  constexpr long double kInf = std::numeric_limits<long double>::infinity();
  if (std::isnan(ref) || std::isnan(got)) return std::isnan(ref) && std::isnan(got) ? 0 : kInf;
  // A result beyond T's range must overflow to the infinity of its sign.
  if (std::fabs(ref) > max_finite<T>() + ulp_of<T>(max_finite<T>()) / 2) ref = std::copysign(kInf, ref);
  if (std::isinf(ref) || std::isinf(got)) return got == ref ? 0 : kInf;
  if (ref == 0) return got == 0 && std::signbit(got) == std::signbit(ref) ? 0 : kInf;
  return std::fabs(got - ref) / ulp_of<T>(ref);
}

/// Prints a value of T with its bit pattern, so a failure names exactly what went in and out.
template <typename T>
std::string describe(typename Fp<T>::Store v) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%.21Lg (0x%llx)", Fp<T>::widen(v), (unsigned long long)Fp<T>::bits(v));
  return buf;
}

}  // namespace strobe::conformance
