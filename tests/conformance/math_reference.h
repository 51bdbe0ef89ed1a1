// The host side of the math conformance suite: for every builtin of kernels/conformance/math_list.h
// (and the other shapes of math_kernels.h), its exact value computed in long double, the ULP bound
// the OpenCL C 2.0 specification sets for each type (section 7.4, and the cl_khr_fp16 table),
// and the inputs it is tried on.
#pragma once

#include <cmath>
#include <functional>
#include <map>
#include <string>

namespace strobe::conformance {

/// Where a function's random inputs come from (special values are added to Any and Trig).
enum class Domain {
  Any,       ///< random bit patterns: every binade, both signs, plus the special values
  Trig,      ///< Any plus moderate and huge arguments
  Small,     ///< uniform in [-20, 20]
  Unit,      ///< uniform in [-1, 1]
  Positive,  ///< uniform in (0, 100]
  Modest,    ///< uniform in (0, 4]
  Gamma,     ///< (0.1, 0.9) and (2.5, 30): away from lgamma's zeros
};

/// How one builtin is checked.
struct MathRef {
  std::function<long double(long double, long double, long double)> f;  ///< the exact result
  double ulp_f32, ulp_f64, ulp_f16;  ///< the spec's bounds; < 0: the type has no such builtin
  Domain domain = Domain::Any;
  bool finite_inputs = false;  ///< the spec leaves infinite and NaN inputs undefined
};

/// pi to long double precision.
inline constexpr long double kPi = 3.141592653589793238462643383279502884L;

/// sin(pi x) without the error of forming pi x for large x: the period is reduced exactly first.
inline long double sinpi_ref(long double x) {
  if (std::isinf(x)) return NAN;
  long double r = std::fmod(x, 2.0L);  // exact
  if (r == 0 || std::fabs(r) == 1) return std::copysign(0.0L, x);
  return std::sin(kPi * r);
}
inline long double cospi_ref(long double x) {
  if (std::isinf(x)) return NAN;
  long double r = std::fabs(std::fmod(x, 2.0L));
  if (r == 0.5L || r == 1.5L) return 0.0L;
  return std::cos(kPi * r);
}
inline long double tanpi_ref(long double x) {
  if (std::isinf(x)) return NAN;
  long double r = std::fmod(x, 1.0L);  // tan(pi x) has period 1
  if (r == 0) {
    // tanpi(n) is +0 for even n and -0 for odd n, signed like x (spec 7.5.1)
    bool odd = std::fmod(std::fabs(x), 2.0L) == 1.0L;
    return std::copysign(0.0L, odd ? -x : x);
  }
  if (std::fabs(r) == 0.5L) {
    bool odd = std::fmod(std::fabs(x - r), 2.0L) == 1.0L;
    return (r > 0) != odd ? INFINITY : -INFINITY;
  }
  return std::tan(kPi * r);
}

/// powr: pow for x >= 0 only, with the spec's own edge cases (section 7.5.1).
inline long double powr_ref(long double x, long double y) {
  if (std::isnan(x) || std::isnan(y) || x < 0) return NAN;
  if (x == 0 && y == 0) return NAN;
  if (std::isinf(x) && y == 0) return NAN;
  if (x == 1 && std::isinf(y)) return NAN;
  if (x == 0) return y < 0 ? INFINITY : 0.0L;
  return std::pow(x, y);
}

/// rootn(x, n) = x^(1/n), defined for negative x when n is odd.
inline long double rootn_ref(long double x, int n) {
  if (n == 0 || std::isnan(x)) return NAN;
  const bool odd = n % 2 != 0;
  if (x < 0 && !odd) return NAN;
  if (x == 0) return n > 0 ? (odd ? x : 0.0L) : (odd ? std::copysign((long double)INFINITY, x) : INFINITY);
  if (std::isinf(x)) return n > 0 ? (odd ? x : INFINITY) : (odd ? std::copysign(0.0L, x) : 0.0L);
  const long double r = std::pow(std::fabs(x), 1.0L / n);
  return x < 0 ? -r : r;
}

inline long double maxmag_ref(long double x, long double y) {
  if (std::fabs(x) > std::fabs(y)) return x;
  if (std::fabs(y) > std::fabs(x)) return y;
  return std::fmax(x, y);
}
inline long double minmag_ref(long double x, long double y) {
  if (std::fabs(x) < std::fabs(y)) return x;
  if (std::fabs(y) < std::fabs(x)) return y;
  return std::fmin(x, y);
}

/// The gentype-shaped builtins (math_list.h and the float-only half_/native_ forms) by name.
inline const std::map<std::string, MathRef>& math_refs() {
  using L = long double;
  auto u = [](L (*f)(L)) { return [f](L x, L, L) { return f(x); }; };
  auto b = [](L (*f)(L, L)) { return [f](L x, L y, L) { return f(x, y); }; };
  static const std::map<std::string, MathRef> refs = {
      {"acos", {u(std::acos), 4, 4, 2}},
      {"acosh", {u(std::acosh), 4, 4, 2}},
      {"acospi", {[](L x, L, L) { return std::acos(x) / kPi; }, 5, 5, 2}},
      {"asin", {u(std::asin), 4, 4, 2}},
      {"asinh", {u(std::asinh), 4, 4, 2}},
      {"asinpi", {[](L x, L, L) { return std::asin(x) / kPi; }, 5, 5, 2}},
      {"atan", {u(std::atan), 5, 5, 2}},
      {"atanh", {u(std::atanh), 5, 5, 2}},
      {"atanpi", {[](L x, L, L) { return std::atan(x) / kPi; }, 5, 5, 2}},
      {"cbrt", {u(std::cbrt), 2, 2, 2}},
      {"ceil", {u(std::ceil), 0, 0, 0}},
      {"cos", {u(std::cos), 4, 4, 2, Domain::Trig}},
      {"cosh", {u(std::cosh), 4, 4, 2}},
      {"cospi", {[](L x, L, L) { return cospi_ref(x); }, 4, 4, 2, Domain::Trig}},
      {"erfc", {u(std::erfc), 16, 16, 4}},
      {"erf", {u(std::erf), 16, 16, 4}},
      {"exp", {u(std::exp), 3, 3, 2}},
      {"exp2", {u(std::exp2), 3, 3, 2}},
      {"exp10", {[](L x, L, L) { return ::exp10l(x); }, 3, 3, 2}},
      {"expm1", {u(std::expm1), 3, 3, 2}},
      {"fabs", {u(std::fabs), 0, 0, 0}},
      {"floor", {u(std::floor), 0, 0, 0}},
      // The spec leaves lgamma's error undefined; 64 ulp away from its zeros catches a wrong function.
      {"lgamma", {u(std::lgamma), 64, 64, 64, Domain::Gamma}},
      {"log", {u(std::log), 3, 3, 2}},
      {"log2", {u(std::log2), 3, 3, 2}},
      {"log10", {u(std::log10), 3, 3, 2}},
      {"log1p", {u(std::log1p), 2, 2, 2}},
      {"logb", {u(std::logb), 0, 0, 0}},
      {"rint", {u(std::rint), 0, 0, 0}},
      {"round", {u(std::round), 0, 0, 0}},
      {"rsqrt", {[](L x, L, L) { return 1.0L / std::sqrt(x); }, 2, 2, 1}},
      {"sin", {u(std::sin), 4, 4, 2, Domain::Trig}},
      {"sinh", {u(std::sinh), 4, 4, 2}},
      {"sinpi", {[](L x, L, L) { return sinpi_ref(x); }, 4, 4, 2, Domain::Trig}},
      {"sqrt", {u(std::sqrt), 3, 0, 1}},
      {"tan", {u(std::tan), 5, 5, 2, Domain::Trig}},
      {"tanh", {u(std::tanh), 5, 5, 2}},
      {"tanpi", {[](L x, L, L) { return tanpi_ref(x); }, 6, 6, 2, Domain::Trig}},
      {"tgamma", {u(std::tgamma), 16, 16, 4}},
      {"trunc", {u(std::trunc), 0, 0, 0}},
      {"degrees", {[](L x, L, L) { return x * (180.0L / kPi); }, 2, 2, 2}},
      {"radians", {[](L x, L, L) { return x * (kPi / 180.0L); }, 2, 2, 2}},
      {"sign", {[](L x, L, L) { return std::isnan(x) ? 0.0L : x > 0 ? 1.0L : x < 0 ? -1.0L : x; }, 0, 0, 0}},
      {"atan2", {b(std::atan2), 6, 6, 2}},
      {"atan2pi", {[](L x, L y, L) { return std::atan2(x, y) / kPi; }, 6, 6, 2}},
      {"copysign", {b(std::copysign), 0, 0, 0}},
      {"fdim", {b(std::fdim), 0, 0, 0}},
      {"fmax", {b(std::fmax), 0, 0, 0}},
      {"fmin", {b(std::fmin), 0, 0, 0}},
      {"fmod", {b(std::fmod), 0, 0, 0}},
      {"hypot", {b(std::hypot), 4, 4, 2}},
      {"maxmag", {[](L x, L y, L) { return maxmag_ref(x, y); }, 0, 0, 0}},
      {"minmag", {[](L x, L y, L) { return minmag_ref(x, y); }, 0, 0, 0}},
      {"nextafter", {b(std::nextafter), 0, 0, 0}},  // replaced per type: see candidates
      {"pow", {b(std::pow), 16, 16, 4}},
      {"powr", {[](L x, L y, L) { return powr_ref(x, y); }, 16, 16, 4}},
      {"remainder", {b(std::remainder), 0, 0, 0}},
      {"max", {b(std::fmax), 0, 0, 0, Domain::Any, true}},
      {"min", {b(std::fmin), 0, 0, 0, Domain::Any, true}},
      {"step", {[](L e, L x, L) { return x < e ? 0.0L : 1.0L; }, 0, 0, 0, Domain::Any, true}},
      {"divide", {[](L x, L y, L) { return x / y; }, 2.5, 0, -1}},
      {"fma", {[](L x, L y, L z) { return x * y + z; }, 0, 0, 0}},  // exact in long double for float
      {"mad", {[](L x, L y, L z) { return x * y + z; }, 0, 0, 0, Domain::Small}},  // fused or not: see candidates
      {"clamp", {[](L x, L lo, L hi) { return std::fmin(std::fmax(x, lo), hi); }, 0, 0, 0, Domain::Any, true}},
      {"mix", {[](L x, L y, L a) { return x + (y - x) * a; }, 1, 1, 1, Domain::Small, true}},
      {"smoothstep", {[](L e0, L e1, L x) {
                        L t = std::fmin(std::fmax((x - e0) / (e1 - e0), 0.0L), 1.0L);
                        return t * t * (3 - 2 * t);
                      }, 8, 8, 8, Domain::Small, true}},
      // float only: half_ (8192 ulp) and native_ (implementation-defined: 8192 ulp on a sane domain)
      {"half_cos", {u(std::cos), 8192, -1, -1, Domain::Small}},
      {"half_exp", {u(std::exp), 8192, -1, -1, Domain::Small}},
      {"half_exp2", {u(std::exp2), 8192, -1, -1, Domain::Small}},
      {"half_exp10", {[](L x, L, L) { return ::exp10l(x); }, 8192, -1, -1, Domain::Small}},
      {"half_log", {u(std::log), 8192, -1, -1, Domain::Positive}},
      {"half_log2", {u(std::log2), 8192, -1, -1, Domain::Positive}},
      {"half_log10", {u(std::log10), 8192, -1, -1, Domain::Positive}},
      {"half_recip", {[](L x, L, L) { return 1.0L / x; }, 8192, -1, -1, Domain::Positive}},
      {"half_rsqrt", {[](L x, L, L) { return 1.0L / std::sqrt(x); }, 8192, -1, -1, Domain::Positive}},
      {"half_sin", {u(std::sin), 8192, -1, -1, Domain::Small}},
      {"half_sqrt", {u(std::sqrt), 8192, -1, -1, Domain::Positive}},
      {"half_tan", {u(std::tan), 8192, -1, -1, Domain::Unit}},
      {"half_divide", {[](L x, L y, L) { return x / y; }, 8192, -1, -1, Domain::Positive}},
      {"half_powr", {[](L x, L y, L) { return powr_ref(x, y); }, 8192, -1, -1, Domain::Modest}},
      {"native_cos", {u(std::cos), 8192, -1, -1, Domain::Small}},
      {"native_exp", {u(std::exp), 8192, -1, -1, Domain::Small}},
      {"native_exp2", {u(std::exp2), 8192, -1, -1, Domain::Small}},
      {"native_exp10", {[](L x, L, L) { return ::exp10l(x); }, 8192, -1, -1, Domain::Small}},
      {"native_log", {u(std::log), 8192, -1, -1, Domain::Positive}},
      {"native_log2", {u(std::log2), 8192, -1, -1, Domain::Positive}},
      {"native_log10", {u(std::log10), 8192, -1, -1, Domain::Positive}},
      {"native_recip", {[](L x, L, L) { return 1.0L / x; }, 8192, -1, -1, Domain::Positive}},
      {"native_rsqrt", {[](L x, L, L) { return 1.0L / std::sqrt(x); }, 8192, -1, -1, Domain::Positive}},
      {"native_sin", {u(std::sin), 8192, -1, -1, Domain::Small}},
      {"native_sqrt", {u(std::sqrt), 8192, -1, -1, Domain::Positive}},
      // native_tan's accuracy is implementation-defined; ROCm 5.2's ocml scales x by 1/(2 pi) and
      // then calls native_sin/native_cos, which scale again (v_mul by 1/(2 pi) twice before
      // v_sin/v_cos in the object): the library computes tan(x / (2 pi)), on hardware as here.
      {"native_tan", {[](L x, L, L) { return std::tan(x / (2 * kPi)); }, 8192, -1, -1, Domain::Unit}},
      {"native_divide", {[](L x, L y, L) { return x / y; }, 8192, -1, -1, Domain::Positive}},
      {"native_powr", {[](L x, L y, L) { return powr_ref(x, y); }, 8192, -1, -1, Domain::Modest}},
  };
  return refs;
}

}  // namespace strobe::conformance
