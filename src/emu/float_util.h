// Bit-level floating-point helpers for the vector ALU: f16 conversion with explicit rounding,
// denormal flushing per the MODE register, NaN classification, GCN min/max rules, round-to-odd
// arithmetic (for exactly rounded f16 fma and scaled fmas) and host rounding-mode control.
// Everything here works on raw bit patterns so results do not depend on host FP quirks.
#pragma once

#include <bit>
#include <cfenv>
#include <cmath>
#include <limits>
#include <cstdint>

namespace strobe::emu::fp {

// ---------------------------------------------------------------- bit casts
inline float f32(uint32_t b) { return std::bit_cast<float>(b); }
inline uint32_t b32(float f) { return std::bit_cast<uint32_t>(f); }
inline double f64(uint64_t b) { return std::bit_cast<double>(b); }
inline uint64_t b64(double d) { return std::bit_cast<uint64_t>(d); }

// ---------------------------------------------------------------- MODE register fields
/// Rounding mode encoding of MODE.FP_ROUND: 0 nearest-even, 1 +inf, 2 -inf, 3 toward zero.
enum Round : int { kRne = 0, kUp = 1, kDown = 2, kRtz = 3 };
inline int round32(uint32_t mode) { return int(mode & 3); }
inline int round64(uint32_t mode) { return int((mode >> 2) & 3); }  ///< also f16
/// MODE.FP_DENORM: bit 4/6 = allow input denormals, bit 5/7 = allow output denormals.
inline bool flush_in32(uint32_t mode) { return !(mode & 0x10); }
inline bool flush_out32(uint32_t mode) { return !(mode & 0x20); }
inline bool flush_in64(uint32_t mode) { return !(mode & 0x40); }   ///< also f16
inline bool flush_out64(uint32_t mode) { return !(mode & 0x80); }  ///< also f16
/// MODE.DX10_CLAMP (bit 8): clamp turns NaN into 0.
inline bool dx10_clamp(uint32_t mode) { return mode & 0x100; }
/// MODE.IEEE (bit 9): min/max quiet signalling NaNs instead of ignoring them.
inline bool ieee_mode(uint32_t mode) { return mode & 0x200; }

// ---------------------------------------------------------------- classification
inline bool nan32(uint32_t x) { return (x & 0x7FFFFFFFu) > 0x7F800000u; }
inline bool snan32(uint32_t x) { return nan32(x) && !(x & 0x00400000u); }
inline bool inf32(uint32_t x) { return (x & 0x7FFFFFFFu) == 0x7F800000u; }
inline bool zero32(uint32_t x) { return (x & 0x7FFFFFFFu) == 0; }
inline bool denorm32(uint32_t x) { return (x & 0x7F800000u) == 0 && (x & 0x007FFFFFu); }
inline int exp32(uint32_t x) { return int((x >> 23) & 0xFF); }  ///< biased exponent field
inline uint32_t quiet32(uint32_t x) { return x | 0x00400000u; }

inline bool nan64(uint64_t x) { return (x & 0x7FFFFFFFFFFFFFFFull) > 0x7FF0000000000000ull; }
inline bool snan64(uint64_t x) { return nan64(x) && !(x & 0x0008000000000000ull); }
inline bool inf64(uint64_t x) { return (x & 0x7FFFFFFFFFFFFFFFull) == 0x7FF0000000000000ull; }
inline bool zero64(uint64_t x) { return (x & 0x7FFFFFFFFFFFFFFFull) == 0; }
inline bool denorm64(uint64_t x) { return (x & 0x7FF0000000000000ull) == 0 && (x & 0x000FFFFFFFFFFFFFull); }
inline int exp64(uint64_t x) { return int((x >> 52) & 0x7FF); }
inline uint64_t quiet64(uint64_t x) { return x | 0x0008000000000000ull; }

inline bool nan16(uint32_t x) { return (x & 0x7FFF) > 0x7C00; }
inline bool snan16(uint32_t x) { return nan16(x) && !(x & 0x0200); }
inline bool inf16(uint32_t x) { return (x & 0x7FFF) == 0x7C00; }
inline bool zero16(uint32_t x) { return (x & 0x7FFF) == 0; }
inline bool denorm16(uint32_t x) { return (x & 0x7C00) == 0 && (x & 0x03FF); }
inline int exp16(uint32_t x) { return int((x >> 10) & 0x1F); }
inline uint32_t quiet16(uint32_t x) { return (x | 0x0200) & 0xFFFF; }

// ---------------------------------------------------------------- denormal flushing
/// Denormal -> zero of the same sign (what the hardware does when denormals are disabled).
inline uint32_t ftz32(uint32_t x) { return (x & 0x7F800000u) == 0 ? x & 0x80000000u : x; }
inline uint64_t ftz64(uint64_t x) { return (x & 0x7FF0000000000000ull) == 0 ? x & 0x8000000000000000ull : x; }
inline uint32_t ftz16(uint32_t x) { return (x & 0x7C00) == 0 ? x & 0x8000 : x & 0xFFFF; }
inline float ftz(float f) { return f32(ftz32(b32(f))); }
inline double ftz(double d) { return f64(ftz64(b64(d))); }

// ---------------------------------------------------------------- f16 conversions
/// Exact value of an f16 bit pattern (NaN payload kept in the top mantissa bits).
inline double h2d(uint32_t h) {
  uint32_t s = h & 0x8000, e = (h >> 10) & 0x1F, m = h & 0x3FF;
  double v;
  if (e == 0x1F) {
    if (m == 0) v = INFINITY;
    else return f64((uint64_t(s) << 48) | 0x7FF0000000000000ull | (uint64_t(m) << 42));
  } else if (e == 0) {
    v = std::ldexp(double(m), -24);
  } else {
    v = std::ldexp(double(m | 0x400), int(e) - 25);
  }
  return s ? -v : v;
}
/// Exact value of an f16 bit pattern as an f32 (every f16 is one), by moving its fields: this
/// runs for every channel of every compressed export, so it avoids h2d's ldexp.
inline float h2f(uint32_t h) {
  const uint32_t s = (h & 0x8000u) << 16, e = (h >> 10) & 0x1F, m = h & 0x3FF;
  // Infinity; a NaN keeps its payload on top and comes out quiet, as h2d's conversion makes it.
  if (e == 0x1F) return f32(s | 0x7F800000u | (m ? 0x400000u : 0u) | (m << 13));
  if (e == 0) return f32(s | b32(float(m) * 0x1p-24f));    // zero or subnormal: exact scaling
  return f32(s | ((e + 112) << 23) | (m << 13));
}

// ---------------------------------------------------------------- narrow matrix-core inputs
/// Exact value of a bf16 bit pattern (the top half of an f32).
inline double bf2d(uint32_t h) { return double(f32((h & 0xFFFF) << 16)); }
/// Exact value of an 8-bit float with `mbits` mantissa bits and exponent bias `bias` in the
/// "fnuz" encoding gfx942 uses for FP8 (E4M3, bias 8) and BF8 (E5M2, bias 16): no infinities,
/// no negative zero, and 0x80 is the one NaN.
inline double fnuz8_to_d(uint32_t x, int mbits, int bias) {
  x &= 0xFF;
  if (x == 0x80) return std::numeric_limits<double>::quiet_NaN();
  const uint32_t e = (x & 0x7F) >> mbits, m = x & ((1u << mbits) - 1);
  const double v = e == 0 ? std::ldexp(double(m), 1 - bias - mbits)
                          : std::ldexp(double(m | (1u << mbits)), int(e) - bias - mbits);
  return x & 0x80 ? -v : v;
}
/// FP8 (E4M3 fnuz) and BF8 (E5M2 fnuz) values.
inline double fp8_to_d(uint32_t x) { return fnuz8_to_d(x, 3, 8); }
inline double bf8_to_d(uint32_t x) { return fnuz8_to_d(x, 2, 16); }

/// Rounds a double to f16 once, in rounding mode `rm` (Round). NaNs are quieted, payload kept.
inline uint32_t d2h(double d, int rm = kRne) {
  uint64_t b = b64(d);
  uint32_t sign = uint32_t(b >> 48) & 0x8000;
  if (nan64(b)) return sign | 0x7E00 | (uint32_t(b >> 42) & 0x1FF);
  double a = std::fabs(d);
  auto overflow = [&] {
    bool to_inf = rm == kRne || (rm == kUp && !sign) || (rm == kDown && sign);
    return sign | (to_inf ? 0x7C00u : 0x7BFFu);
  };
  if (a >= 131072.0) return overflow();  // also +-inf
  if (a == 0) return sign;
  int e;
  std::frexp(a, &e);                      // a = m * 2^e, m in [0.5, 1)
  int qe = e - 11 < -24 ? -24 : e - 11;   // weight of the last kept bit (min 2^-24: denormals)
  double scaled = std::ldexp(a, -qe);     // exact
  double ip = std::floor(scaled), frac = scaled - ip;
  uint32_t m = uint32_t(ip);
  bool up = false;
  switch (rm) {
    case kRne: up = frac > 0.5 || (frac == 0.5 && (m & 1)); break;
    case kUp: up = frac > 0 && !sign; break;
    case kDown: up = frac > 0 && sign; break;
    default: break;
  }
  m += up;
  // f16 is monotonic in its bits: value m * 2^qe has bits ((qe + 24) << 10) + m (carry into the
  // exponent and the denormal range both fall out of this).
  uint32_t bits = (uint32_t(qe + 24) << 10) + m;
  if (bits >= 0x7C00) return overflow();
  return sign | bits;
}
/// Rounds a float to f16 (via the exact double).
inline uint32_t f2h(float f, int rm = kRne) { return d2h(double(f), rm); }

// ---------------------------------------------------------------- round-to-odd helpers
/// a + b rounded to odd in double: rounding that to any format with <= 51 bits is then exact
/// (single rounding), which fixes double-rounding in fma_f16 and scaled fmas.
inline double add_rto(double a, double b) {
  double s = a + b;
  if (!std::isfinite(s)) return s;
  double bb = s - a, err = (a - (s - bb)) + (b - bb);  // TwoSum: a + b == s + err exactly
  if (err != 0 && !(b64(s) & 1)) {
    // s was rounded to nearest: the exact value lies strictly between s and its neighbour
    // toward err; round-to-odd picks the odd one of the two.
    s = std::nextafter(s, err > 0 ? INFINITY : -INFINITY);
  }
  return s;
}

// ---------------------------------------------------------------- host rounding control
/// Sets the host's rounding mode to the GCN mode `rm` for the guard's lifetime; a no-op for
/// round-to-nearest-even so the common case costs nothing.
class RoundGuard {
 public:
  explicit RoundGuard(int rm) : rm_(rm) {
    if (rm_ != kRne) {
      static const int kHost[4] = {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};
      saved_ = std::fegetround();
      std::fesetround(kHost[rm_]);
    }
  }
  ~RoundGuard() {
    if (rm_ != kRne) std::fesetround(saved_);
  }
  RoundGuard(const RoundGuard&) = delete;
  RoundGuard& operator=(const RoundGuard&) = delete;

