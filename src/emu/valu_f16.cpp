// Half-precision vector ALU operations. Every f16 value is exact in double, so sums and
// products are formed exactly in double and rounded once to f16 under MODE's f16 rounding mode
// (MODE[3:2]) and denormal controls (MODE[7:6]); fma uses round-to-odd to stay single-rounded.
// Transcendentals are the exact result rounded to f16 (there is no public bit-exact definition).
#include <algorithm>
#include <cmath>

#include "emu/valu_exec.h"

namespace strobe::emu::valu {
namespace {

using isa::Op;
using namespace fp;

/// f16 MODE state captured once per instruction.
struct Mode16 {
  bool fi, fo, ieee;
  int rm;
  explicit Mode16(uint32_t mode)
      : fi(flush_in64(mode)), fo(flush_out64(mode)), ieee(ieee_mode(mode)), rm(round64(mode)) {}
  uint32_t in_bits(uint32_t x) const { return fi ? ftz16(x) : x & 0xFFFF; }
  double in(uint32_t x) const { return h2d(in_bits(x)); }
  uint32_t out(double r) const {
    uint32_t b = d2h(r, rm);
    return fo ? ftz16(b) : b;
  }
};

inline double round_even(double x) {
  double t = std::trunc(x), d = x - t;
  if (std::fabs(d) > 0.5 || (std::fabs(d) == 0.5 && std::fmod(t, 2.0) != 0)) t += std::copysign(1.0, x);
  return t;
}
inline double turns(double x) { return x - std::nearbyint(x); }

/// Non-fused f16 multiply-add: the product is rounded to f16 before the add.
inline double mad16(const Mode16& m, double a, double b, double c) { return m.in(m.out(a * b)) + c; }

/// v_div_fixup_f16: S0 quotient, S1 denominator, S2 numerator; resolves special cases.
inline uint32_t div_fixup16(uint32_t q, uint32_t d, uint32_t n) {
  q &= 0xFFFF, d &= 0xFFFF, n &= 0xFFFF;
  const uint32_t sign = (d ^ n) & 0x8000;
  if (nan16(n)) return quiet16(n);
  if (nan16(d)) return quiet16(d);
  if (zero16(d) && zero16(n)) return 0xFE00;
  if (inf16(d) && inf16(n)) return 0xFE00;
  if (zero16(d) || inf16(n)) return sign | 0x7C00;
  if (inf16(d) || zero16(n)) return sign;
  if (exp16(n) - exp16(d) < -25) return sign;
  if (nan16(q)) return sign | 0x7C00;  // the iteration overflowed
  return sign | (q & 0x7FFF);
}

#define H(OP, ...) t.set(Op::OP, [](Wave& w, const isa::Inst& in, ExecContext& ctx) { __VA_ARGS__; })
#define H1(OP, ...)                                           \
  H(OP, const Mode16 m(w.mode);                               \
    run<K::F16, K::F16>(w, in, [m](uint32_t ab) -> uint32_t { \
      const double a = m.in(ab);                              \
      return m.out(__VA_ARGS__);                              \
    }))
#define H2(OP, ...)                                                                \
  H(OP, const Mode16 m(w.mode);                                                    \
    run<K::F16, K::F16, K::F16>(w, in, [m](uint32_t ab, uint32_t bb) -> uint32_t { \
      const double a = m.in(ab), b = m.in(bb);                                     \
      return m.out(__VA_ARGS__);                                                   \
    }))

/// v_mac_f16 / v_madmk_f16 / v_madak_f16 (see mac_like in valu_f32.cpp for the forms).
template <int Form>
void mac_like16(Wave& w, const isa::Inst& in, ExecContext&) {
  using isa::opcode_field::kLiteral;
  uint16_t codes[3];
  if (Form == 0) {
    codes[0] = in.src[0], codes[1] = in.src[1], codes[2] = in.dst;
  } else {
    const uint16_t s1 = in.src[1] == kLiteral ? in.src[2] : in.src[1];
    codes[0] = in.src[0];
    codes[1] = Form == 1 ? kLiteral : s1;
    codes[2] = Form == 1 ? s1 : kLiteral;
  }
  const Mode16 m(w.mode);
  run_codes<K::F16, K::F16, K::F16, K::F16>(w, in, codes, [m](uint32_t a, uint32_t b, uint32_t c) -> uint32_t {
    return m.out(mad16(m, m.in(a), m.in(b), m.in(c)));
  });
}

/// v_fma_mix_f32 / v_fma_mixlo_f16 / v_fma_mixhi_f16: an fma of f16 or f32 sources (op_sel_hi
/// marks a source f16, op_sel picks its half; neg and abs apply to its sign bit), rounded once
/// to f32 or to f16. The mixlo/mixhi forms write one half of the destination and keep the other.
template <int Out>  // 0: f32, 1: f16 to the low half, 2: f16 to the high half
void fma_mix(Wave& w, const isa::Inst& in, ExecContext&) {
  const Mode16 m16(w.mode);
  const bool flush32_in = flush_in32(w.mode), flush32_out = flush_out32(w.mode);
  RoundGuard rg(round32(w.mode));
  alignas(64) uint32_t bc[3][2][kWaveSize];
  const uint32_t* src[3][2];
  const uint32_t* rows[3];
  for (int i = 0; i < 3; ++i) {
    const bool f16 = (in.op_sel_hi >> i) & 1;  // the source's type decides its inline constants
    packed_source<false>(w, in, i, f16 ? OperandType::F16 : OperandType::F32, bc[i], src[i]);
    rows[i] = src[i][0];
  }
  const uint32_t n = w.lane_count > kWaveSize ? kWaveSize : w.lane_count;
  uint32_t* d = w.vrow(vgpr_index(in.dst));
  for (uint64_t mk = w.exec() & (n >= 64 ? ~0ull : (1ull << n) - 1); mk; mk &= mk - 1) {
    const unsigned l = unsigned(std::countr_zero(mk));
    double x[3];
    for (int i = 0; i < 3; ++i) {
      uint32_t v = rows[i][l];
      if ((in.op_sel_hi >> i) & 1) {
        v = (v >> (16 * ((in.op_sel >> i) & 1))) & 0xFFFF;
        if ((in.abs >> i) & 1) v &= 0x7FFF;
        if ((in.neg >> i) & 1) v ^= 0x8000;
        x[i] = m16.in(v);
      } else {
        if ((in.abs >> i) & 1) v &= 0x7FFFFFFFu;
        if ((in.neg >> i) & 1) v ^= 0x80000000u;
        x[i] = f32(flush32_in ? ftz32(v) : v);
      }
    }
    const double r = add_rto(x[0] * x[1], x[2]);  // the f32 x f32 product is exact in double
    if constexpr (Out == 0) {
      uint32_t b = b32(float(r));
      if (flush32_out) b = ftz32(b);
      d[l] = uint32_t(out_mods(b, K::F32, in, w.mode));
    } else {
      const uint32_t h = uint32_t(out_mods(m16.out(r), K::F16, in, w.mode)) & 0xFFFF;
      d[l] = Out == 1 ? (d[l] & 0xFFFF0000u) | h : (d[l] & 0xFFFFu) | h << 16;
    }
  }
}

/// Packed f16 math (VOP3P): each element through `f` on MODE-flushed doubles, clamped per CLAMP.
template <int N, class F>
void pk_f16(Wave& w, const isa::Inst& in, F f) {
  const Mode16 m(w.mode);
  run_packed<false, N>(w, in, OperandType::F16, 0x8000u, [&](uint32_t a, uint32_t b, uint32_t c) -> uint32_t {
    return uint32_t(out_mods(f(m, a, b, c), K::F16, in, w.mode));
  });
}

/// v_dot2_f32_f16, and v_dot2c_f32_f16 accumulating into D: S0.lo*S1.lo + S0.hi*S1.hi + S2 in
/// f32. The f16 products are exact in double; both additions round to odd in double, so the one
/// rounding to f32 at the end is correct unless the three terms span more than 53 bits.
template <bool Acc>
void dot2_f32_f16(Wave& w, const isa::Inst& in, ExecContext& ctx) {
  if (in.enc == isa::Encoding::VOP3P && (in.op_sel != 0 || (in.op_sel_hi & 3) != 3 || (in.neg & 3) || (in.neg_hi & 3)))
    fault(w, in, ctx, std::string("not implemented: ") + op_text(in.op) + " with op_sel or neg on its f16 sources");
  const Mode16 m(w.mode);
  const bool flush_in = flush_in32(w.mode), flush_out = flush_out32(w.mode);
  const uint16_t codes[3] = {in.src[0], in.src[1], Acc ? in.dst : in.src[2]};
  run_codes<K::F32, K::B32, K::B32, K::F32>(w, in, codes, [&](uint32_t a, uint32_t b, uint32_t c) -> uint32_t {
    const double p = add_rto(m.in(a & 0xFFFF) * m.in(b & 0xFFFF), m.in(a >> 16) * m.in(b >> 16));
    const uint32_t r = b32(float(add_rto(p, double(f32(flush_in ? ftz32(c) : c)))));
    return flush_out ? ftz32(r) : r;
  });
}

}  // namespace

void register_valu_f16(HandlerTable& t) {
  H2(V_ADD_F16, a + b);
  H2(V_SUB_F16, a - b);
  H2(V_SUBREV_F16, b - a);
  H2(V_MUL_F16, a * b);
  H(V_MAX_F16, const Mode16 m(w.mode); run<K::F16, K::F16, K::F16>(w, in, [m](uint32_t a, uint32_t b) -> uint32_t {
      return max16(m.in_bits(a), m.in_bits(b), m.ieee);
    }));
  H(V_MIN_F16, const Mode16 m(w.mode); run<K::F16, K::F16, K::F16>(w, in, [m](uint32_t a, uint32_t b) -> uint32_t {
      return min16(m.in_bits(a), m.in_bits(b), m.ieee);
    }));
  H(V_LDEXP_F16, const Mode16 m(w.mode); run<K::F16, K::F16, K::B32>(w, in, [m](uint32_t a, uint32_t e) -> uint32_t {
      return m.out(std::ldexp(m.in(a), std::clamp(int32_t(e), -100, 100)));
    }));
  H(V_MAD_F16, const Mode16 m(w.mode);
    run<K::F16, K::F16, K::F16, K::F16>(w, in, [m](uint32_t a, uint32_t b, uint32_t c) -> uint32_t {
      return m.out(mad16(m, m.in(a), m.in(b), m.in(c)));
    }));
  H(V_FMA_F16, const Mode16 m(w.mode);
    run<K::F16, K::F16, K::F16, K::F16>(w, in, [m](uint32_t a, uint32_t b, uint32_t c) -> uint32_t {
      return m.out(add_rto(m.in(a) * m.in(b), m.in(c)));  // product exact in double
    }));
  t.set(Op::V_MAC_F16, mac_like16<0>);
  t.set(Op::V_MADMK_F16, mac_like16<1>);
  t.set(Op::V_MADAK_F16, mac_like16<2>);
  // gfx9 keeps gfx8's f16 multiply-adds under these names.
  t.set(Op::V_MAD_LEGACY_F16, t.fn[size_t(Op::V_MAD_F16)]);
  t.set(Op::V_FMA_LEGACY_F16, t.fn[size_t(Op::V_FMA_F16)]);
  H(V_MED3_F16, const Mode16 m(w.mode);
    run<K::F16, K::F16, K::F16, K::F16>(w, in, [m](uint32_t ab, uint32_t bb, uint32_t cb) -> uint32_t {
      const uint32_t a = m.in_bits(ab), b = m.in_bits(bb), c = m.in_bits(cb);
      return med3<uint32_t>(a, b, c, nan16(a) || nan16(b) || nan16(c),
                            [&](uint32_t x, uint32_t y) { return min16(x, y, m.ieee); },
                            [&](uint32_t x, uint32_t y) { return max16(x, y, m.ieee); });
    }));
  // D = {S1.f16, S0.f16}: the bits as they are (op_sel and neg/abs already applied).
  H(V_PACK_B32_F16, run<K::B32, K::F16, K::F16>(w, in, [](uint32_t a, uint32_t b) -> uint32_t {
      return (a & 0xFFFF) | (b & 0xFFFF) << 16;
    }));
  t.set(Op::V_FMA_MIX_F32, fma_mix<0>);
  t.set(Op::V_DOT2_F32_F16, dot2_f32_f16<false>);
  t.set(Op::V_DOT2C_F32_F16, dot2_f32_f16<true>);
  t.set(Op::V_FMA_MIXLO_F16, fma_mix<1>);
  t.set(Op::V_FMA_MIXHI_F16, fma_mix<2>);
  H(V_PK_ADD_F16, pk_f16<2>(w, in, [](const Mode16& m, uint32_t a, uint32_t b, uint32_t) {
      return m.out(m.in(a) + m.in(b));
    }));
  H(V_PK_MUL_F16, pk_f16<2>(w, in, [](const Mode16& m, uint32_t a, uint32_t b, uint32_t) {
      return m.out(m.in(a) * m.in(b));
    }));
  H(V_PK_FMA_F16, pk_f16<3>(w, in, [](const Mode16& m, uint32_t a, uint32_t b, uint32_t c) {
      return m.out(add_rto(m.in(a) * m.in(b), m.in(c)));
    }));
  H(V_PK_MIN_F16, pk_f16<2>(w, in, [](const Mode16& m, uint32_t a, uint32_t b, uint32_t) {
      return min16(m.in_bits(a), m.in_bits(b), m.ieee);
    }));
  H(V_PK_MAX_F16, pk_f16<2>(w, in, [](const Mode16& m, uint32_t a, uint32_t b, uint32_t) {
      return max16(m.in_bits(a), m.in_bits(b), m.ieee);
    }));
  H(V_DIV_FIXUP_F16, run<K::F16, K::F16, K::F16, K::F16>(w, in, [](uint32_t a, uint32_t b, uint32_t c) -> uint32_t {
      return div_fixup16(a, b, c);
    }));
  H1(V_FLOOR_F16, std::floor(a));
  H1(V_CEIL_F16, std::ceil(a));
  H1(V_TRUNC_F16, std::trunc(a));
  H1(V_RNDNE_F16, round_even(a));
  H1(V_FRACT_F16, std::isnan(a) ? a : std::fmin(a - std::floor(a), 0x1.ffcp-1));
  H1(V_RCP_F16, 1.0 / a);
  H1(V_SQRT_F16, std::sqrt(a));
  H1(V_RSQ_F16, 1.0 / std::sqrt(a));
  H1(V_LOG_F16, std::log2(a));
  H1(V_EXP_F16, std::exp2(a));
  H1(V_SIN_F16, std::isinf(a) ? NAN : std::sin(2.0 * M_PI * turns(a)));
  H1(V_COS_F16, std::isinf(a) ? NAN : std::cos(2.0 * M_PI * turns(a)));
  H(V_FREXP_MANT_F16, const Mode16 m(w.mode); run<K::F16, K::F16>(w, in, [m](uint32_t ab) -> uint32_t {
      const uint32_t a = m.in_bits(ab);
      if (nan16(a)) return quiet16(a);
      if (inf16(a)) return a;
      int e;
      return d2h(std::frexp(h2d(a), &e));
    }));
  H(V_FREXP_EXP_I16_F16, const Mode16 m(w.mode); run<K::B16, K::F16>(w, in, [m](uint32_t ab) -> uint32_t {
      const uint32_t a = m.in_bits(ab);
      if (nan16(a) || inf16(a)) return 0;
      int e;
      std::frexp(h2d(a), &e);
      return uint32_t(e) & 0xFFFF;
    }));
  t.set(Op::V_DIV_FIXUP_LEGACY_F16, t.fn[size_t(Op::V_DIV_FIXUP_F16)]);
}

}  // namespace strobe::emu::valu
