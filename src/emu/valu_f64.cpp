// Double-precision vector ALU operations: IEEE arithmetic under MODE's f64 rounding and
// denormal controls, the division helpers and v_trig_preop_f64. v_rcp/v_rsq_f64 have no public
// bit-exact definition: the reference is the exact result rounded to f64.
#include <algorithm>
#include <cfenv>
#include <cmath>
#include <cstring>

#include "emu/valu_exec.h"

namespace strobe::emu::valu {
namespace {

using isa::Op;
using namespace fp;

/// f64 denormal handling captured once per instruction from MODE.
struct Mode64 {
  bool fi, fo, ieee;
  explicit Mode64(uint32_t mode) : fi(flush_in64(mode)), fo(flush_out64(mode)), ieee(ieee_mode(mode)) {}
  double in(uint64_t x) const { return f64(fi ? ftz64(x) : x); }
  uint64_t in_bits(uint64_t x) const { return fi ? ftz64(x) : x; }
  uint64_t out(double r) const { return fo ? ftz64(b64(r)) : b64(r); }
};

inline double round_even(double x) {
  double t = std::trunc(x), d = x - t;
  if (std::fabs(d) > 0.5 || (std::fabs(d) == 0.5 && std::fmod(t, 2.0) != 0)) t += std::copysign(1.0, x);
  return t;
}

/// The first 1280 fraction bits of 2/pi, most significant first (v_trig_preop_f64 uses 1201).
constexpr uint64_t kTwoOverPi[20] = {
    0xA2F9836E4E441529ULL, 0xFC2757D1F534DDC0ULL, 0xDB6295993C439041ULL, 0xFE5163ABDEBBC561ULL,
    0xB7246E3A424DD2E0ULL, 0x06492EEA09D1921CULL, 0xFE1DEB1CB129A73EULL, 0xE88235F52EBB4484ULL,
    0xE99C7026B45F7E41ULL, 0x3991D639835339F4ULL, 0x9C845F8BBDF9283BULL, 0x1FF897FFDE05980FULL,
    0xEF2F118B5A0A6D1FULL, 0x6D367ECF27CB09B7ULL, 0x4F463F669E5FEA2DULL, 0x7527BAC7EBE5F17BULL,
    0x3D0739F78A5292EAULL, 0x6BFB5FB11F8D5D08ULL, 0x56033046FC7B6BABULL, 0xF0CFBC209AF4361DULL,
};

/// v_trig_preop_f64: the 53-bit segment of 2/pi selected by S1[4:0] (shifted further for large
/// |S0| so that S0 * segment keeps its integer part small), scaled to its place value.
inline uint64_t trig_preop(uint64_t x, uint32_t seg) {
  const int e = exp64(x);
  int shift = int(seg & 31) * 53;
  if (e > 1077) shift += e - 1077;
  uint64_t bits = 0;
  for (int i = shift; i < shift + 53; ++i) {
    const uint64_t bit = i < 1201 ? (kTwoOverPi[i / 64] >> (63 - i % 64)) & 1 : 0;
    bits = bits << 1 | bit;
  }
  int scale = -53 - shift;
  if (e >= 1968) scale += 128;
  return b64(std::ldexp(double(bits), scale));
}

/// v_div_scale_f64: the f64 form of div_scale32 (valu_f32.cpp), thresholds 768/53, scale 2^128.
inline uint64_t div_scale64(uint64_t s0, uint64_t s1, uint64_t s2, bool& flag) {
  flag = false;
  if (nan64(s0) || nan64(s1) || nan64(s2)) return 0x7FF8000000000000ull;
  const double x = f64(s0), d = f64(s1), n = f64(s2);
  if (n == 0 || d == 0) return 0x7FF8000000000000ull;
  const int en = exp64(s2), ed = exp64(s1);
  const long double rcp = 1.0L / d, q = (long double)n / d;
  const bool rcp_den = std::fabs(rcp) < 0x1p-1022L, q_den = std::fabs(q) < 0x1p-1022L && q != 0;
  if (en - ed >= 768) {
    flag = true;
    if (x == d) return b64(std::ldexp(x, 128));
  } else if (denorm64(s1)) {
    return b64(std::ldexp(x, 128));
  } else if (rcp_den && q_den) {
    flag = true;
    if (x == d) return b64(std::ldexp(x, -128));
  } else if (rcp_den) {
    return b64(std::ldexp(x, -128));
  } else if (q_den) {
    flag = true;
    if (x == n) return b64(std::ldexp(x, 128));
  } else if (en <= 53) {
    return b64(std::ldexp(x, 128));
  }
  return s0;
}

/// v_div_fmas_f64: fma, scaled by 2^+-128 when the lane's VCC bit is set, with one rounding:
/// the fma is rounded to odd in 64-bit long double (round toward zero, then set the last bit
/// if inexact), scaled exactly, then rounded once to f64.
inline double div_fmas64(double a, double b, double c, bool scale) {
  if (!scale) return std::fma(a, b, c);
  const int saved = std::fegetround();
  std::fesetround(FE_TOWARDZERO);
  std::feclearexcept(FE_INEXACT);
  long double r = std::fma((long double)a, (long double)b, (long double)c);
  const bool inexact = std::fetestexcept(FE_INEXACT);
  std::fesetround(saved);
  if (inexact && std::isfinite(r)) {
    uint64_t mant;
    std::memcpy(&mant, &r, sizeof mant);  // x87 extended: low 8 bytes are the significand
    if (!(mant & 1)) r = std::nextafter(r, std::copysign((long double)INFINITY, r));
  }
  return double(std::ldexp(r, std::fabs(c) >= 1.0 ? 128 : -128));
}

/// v_div_fixup_f64: S0 quotient, S1 denominator, S2 numerator; resolves special cases.
inline uint64_t div_fixup64(uint64_t q, uint64_t d, uint64_t n) {
  const uint64_t sign = (d ^ n) & 0x8000000000000000ull;
  if (nan64(n)) return quiet64(n);
  if (nan64(d)) return quiet64(d);
  if (zero64(d) && zero64(n)) return 0xFFF8000000000000ull;
  if (inf64(d) && inf64(n)) return 0xFFF8000000000000ull;
  if (zero64(d) || inf64(n)) return sign | 0x7FF0000000000000ull;
  if (inf64(d) || zero64(n)) return sign;
  if (exp64(n) - exp64(d) < -1075) return sign;
  if (nan64(q)) return sign | 0x7FF0000000000000ull;  // the iteration overflowed
  return sign | (q & 0x7FFFFFFFFFFFFFFFull);
}

#define H(OP, ...) t.set(Op::OP, [](Wave& w, const isa::Inst& in, ExecContext& ctx) { __VA_ARGS__; })
#define D1(OP, ...)                                             \
  H(OP, const Mode64 m(w.mode); RoundGuard rg(round64(w.mode)); \
    run<K::F64, K::F64>(w, in, [m](uint64_t ab) -> uint64_t {   \
      const double a = m.in(ab);                                \
      return m.out(__VA_ARGS__);                                \
    }))
#define D2(OP, ...)                                                                \
  H(OP, const Mode64 m(w.mode); RoundGuard rg(round64(w.mode));                    \
    run<K::F64, K::F64, K::F64>(w, in, [m](uint64_t ab, uint64_t bb) -> uint64_t { \
      const double a = m.in(ab), b = m.in(bb);                                     \
      return m.out(__VA_ARGS__);                                                   \
    }))

}  // namespace

void register_valu_f64(HandlerTable& t) {
  D2(V_ADD_F64, a + b);
  D2(V_MUL_F64, a * b);
  H(V_MIN_F64, const Mode64 m(w.mode); run<K::F64, K::F64, K::F64>(w, in, [m](uint64_t a, uint64_t b) -> uint64_t {
      return min64(m.in_bits(a), m.in_bits(b), m.ieee);
    }));
  H(V_MAX_F64, const Mode64 m(w.mode); run<K::F64, K::F64, K::F64>(w, in, [m](uint64_t a, uint64_t b) -> uint64_t {
      return max64(m.in_bits(a), m.in_bits(b), m.ieee);
    }));
  H(V_FMA_F64, const Mode64 m(w.mode); RoundGuard rg(round64(w.mode));
    run<K::F64, K::F64, K::F64, K::F64>(w, in, [m](uint64_t a, uint64_t b, uint64_t c) -> uint64_t {
      return m.out(std::fma(m.in(a), m.in(b), m.in(c)));
    }));
  // gfx90a+: v_fmac_f64, the fma accumulating into its destination.
  H(V_FMAC_F64, const Mode64 m(w.mode); RoundGuard rg(round64(w.mode));
    const uint16_t codes[3] = {in.src[0], in.src[1], in.dst};
    run_codes<K::F64, K::F64, K::F64, K::F64>(w, in, codes, [m](uint64_t a, uint64_t b, uint64_t c) -> uint64_t {
      return m.out(std::fma(m.in(a), m.in(b), m.in(c)));
    }));
  H(V_LDEXP_F64, const Mode64 m(w.mode); RoundGuard rg(round64(w.mode));
    run<K::F64, K::F64, K::B32>(w, in, [m](uint64_t a, uint32_t e) -> uint64_t {
      return m.out(std::ldexp(m.in(a), std::clamp(int32_t(e), -4000, 4000)));
    }));
  D1(V_TRUNC_F64, std::trunc(a));
  D1(V_CEIL_F64, std::ceil(a));
  D1(V_FLOOR_F64, std::floor(a));
  D1(V_RNDNE_F64, round_even(a));
  D1(V_FRACT_F64, std::isnan(a) ? a : std::fmin(a - std::floor(a), 0x1.fffffffffffffp-1));
  D1(V_RCP_F64, 1.0 / a);
  D1(V_RSQ_F64, double(1.0L / std::sqrt((long double)a)));
  D1(V_SQRT_F64, std::sqrt(a));
  H(V_FREXP_MANT_F64, const Mode64 m(w.mode); run<K::F64, K::F64>(w, in, [m](uint64_t ab) -> uint64_t {
      const uint64_t a = m.in_bits(ab);
      if (nan64(a)) return quiet64(a);
      if (inf64(a)) return a;
      int e;
      return b64(std::frexp(f64(a), &e));
    }));
  H(V_FREXP_EXP_I32_F64, const Mode64 m(w.mode); run<K::B32, K::F64>(w, in, [m](uint64_t ab) -> uint32_t {
      const uint64_t a = m.in_bits(ab);
      if (nan64(a) || inf64(a)) return 0;
      int e;
      std::frexp(f64(a), &e);
      return uint32_t(e);
    }));
  H(V_DIV_SCALE_F64, uint64_t flags = 0;
    run_lane<K::F64, K::F64, K::F64, K::F64>(w, in, [&](unsigned l, uint64_t a, uint64_t b, uint64_t c) -> uint64_t {
      bool f;
      uint64_t r = div_scale64(a, b, c, f);
      flags |= uint64_t(f) << l;
      return r;
    });
    write_mask(w, carry_dst(in), flags));
  H(V_DIV_FMAS_F64, const Mode64 m(w.mode); const uint64_t vcc = w.vcc(); RoundGuard rg(round64(w.mode));
    run_lane<K::F64, K::F64, K::F64, K::F64>(w, in, [m, vcc](unsigned l, uint64_t a, uint64_t b, uint64_t c) -> uint64_t {
      return m.out(div_fmas64(m.in(a), m.in(b), m.in(c), (vcc >> l) & 1));
    }));
  H(V_DIV_FIXUP_F64, run<K::F64, K::F64, K::F64, K::F64>(w, in, [](uint64_t a, uint64_t b, uint64_t c) -> uint64_t {
      return div_fixup64(a, b, c);
    }));
  H(V_TRIG_PREOP_F64, run<K::F64, K::F64, K::B32>(w, in, [](uint64_t a, uint32_t b) -> uint64_t {
      return trig_preop(a, b);
    }));
}

}  // namespace strobe::emu::valu