 private:
  int rm_;
  int saved_ = FE_TONEAREST;
};

// ---------------------------------------------------------------- GCN min/max
/// v_min/v_max rule shared by f16/f32/f64 (T = bit type): in IEEE mode an sNaN operand gives
/// that NaN quieted; otherwise a NaN operand is ignored (the other one returned; both NaN ->
/// the first, quieted). -0 is ordered below +0 as on the hardware.
template <class Bits, class Val, bool Max>
inline Bits minmax(Bits a, Bits b, Val va, Val vb, bool a_nan, bool b_nan, bool a_snan, bool b_snan,
                   bool ieee, Bits qbit) {
  if (a_nan || b_nan) {
    if (ieee && a_snan) return a | qbit;
    if (ieee && b_snan) return b | qbit;
    if (a_nan && b_nan) return a | qbit;
    return a_nan ? b : a;
  }
  if (va == vb) {  // equal values: only +-0 differ; pick by sign bit
    Bits sa = a >> (sizeof(Bits) * 8 - 1);
    if (Max) return sa ? b : a;
    return sa ? a : b;
  }
  return (Max ? va > vb : va < vb) ? a : b;
}
inline uint32_t min32(uint32_t a, uint32_t b, bool ieee) {
  return minmax<uint32_t, float, false>(a, b, f32(a), f32(b), nan32(a), nan32(b), snan32(a), snan32(b), ieee, 0x00400000u);
}
inline uint32_t max32(uint32_t a, uint32_t b, bool ieee) {
  return minmax<uint32_t, float, true>(a, b, f32(a), f32(b), nan32(a), nan32(b), snan32(a), snan32(b), ieee, 0x00400000u);
}
inline uint64_t min64(uint64_t a, uint64_t b, bool ieee) {
  return minmax<uint64_t, double, false>(a, b, f64(a), f64(b), nan64(a), nan64(b), snan64(a), snan64(b), ieee, 0x0008000000000000ull);
}
inline uint64_t max64(uint64_t a, uint64_t b, bool ieee) {
  return minmax<uint64_t, double, true>(a, b, f64(a), f64(b), nan64(a), nan64(b), snan64(a), snan64(b), ieee, 0x0008000000000000ull);
}
inline uint32_t min16(uint32_t a, uint32_t b, bool ieee) {
  a &= 0xFFFF; b &= 0xFFFF;
  uint32_t r = minmax<uint32_t, double, false>(a << 16, b << 16, h2d(a), h2d(b), nan16(a), nan16(b), snan16(a), snan16(b), ieee, 0x02000000u);
  return r >> 16;
}
inline uint32_t max16(uint32_t a, uint32_t b, bool ieee) {
  a &= 0xFFFF; b &= 0xFFFF;
  uint32_t r = minmax<uint32_t, double, true>(a << 16, b << 16, h2d(a), h2d(b), nan16(a), nan16(b), snan16(a), snan16(b), ieee, 0x02000000u);
  return r >> 16;
}

/// Median of three with the GCN rule: if any input is NaN the result is min3 (NaN-ignoring);
/// otherwise the true median.
template <class Bits, class Min, class Max>
inline Bits med3(Bits a, Bits b, Bits c, bool any_nan, Min mn, Max mx) {
  if (any_nan) return mn(mn(a, b), c);
  return mx(mn(a, b), mn(mx(a, b), c));
}

}  // namespace strobe::emu::fp
