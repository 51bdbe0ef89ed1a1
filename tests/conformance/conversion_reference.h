// The host side of the conversion conformance suite: the results OpenCL C 2.0 section 6.2.3
// allows for convert_<dst>{_sat}{_rte,_rtz,_rtp,_rtn}(src), computed exactly in 128-bit integer
// and long double arithmetic (long double holds every long, ulong and double value exactly).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "conformance/integer_reference.h"

namespace strobe::conformance {

/// The rounding a conversion suffix names; `fallback` when it names none.
inline std::string rounding_of(const std::string& mode, const std::string& fallback) {
  for (const char* r : {"_rte", "_rtz", "_rtp", "_rtn"})
    if (mode.find(r) != std::string::npos) return r + 1;
  return fallback;
}

/// v rounded to an integral value as `rounding` says.
inline long double round_integral(long double v, const std::string& rounding) {
  if (rounding == "rte") return std::nearbyint(v);  // the host rounds to nearest even
  if (rounding == "rtp") return std::ceil(v);
  if (rounding == "rtn") return std::floor(v);
  return std::trunc(v);
}

/// v rounded to the floating type D as `rounding` says (overflow included: rtz never gives inf).
template <typename D>
D round_to(long double v, const std::string& rounding) {
  const D r = D(v);  // a single rounding to nearest even
  if (std::isnan(v) || (long double)r == v || rounding == "rte") return r;
  const D below = (long double)r < v ? r : std::nextafter(r, -std::numeric_limits<D>::infinity());
  const D above = (long double)r > v ? r : std::nextafter(r, std::numeric_limits<D>::infinity());
  if (rounding == "rtp") return above;
  if (rounding == "rtn") return below;
  return v > 0 ? below : above;
}

/// The exact result of convert_<D><mode>(s), or nothing where the spec leaves it undefined: a
/// floating value that is NaN or out of D's range converted without _sat ("implementation-
/// defined", section 6.2.3.3). Integer to integer without _sat keeps the low bits (C99 6.3.1.3;
/// clang defines the signed case as modular too).
template <typename D, typename S>
std::vector<D> exact_conversion(S s, const std::string& mode) {
  const bool sat = mode.find("_sat") != std::string::npos;
  if constexpr (std::is_integral_v<D>) {
    constexpr long double lo = (long double)std::numeric_limits<D>::min(), hi = (long double)std::numeric_limits<D>::max();
    if constexpr (std::is_integral_v<S>) {
      return {sat ? saturate<D>(Int128(s)) : D(Int128(s))};
    } else {
      if (std::isnan(s)) return sat ? std::vector<D>{0} : std::vector<D>{};
      const long double v = round_integral((long double)s, rounding_of(mode, "rtz"));
      if (v < lo || v > hi) {
        if (!sat) return {};
        return {v < lo ? std::numeric_limits<D>::min() : std::numeric_limits<D>::max()};
      }
      return {D(Int128(v))};
    }
  } else {
    return {round_to<D>((long double)s, rounding_of(mode, "rte"))};
  }
}

/// The results the device may show for convert_<D><mode>(s): the exact one, and, because
/// gfx803 flushes float denormals (no CL_FP_DENORM), the result for a flushed float input and a
/// flushed float result.
template <typename D, typename S>
std::vector<D> allowed_conversions(S s, const std::string& mode) {
  std::vector<D> out = exact_conversion<D>(s, mode);
  if (out.empty()) return out;
  if constexpr (std::is_same_v<S, float>)
    if (std::fpclassify(s) == FP_SUBNORMAL) {
      auto flushed = exact_conversion<D>(std::copysign(0.0f, s), mode);
      out.insert(out.end(), flushed.begin(), flushed.end());
    }
  if constexpr (std::is_same_v<D, float>)
    if (std::fpclassify(out[0]) == FP_SUBNORMAL) out.push_back(std::copysign(0.0f, out[0]));
  return out;
}

}  // namespace strobe::conformance
