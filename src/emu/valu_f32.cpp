// Single-precision vector ALU operations. Arithmetic is IEEE (host SSE arithmetic under the
// MODE rounding mode) with MODE's f32 denormal controls applied to inputs and outputs.
// Transcendental ops (exp, log, rcp, rsq, sin, cos) have no bit-exact public definition; the
// reference here is the exact result rounded to f32 (computed in double), which matches the
// hardware to ~1 ulp and is what compiled division/sqrt sequences only use as a seed.
#include <algorithm>
#include <cmath>

#include "emu/valu_exec.h"

namespace strobe::emu::valu {
namespace {

using isa::Op;
using namespace fp;

/// Denormal handling captured once per instruction from MODE. Flushing is a select between
/// masks rather than a branch, so lane loops over these helpers vectorise.
struct Mode32 {
  uint32_t keep_in, keep_out;  ///< mask applied to a denormal: sign only (flush) or all bits
  bool ieee;
  explicit Mode32(uint32_t mode)
      : keep_in(flush_in32(mode) ? 0x80000000u : ~0u), keep_out(flush_out32(mode) ? 0x80000000u : ~0u),
        ieee(ieee_mode(mode)) {}
  static uint32_t flush(uint32_t x, uint32_t keep) { return x & ((x & 0x7F800000u) ? ~0u : keep); }
  float in(uint32_t x) const { return f32(flush(x, keep_in)); }
  uint32_t in_bits(uint32_t x) const { return flush(x, keep_in); }
  uint32_t out(float r) const { return flush(b32(r), keep_out); }
};

/// Round half to even independent of the host rounding mode.
inline float round_even(float x) {
  float t = std::trunc(x), d = x - t;
  if (std::fabs(d) > 0.5f || (std::fabs(d) == 0.5f && std::fmod(t, 2.0f) != 0)) t += std::copysign(1.0f, x);
  return t;
}

/// sin/cos take revolutions: sin(2*pi*x). Reducing x mod 1 first is exact and keeps precision.
inline double turns(double x) { return x - std::nearbyint(x); }

inline float fract32(float x) {
  if (std::isnan(x)) return x;
  return std::fmin(x - std::floor(x), 0x1.fffffep-1f);
}

/// v_div_scale_f32: pre-scales numerator or denominator (S0 is the one being scaled, S1 the
/// denominator, S2 the numerator) so the Newton iteration stays in the normal range; sets the
/// lane's flag when the final v_div_fmas must undo a relative scale. Follows the ISA
/// pseudocode; where the manual's "1/S1 and S2/S1 both denormal" case would scale a huge
/// denominator up (overflowing), the denominator is scaled down instead, which is the only
/// reading for which the compiled division sequence is correctly rounded.
inline uint32_t div_scale32(uint32_t s0, uint32_t s1, uint32_t s2, bool& flag) {
  flag = false;
  if (nan32(s0) || nan32(s1) || nan32(s2)) return 0x7FC00000u;
  const float x = f32(s0), d = f32(s1), n = f32(s2);
  if (n == 0 || d == 0) return 0x7FC00000u;
  const int en = exp32(s2), ed = exp32(s1);
  const double rcp = 1.0 / double(d), q = double(n) / double(d);
  const bool rcp_den = std::fabs(rcp) < 0x1p-126, q_den = std::fabs(q) < 0x1p-126 && q != 0;
  if (en - ed >= 96) {
    flag = true;
    if (x == d) return b32(std::ldexp(x, 64));
  } else if (denorm32(s1)) {
    return b32(std::ldexp(x, 64));
  } else if (rcp_den && q_den) {
    flag = true;
    if (x == d) return b32(std::ldexp(x, -64));
  } else if (rcp_den) {
    return b32(std::ldexp(x, -64));
  } else if (q_den) {
    flag = true;
    if (x == n) return b32(std::ldexp(x, 64));
  } else if (en <= 23) {
    return b32(std::ldexp(x, 64));
  }
  return s0;
}

/// v_div_fmas_f32: fma(S0, S1, S2), and when the lane's VCC bit is set, scaled by 2^64 (the
/// quotient S2 was computed scaled down, |S2| >= 1) or 2^-64 (scaled up) with a single
/// rounding (round-to-odd in double, then one rounding to f32).
inline float div_fmas32(float a, float b, float c, bool scale) {
  if (!scale) return std::fma(a, b, c);
  double s = add_rto(double(a) * double(b), double(c));
  return float(std::ldexp(s, std::fabs(c) >= 1.0f ? 64 : -64));
}

/// v_div_fixup_f32: S0 quotient, S1 denominator, S2 numerator; resolves special cases.
inline uint32_t div_fixup32(uint32_t q, uint32_t d, uint32_t n) {
  const uint32_t sign = (d ^ n) & 0x80000000u;
  if (nan32(n)) return quiet32(n);
  if (nan32(d)) return quiet32(d);
  if (zero32(d) && zero32(n)) return 0xFFC00000u;
  if (inf32(d) && inf32(n)) return 0xFFC00000u;
  if (zero32(d) || inf32(n)) return sign | 0x7F800000u;
  if (inf32(d) || zero32(n)) return sign;
  if (exp32(n) - exp32(d) < -150) return sign;  // underflows to zero
  if (nan32(q)) return sign | 0x7F800000u;  // the iteration overflowed (inf - inf)
  return sign | (q & 0x7FFFFFFFu);
}

inline uint32_t frexp_mant32(uint32_t x) {
  if (nan32(x)) return quiet32(x);
  if (inf32(x)) return x;
  int e;
  return b32(std::frexp(f32(x), &e));
}
inline uint32_t frexp_exp32(uint32_t x) {
  if (nan32(x) || inf32(x)) return 0;
  int e;
  std::frexp(f32(x), &e);
  return uint32_t(e);
}

/// Cube-map face selection shared by cubeid/sc/tc/ma: 2 = z major, 1 = y major, 0 = x major.
inline int cube_major(float x, float y, float z) {
  if (std::fabs(z) >= std::fabs(x) && std::fabs(z) >= std::fabs(y)) return 2;
  if (std::fabs(y) >= std::fabs(x)) return 1;
  return 0;
}

#define H(OP, ...) t.set(Op::OP, [](Wave& w, const isa::Inst& in, ExecContext& ctx) { __VA_ARGS__; })
// Unary/binary/ternary f32 ops with MODE denormals and rounding; `a`, `b`, `c` are floats.
#define F1(OP, ...)                                                   \
  H(OP, const Mode32 m(w.mode); RoundGuard rg(round32(w.mode));       \
    run<K::F32, K::F32>(w, in, [m](uint32_t ab) -> uint32_t {         \
      const float a = m.in(ab);                                       \
      return m.out(__VA_ARGS__);                                      \
    }))
#define F2(OP, ...)                                                            \
  H(OP, const Mode32 m(w.mode); RoundGuard rg(round32(w.mode));                \
    run<K::F32, K::F32, K::F32>(w, in, [m](uint32_t ab, uint32_t bb) -> uint32_t { \
      const float a = m.in(ab), b = m.in(bb);                                  \
      return m.out(__VA_ARGS__);                                               \
    }))
#define F3(OP, ...)                                                                               \
  H(OP, const Mode32 m(w.mode); RoundGuard rg(round32(w.mode));                                   \
    run<K::F32, K::F32, K::F32, K::F32>(w, in, [m](uint32_t ab, uint32_t bb, uint32_t cb) -> uint32_t { \
      const float a = m.in(ab), b = m.in(bb), c = m.in(cb);                                       \
      return m.out(__VA_ARGS__);                                                                  \
    }))
// Bit-level ops on flushed inputs: result is returned as raw bits.
#define F2B(OP, ...)                                                                \
  H(OP, const Mode32 m(w.mode);                                                     \
    run<K::F32, K::F32, K::F32>(w, in, [m](uint32_t ab, uint32_t bb) -> uint32_t {  \
      const uint32_t a = m.in_bits(ab), b = m.in_bits(bb);                          \
      return __VA_ARGS__;                                                           \
    }))
#define F3B(OP, ...)                                                                              \
  H(OP, const Mode32 m(w.mode);                                                                   \
    run<K::F32, K::F32, K::F32, K::F32>(w, in, [m](uint32_t ab, uint32_t bb, uint32_t cb) -> uint32_t { \
      const uint32_t a = m.in_bits(ab), b = m.in_bits(bb), c = m.in_bits(cb);                     \
      return __VA_ARGS__;                                                                         \
    }))

/// Non-fused multiply-add: product rounded (and flushed per MODE) before the add.
inline float mad(const Mode32& m, float a, float b, float c) { return m.in(m.out(a * b)) + c; }
/// Legacy multiply: 0 times anything (including inf and NaN) is +0.
inline float mul_legacy(float a, float b) { return (a == 0 || b == 0) ? 0.0f : a * b; }

/// v_mac_f32 / v_madmk_f32 / v_madak_f32: v_mad_f32 with the accumulator or a literal constant
/// taking one source slot; with Fused, gfx9's v_fmac_f32 / v_fmamk_f32 / v_fmaak_f32 (one rounding).
template <int Form, bool Fused = false>  // 0 mac (src2 = dst), 1 madmk (S0 * K + S1), 2 madak (S0 * S1 + K)
void mac_like(Wave& w, const isa::Inst& in, ExecContext&) {
  using isa::opcode_field::kLiteral;
  uint16_t codes[3];
  if (Form == 0) {
    codes[0] = in.src[0], codes[1] = in.src[1], codes[2] = in.dst;
  } else {
    const uint16_t s1 = in.src[1] == kLiteral ? in.src[2] : in.src[1];  // K may sit in a slot
    codes[0] = in.src[0];
    codes[1] = Form == 1 ? kLiteral : s1;
    codes[2] = Form == 1 ? s1 : kLiteral;
  }
  const Mode32 m(w.mode);
  RoundGuard rg(round32(w.mode));
  run_codes<K::F32, K::F32, K::F32, K::F32>(w, in, codes, [m](uint32_t a, uint32_t b, uint32_t c) -> uint32_t {
    if constexpr (Fused) return m.out(std::fma(m.in(a), m.in(b), m.in(c)));
    else return m.out(mad(m, m.in(a), m.in(b), m.in(c)));
  });
}

/// gfx90a's packed f32 math (VOP3P on register pairs): each element through `f` under MODE.
template <int N, class F>
void pk_f32(Wave& w, const isa::Inst& in, F f) {
  const Mode32 m(w.mode);
  RoundGuard rg(round32(w.mode));
  run_packed<true, N>(w, in, OperandType::F32, 0x80000000u, [&](uint32_t a, uint32_t b, uint32_t c) -> uint32_t {
    return uint32_t(out_mods(m.out(f(m.in(a), m.in(b), m.in(c))), K::F32, in, w.mode));
  });
}

/// v_pk_mov_b32: D[0] = S0's dword op_sel[0], D[1] = S1's dword op_sel[1] (register pairs or
/// SGPR pairs; a constant's second dword is zero, as in run_packed).
void pk_mov_b32(Wave& w, const isa::Inst& in, ExecContext&) {
  alignas(64) uint32_t buf[2][2][kWaveSize];
  const uint32_t* src[2][2];
  for (int i = 0; i < 2; ++i) packed_source<true>(w, in, i, OperandType::B32, buf[i], src[i]);
  const uint32_t* r0 = src[0][in.op_sel & 1];
  const uint32_t* r1 = src[1][(in.op_sel >> 1) & 1];
  uint32_t* d0 = w.vrow(vgpr_index(in.dst));
  uint32_t* d1 = d0 + kWaveSize;
  const uint32_t n = w.lane_count > kWaveSize ? kWaveSize : w.lane_count;
  for (uint64_t m = w.exec() & (n >= 64 ? ~0ull : (1ull << n) - 1); m; m &= m - 1) {
    const unsigned l = unsigned(std::countr_zero(m));
    const uint32_t a = r0[l], b = r1[l];
    d0[l] = a;
    d1[l] = b;
  }
}

}  // namespace

void register_valu_f32(HandlerTable& t) {
  F2(V_ADD_F32, a + b);
  F2(V_SUB_F32, a - b);
  F2(V_SUBREV_F32, b - a);
  F2(V_MUL_F32, a * b);
  F2(V_MUL_LEGACY_F32, mul_legacy(a, b));
  F2B(V_MIN_F32, min32(a, b, m.ieee));
  F2B(V_MAX_F32, max32(a, b, m.ieee));
  F3B(V_MIN3_F32, min32(min32(a, b, m.ieee), c, m.ieee));
  F3B(V_MAX3_F32, max32(max32(a, b, m.ieee), c, m.ieee));
  F3B(V_MED3_F32, med3<uint32_t>(a, b, c, nan32(a) || nan32(b) || nan32(c),
                                 [&](uint32_t x, uint32_t y) { return min32(x, y, m.ieee); },
                                 [&](uint32_t x, uint32_t y) { return max32(x, y, m.ieee); }));
  F3(V_MAD_F32, mad(m, a, b, c));
  F3(V_MAD_LEGACY_F32, m.in(m.out(mul_legacy(a, b))) + c);
  F3(V_FMA_F32, std::fma(a, b, c));
  t.set(Op::V_MAC_F32, mac_like<0>);
  t.set(Op::V_MADMK_F32, mac_like<1>);
  t.set(Op::V_MADAK_F32, mac_like<2>);
  t.set(Op::V_FMAC_F32, mac_like<0, true>);
  H(V_PK_ADD_F32, pk_f32<2>(w, in, [](float a, float b, float) { return a + b; }));
  H(V_PK_MUL_F32, pk_f32<2>(w, in, [](float a, float b, float) { return a * b; }));
  H(V_PK_FMA_F32, pk_f32<3>(w, in, [](float a, float b, float c) { return std::fma(a, b, c); }));
  t.set(Op::V_PK_MOV_B32, pk_mov_b32);
  t.set(Op::V_FMAMK_F32, mac_like<1, true>);
  t.set(Op::V_FMAAK_F32, mac_like<2, true>);
  H(V_LDEXP_F32, const Mode32 m(w.mode); RoundGuard rg(round32(w.mode));
    run<K::F32, K::F32, K::B32>(w, in, [m](uint32_t ab, uint32_t e) -> uint32_t {
      return m.out(std::ldexp(m.in(ab), std::clamp(int32_t(e), -1000, 1000)));
    }));
  // ---- rounding (exact) and fract
  F1(V_TRUNC_F32, std::trunc(a));
  F1(V_CEIL_F32, std::ceil(a));
  F1(V_FLOOR_F32, std::floor(a));
  F1(V_RNDNE_F32, round_even(a));
  F1(V_FRACT_F32, fract32(a));
  H(V_FREXP_MANT_F32, const Mode32 m(w.mode);
    run<K::F32, K::F32>(w, in, [m](uint32_t a) -> uint32_t { return frexp_mant32(m.in_bits(a)); }));
  H(V_FREXP_EXP_I32_F32, const Mode32 m(w.mode);
    run<K::B32, K::F32>(w, in, [m](uint32_t a) -> uint32_t { return frexp_exp32(m.in_bits(a)); }));
  // ---- transcendental approximations: exact result rounded to f32
  F1(V_EXP_F32, float(std::exp2(double(a))));
  F1(V_EXP_LEGACY_F32, float(std::exp2(double(a))));
  F1(V_LOG_F32, float(std::log2(double(a))));
  F1(V_LOG_LEGACY_F32, float(std::log2(double(a))));
  F1(V_RCP_F32, 1.0f / a);
  F1(V_RCP_IFLAG_F32, 1.0f / a);
  F1(V_RSQ_F32, float(1.0 / std::sqrt(double(a))));
  F1(V_SQRT_F32, std::sqrt(a));
  F1(V_SIN_F32, std::isinf(a) ? NAN : float(std::sin(2.0 * M_PI * turns(a))));
  F1(V_COS_F32, std::isinf(a) ? NAN : float(std::cos(2.0 * M_PI * turns(a))));
  // ---- division helpers
  H(V_DIV_SCALE_F32, uint64_t flags = 0;
    run_lane<K::F32, K::F32, K::F32, K::F32>(w, in, [&](unsigned l, uint32_t a, uint32_t b, uint32_t c) -> uint32_t {
      bool f;
      uint32_t r = div_scale32(a, b, c, f);
      flags |= uint64_t(f) << l;
      return r;
    });
    write_mask(w, carry_dst(in), flags));
  H(V_DIV_FMAS_F32, const Mode32 m(w.mode); const uint64_t vcc = w.vcc(); RoundGuard rg(round32(w.mode));
    run_lane<K::F32, K::F32, K::F32, K::F32>(w, in, [m, vcc](unsigned l, uint32_t a, uint32_t b, uint32_t c) -> uint32_t {
      return m.out(div_fmas32(m.in(a), m.in(b), m.in(c), (vcc >> l) & 1));
    }));
  H(V_DIV_FIXUP_F32, run<K::F32, K::F32, K::F32, K::F32>(w, in, [](uint32_t a, uint32_t b, uint32_t c) -> uint32_t {
      return div_fixup32(a, b, c);
    }));
  // ---- cube map helpers (S0, S1, S2 = x, y, z)
  F3(V_CUBEID_F32, [](float x, float y, float z) {
    switch (cube_major(x, y, z)) {
      case 2: return z < 0 ? 5.0f : 4.0f;
      case 1: return y < 0 ? 3.0f : 2.0f;
      default: return x < 0 ? 1.0f : 0.0f;
    }
  }(a, b, c));
  F3(V_CUBESC_F32, [](float x, float y, float z) {
    switch (cube_major(x, y, z)) {
      case 2: return z < 0 ? -x : x;
      case 1: return x;
      default: return x < 0 ? z : -z;
    }
  }(a, b, c));
  F3(V_CUBETC_F32, [](float x, float y, float z) {
    switch (cube_major(x, y, z)) {
      case 1: return y < 0 ? -z : z;
      default: return -y;
    }
  }(a, b, c));
  F3(V_CUBEMA_F32, [](float x, float y, float z) {
    switch (cube_major(x, y, z)) {
      case 2: return 2.0f * z;
      case 1: return 2.0f * y;
      default: return 2.0f * x;
    }
  }(a, b, c));
}

}  // namespace strobe::emu::valu
