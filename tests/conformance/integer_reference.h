// The host side of the integer conformance suite: the exact result of every builtin of
// kernels/conformance/integer_list.h, computed in 128-bit arithmetic from the definitions of
// OpenCL C 2.0 section 6.13.3, and the inputs the spec defines each builtin for.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

namespace strobe::conformance {

using Int128 = __int128;
using Uint128 = unsigned __int128;

/// The width of T in bits.
template <typename T>
inline constexpr int kBits = int(sizeof(T) * 8);

/// v clamped to T's range (the _sat builtins).
template <typename T>
T saturate(Int128 v) {
  return T(std::clamp<Int128>(v, std::numeric_limits<T>::min(), std::numeric_limits<T>::max()));
}

/// The high half of the double-width product x * y (mul_hi).
template <typename T>
T mul_hi_ref(T x, T y) {
  if constexpr (std::is_signed_v<T>) return T((Int128(x) * Int128(y)) >> kBits<T>);
  else return T((Uint128(x) * Uint128(y)) >> kBits<T>);
}

/// x * y + z saturated to T (mad_sat): the exact sum can exceed 128 bits only for ulong.
template <typename T>
T mad_sat_ref(T x, T y, T z) {
  if constexpr (std::is_signed_v<T>) {
    return saturate<T>(Int128(x) * Int128(y) + Int128(z));
  } else {
    const Uint128 p = Uint128(x) * Uint128(y), max = std::numeric_limits<T>::max();
    return p > max - z ? T(max) : T(p + z);
  }
}

/// 24-bit operands are sign-extended (int) or zero-extended (uint) from bit 23; the spec leaves
/// mul24 and mad24 of other values implementation-defined (section 6.13.3), so inputs are mapped
/// into the 24-bit domain.
template <typename T>
T to_24bit(T v) {
  if constexpr (std::is_signed_v<T>) return T(int32_t(uint32_t(v) << 8) >> 8);
  else return T(v & 0xFFFFFFu);
}

/// The exact result of integer builtin `f` at (x, y, z), reinterpreted as T as the kernels store
/// it (abs and abs_diff return the unsigned type).
template <typename T>
T integer_ref(const std::string& f, T x, T y, T z) {
  using U = std::make_unsigned_t<T>;
  const Int128 a = x, b = y;
  if (f == "abs") return T(U(a < 0 ? -a : a));
  if (f == "abs_diff") return T(U(a > b ? a - b : b - a));
  if (f == "add_sat") return saturate<T>(a + b);
  if (f == "sub_sat") return saturate<T>(a - b);
  if (f == "hadd") return T((a + b) >> 1);  // (x + y) >> 1 without overflow: floor
  if (f == "rhadd") return T((a + b + 1) >> 1);
  if (f == "max") return std::max(x, y);
  if (f == "min") return std::min(x, y);
  if (f == "clamp") return std::min(std::max(x, y), z);
  if (f == "clz") return T(std::countl_zero(U(x)));
  if (f == "ctz") return T(std::countr_zero(U(x)));  // ctz(0) is the width, as clz(0)
  if (f == "popcount") return T(std::popcount(U(x)));
  if (f == "mul_hi") return mul_hi_ref(x, y);
  if (f == "mad_hi") return T(U(U(mul_hi_ref(x, y)) + U(z)));
  if (f == "mad_sat") return mad_sat_ref(x, y, z);
  // The shift count is taken modulo the width, as for << (section 6.3.j).
  if (f == "rotate") return T(std::rotl(U(x), int(U(y) % kBits<T>)));
  if (f == "mul24") return T(Int128(x) * Int128(y));  // both in the 24-bit domain: low 32 bits
  if (f == "mad24") return T(U(U(T(Int128(x) * Int128(y))) + U(z)));
  return T(0xA5);  // unknown: cannot match the 0xA5 fill by chance for every input
}

/// upsample(hi, lo) = ((wide)hi << bits) | lo, as the bits of the wide result.
template <typename T>
uint64_t upsample_ref(T hi, T lo) {
  using U = std::make_unsigned_t<T>;
  if constexpr (sizeof(T) == 8) return 0;  // no type is twice as wide as long
  else return (uint64_t(int64_t(hi)) << kBits<T>) | uint64_t(U(lo));
}

/// The edge values of an integer range [lo, hi]: 0, 1, -1, both ends and their neighbours, and
/// the sign boundary of the unsigned types.
template <typename T>
std::vector<T> edge_values(T lo, T hi) {
  std::vector<T> v = {0, 1, T(-1), lo, hi, T(lo + 1), T(hi - 1)};
  if constexpr (std::is_unsigned_v<T>) {
    v.push_back(T(T(1) << (kBits<T> - 1)));
    v.push_back(T((T(1) << (kBits<T> - 1)) - 1));
  }
  std::vector<T> out;
  for (T x : v)
    if (x >= lo && x <= hi && std::find(out.begin(), out.end(), x) == out.end()) out.push_back(x);
  return out;
}

}  // namespace strobe::conformance
