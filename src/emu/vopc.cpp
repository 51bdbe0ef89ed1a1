// Vector compares (VOPC and their e64/SDWA/DPP forms) and v_cmp_class. Each active lane sets
// its bit of a 64-bit mask; inactive lanes read 0. The mask goes to VCC (e32), or to the e64
// sdst (and to an SDWA sdst when the decoder supplies one); v_cmpx_* also write it to EXEC.
// Float compares see inputs with denormals flushed when MODE disables input denormals.
#include <cmath>
#include <utility>

#include "emu/valu_exec.h"

namespace strobe::emu {
namespace {

using isa::Op;
using valu::K;
using valu::raw_t;
using namespace fp;

/// Float predicates in opcode order: F LT EQ LE GT LG GE O U NGE NLG NGT NLE NEQ NLT TRU.
template <int P>
inline bool fpred(double a, double b) {
  if constexpr (P == 0) return false;
  if constexpr (P == 1) return a < b;
  if constexpr (P == 2) return a == b;
  if constexpr (P == 3) return a <= b;
  if constexpr (P == 4) return a > b;
  if constexpr (P == 5) return a < b || a > b;
  if constexpr (P == 6) return a >= b;
  if constexpr (P == 7) return !std::isnan(a) && !std::isnan(b);
  if constexpr (P == 8) return std::isnan(a) || std::isnan(b);
  if constexpr (P == 9) return !(a >= b);
  if constexpr (P == 10) return !(a < b || a > b);
  if constexpr (P == 11) return !(a > b);
  if constexpr (P == 12) return !(a <= b);
  if constexpr (P == 13) return !(a == b);
  if constexpr (P == 14) return !(a < b);
  if constexpr (P == 15) return true;
}
/// Integer predicates in opcode order: F LT EQ LE GT NE GE T.
template <int P, class T>
inline bool ipred(T a, T b) {
  if constexpr (P == 0) return false;
  if constexpr (P == 1) return a < b;
  if constexpr (P == 2) return a == b;
  if constexpr (P == 3) return a <= b;
  if constexpr (P == 4) return a > b;
  if constexpr (P == 5) return a != b;
  if constexpr (P == 6) return a >= b;
  if constexpr (P == 7) return true;
}

/// Float value of a raw operand of kind A, flushed when `fi`.
template <K A>
inline double fval(raw_t<A> x, bool fi) {
  if constexpr (A == K::F16) return h2d(fi ? ftz16(x) : x & 0xFFFF);
  else if constexpr (A == K::F32) return double(f32(fi ? ftz32(x) : x));
  else return f64(fi ? ftz64(x) : x);
}
/// Integer value of a raw operand of kind A.
template <K A, bool Signed>
inline auto ival(raw_t<A> x) {
  if constexpr (A == K::B16) {
    if constexpr (Signed) return int16_t(x);
    else return uint16_t(x);
  } else if constexpr (A == K::B32) {
    if constexpr (Signed) return int32_t(x);
    else return uint32_t(x);
  } else {
    if constexpr (Signed) return int64_t(x);
    else return uint64_t(x);
  }
}

/// Evaluates `bit(a, b)` over the writable lanes and stores the mask (and EXEC for cmpx).
template <K A, K B, bool X, class F>
inline void compare(Wave& w, const isa::Inst& in, F bit) {
  valu::Frame fr;
  static constexpr K kinds[3] = {A, B, K::None};
  valu::prepare(w, in, fr, kinds, in.src);
  uint64_t mask = 0;
  if (fr.all) {
    for (unsigned l = 0; l < fr.n; ++l) mask |= uint64_t(bit(valu::rd<A>(fr.s[0], l), valu::rd<B>(fr.s[1], l))) << l;
  } else {
    for (uint64_t m = fr.wmask; m; m &= m - 1) {
      unsigned l = unsigned(std::countr_zero(m));
      mask |= uint64_t(bit(valu::rd<A>(fr.s[0], l), valu::rd<B>(fr.s[1], l))) << l;
    }
  }
  const bool to_sdst = in.sdst != isa::opcode_field::kNone &&
                       (in.enc == isa::Encoding::VOP3 || in.ext == isa::VopExt::SDWA);
  valu::write_mask(w, to_sdst ? in.sdst : isa::opcode_field::kVccLo, mask);
  if (X) w.set_exec(mask);
}

template <K A, int P, bool X>
void fcmp(Wave& w, const isa::Inst& in, ExecContext&) {
  const bool fi = A == K::F32 ? flush_in32(w.mode) : flush_in64(w.mode);
  compare<A, A, X>(w, in, [fi](raw_t<A> a, raw_t<A> b) { return fpred<P>(fval<A>(a, fi), fval<A>(b, fi)); });
}
template <K A, bool Signed, int P, bool X>
void icmp(Wave& w, const isa::Inst& in, ExecContext&) {
  compare<A, A, X>(w, in, [](raw_t<A> a, raw_t<A> b) { return ipred<P>(ival<A, Signed>(a), ival<A, Signed>(b)); });
}

/// v_cmp_class_*: S1 is a mask of classes (0 sNaN, 1 qNaN, 2 -inf, 3 -normal, 4 -denormal,
/// 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf); the lane's bit is set when S0's class is in it.
template <K A>
inline uint32_t fclass(raw_t<A> x) {
  bool neg, nan, snan, inf, zero, den;
  if constexpr (A == K::F16) {
    neg = x & 0x8000, nan = nan16(x), snan = snan16(x), inf = inf16(x), zero = zero16(x), den = denorm16(x);
  } else if constexpr (A == K::F32) {
    neg = x >> 31, nan = nan32(x), snan = snan32(x), inf = inf32(x), zero = zero32(x), den = denorm32(x);
  } else {
    neg = x >> 63, nan = nan64(x), snan = snan64(x), inf = inf64(x), zero = zero64(x), den = denorm64(x);
  }
  if (nan) return snan ? 0 : 1;
  if (inf) return neg ? 2 : 9;
  if (zero) return neg ? 5 : 6;
  if (den) return neg ? 4 : 7;
  return neg ? 3 : 8;
}
template <K A, bool X>
void cmp_class(Wave& w, const isa::Inst& in, ExecContext&) {
  compare<A, K::B32, X>(w, in, [](raw_t<A> a, uint32_t m) { return (m >> fclass<A>(a)) & 1; });
}

template <K A, bool X, int... P>
void reg_float(HandlerTable& t, Op first, std::integer_sequence<int, P...>) {
  (t.set(Op(int(first) + P), fcmp<A, P, X>), ...);
}
template <K A, bool Signed, bool X, int... P>
void reg_int(HandlerTable& t, Op first, std::integer_sequence<int, P...>) {
  (t.set(Op(int(first) + P), icmp<A, Signed, P, X>), ...);
}

// The registration below indexes predicates by their offset from the family's first op.
static_assert(int(Op::V_CMP_TRU_F16) - int(Op::V_CMP_F_F16) == 15 && int(Op::V_CMPX_TRU_F16) - int(Op::V_CMPX_F_F16) == 15);
static_assert(int(Op::V_CMP_TRU_F32) - int(Op::V_CMP_F_F32) == 15 && int(Op::V_CMPX_TRU_F32) - int(Op::V_CMPX_F_F32) == 15);
static_assert(int(Op::V_CMP_TRU_F64) - int(Op::V_CMP_F_F64) == 15 && int(Op::V_CMPX_TRU_F64) - int(Op::V_CMPX_F_F64) == 15);
static_assert(int(Op::V_CMP_T_I16) - int(Op::V_CMP_F_I16) == 7 && int(Op::V_CMPX_T_U16) - int(Op::V_CMPX_F_U16) == 7);
static_assert(int(Op::V_CMP_T_U32) - int(Op::V_CMP_F_U32) == 7 && int(Op::V_CMPX_T_I32) - int(Op::V_CMPX_F_I32) == 7);
static_assert(int(Op::V_CMP_T_I64) - int(Op::V_CMP_F_I64) == 7 && int(Op::V_CMPX_T_U64) - int(Op::V_CMPX_F_U64) == 7);
static_assert(int(Op::V_CMP_GE_U16) - int(Op::V_CMP_F_U16) == 6 && int(Op::V_CMPX_NE_I64) - int(Op::V_CMPX_F_I64) == 5);

}  // namespace

void register_vopc(HandlerTable& t) {
  constexpr auto f16 = std::make_integer_sequence<int, 16>{};
  constexpr auto i8 = std::make_integer_sequence<int, 8>{};
  reg_float<K::F16, false>(t, Op::V_CMP_F_F16, f16);
  reg_float<K::F16, true>(t, Op::V_CMPX_F_F16, f16);
  reg_float<K::F32, false>(t, Op::V_CMP_F_F32, f16);
  reg_float<K::F32, true>(t, Op::V_CMPX_F_F32, f16);
  reg_float<K::F64, false>(t, Op::V_CMP_F_F64, f16);
  reg_float<K::F64, true>(t, Op::V_CMPX_F_F64, f16);
  reg_int<K::B16, true, false>(t, Op::V_CMP_F_I16, i8);
  reg_int<K::B16, false, false>(t, Op::V_CMP_F_U16, i8);
  reg_int<K::B16, true, true>(t, Op::V_CMPX_F_I16, i8);
  reg_int<K::B16, false, true>(t, Op::V_CMPX_F_U16, i8);
  reg_int<K::B32, true, false>(t, Op::V_CMP_F_I32, i8);
  reg_int<K::B32, false, false>(t, Op::V_CMP_F_U32, i8);
  reg_int<K::B32, true, true>(t, Op::V_CMPX_F_I32, i8);
  reg_int<K::B32, false, true>(t, Op::V_CMPX_F_U32, i8);
  reg_int<K::B64, true, false>(t, Op::V_CMP_F_I64, i8);
  reg_int<K::B64, false, false>(t, Op::V_CMP_F_U64, i8);
  reg_int<K::B64, true, true>(t, Op::V_CMPX_F_I64, i8);
  reg_int<K::B64, false, true>(t, Op::V_CMPX_F_U64, i8);
  t.set(Op::V_CMP_CLASS_F16, cmp_class<K::F16, false>);
  t.set(Op::V_CMPX_CLASS_F16, cmp_class<K::F16, true>);
  t.set(Op::V_CMP_CLASS_F32, cmp_class<K::F32, false>);
  t.set(Op::V_CMPX_CLASS_F32, cmp_class<K::F32, true>);
  t.set(Op::V_CMP_CLASS_F64, cmp_class<K::F64, false>);
  t.set(Op::V_CMPX_CLASS_F64, cmp_class<K::F64, true>);
}

}  // namespace strobe::emu
