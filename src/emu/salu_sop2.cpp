// SOP2 scalar ALU semantics (GCN3 ISA manual, section 12.1), plus the SALU registration entry.
#include <bit>
#include <cstdlib>

#include "emu/operands.h"
#include "emu/salu.h"

namespace strobe::emu {

namespace {
using isa::Op;

#define SOP2_32(NAME, EXPR, SCC_EXPR)                                   \
  void NAME(Wave& w, const isa::Inst& in, ExecContext&) {               \
    const uint32_t a = ssrc32(w, in, 0), b = ssrc32(w, in, 1);          \
    const uint32_t d = (EXPR);                                          \
    SCC_EXPR;                                                           \
    sdst32(w, in.dst, d);                                               \
  }
#define SOP2_64(NAME, EXPR, SCC_EXPR)                                   \
  void NAME(Wave& w, const isa::Inst& in, ExecContext&) {               \
    const uint64_t a = ssrc64(w, in, 0), b = ssrc64(w, in, 1);          \
    const uint64_t d = (EXPR);                                          \
    SCC_EXPR;                                                           \
    sdst64(w, in.dst, d);                                               \
  }
// Shifts and bit-field ops on 64-bit data take a 32-bit second operand.
#define SOP2_64_32(NAME, EXPR, SCC_EXPR)                                \
  void NAME(Wave& w, const isa::Inst& in, ExecContext&) {               \
    const uint64_t a = ssrc64(w, in, 0);                                \
    const uint32_t b = ssrc32(w, in, 1);                                \
    const uint64_t d = (EXPR);                                          \
    SCC_EXPR;                                                           \
    sdst64(w, in.dst, d);                                               \
  }
#define SCC_NZ w.scc = d != 0
#define NO_SCC (void)0

SOP2_32(s_add_u32, a + b, w.scc = d < a)
SOP2_32(s_sub_u32, a - b, w.scc = b > a)
SOP2_32(s_add_i32, a + b, w.scc = ((~(a ^ b)) & (a ^ d)) >> 31)
SOP2_32(s_sub_i32, a - b, w.scc = ((a ^ b) & (a ^ d)) >> 31)
SOP2_32(s_min_i32, int32_t(a) < int32_t(b) ? a : b, w.scc = int32_t(a) < int32_t(b))
SOP2_32(s_min_u32, a < b ? a : b, w.scc = a < b)
SOP2_32(s_max_i32, int32_t(a) > int32_t(b) ? a : b, w.scc = int32_t(a) > int32_t(b))
SOP2_32(s_max_u32, a > b ? a : b, w.scc = a > b)
SOP2_32(s_cselect_b32, w.scc ? a : b, NO_SCC)
SOP2_64(s_cselect_b64, w.scc ? a : b, NO_SCC)
SOP2_32(s_and_b32, a & b, SCC_NZ)
SOP2_64(s_and_b64, a & b, SCC_NZ)
SOP2_32(s_or_b32, a | b, SCC_NZ)
SOP2_64(s_or_b64, a | b, SCC_NZ)
SOP2_32(s_xor_b32, a ^ b, SCC_NZ)
SOP2_64(s_xor_b64, a ^ b, SCC_NZ)
SOP2_32(s_andn2_b32, a & ~b, SCC_NZ)
SOP2_64(s_andn2_b64, a & ~b, SCC_NZ)
SOP2_32(s_orn2_b32, a | ~b, SCC_NZ)
SOP2_64(s_orn2_b64, a | ~b, SCC_NZ)
SOP2_32(s_nand_b32, ~(a & b), SCC_NZ)
SOP2_64(s_nand_b64, ~(a & b), SCC_NZ)
SOP2_32(s_nor_b32, ~(a | b), SCC_NZ)
SOP2_64(s_nor_b64, ~(a | b), SCC_NZ)
SOP2_32(s_xnor_b32, ~(a ^ b), SCC_NZ)
SOP2_64(s_xnor_b64, ~(a ^ b), SCC_NZ)
SOP2_32(s_lshl_b32, a << (b & 31), SCC_NZ)
SOP2_64_32(s_lshl_b64, a << (b & 63), SCC_NZ)
SOP2_32(s_lshr_b32, a >> (b & 31), SCC_NZ)
SOP2_64_32(s_lshr_b64, a >> (b & 63), SCC_NZ)
SOP2_32(s_ashr_i32, uint32_t(int32_t(a) >> (b & 31)), SCC_NZ)
SOP2_64_32(s_ashr_i64, uint64_t(int64_t(a) >> (b & 63)), SCC_NZ)
SOP2_32(s_bfm_b32, ((1u << (a & 31)) - 1) << (b & 31), NO_SCC)
SOP2_32(s_mul_i32, uint32_t(int64_t(int32_t(a)) * int32_t(b)), NO_SCC)
SOP2_32(s_mul_hi_u32, uint32_t((uint64_t(a) * b) >> 32), NO_SCC)
SOP2_32(s_mul_hi_i32, uint32_t(uint64_t(int64_t(int32_t(a)) * int32_t(b)) >> 32), NO_SCC)
SOP2_32(s_absdiff_i32, uint32_t(std::abs(int64_t(int32_t(a)) - int32_t(b))), SCC_NZ)

void s_bfm_b64(Wave& w, const isa::Inst& in, ExecContext&) {
  const uint32_t a = ssrc32(w, in, 0), b = ssrc32(w, in, 1);
  sdst64(w, in.dst, ((uint64_t{1} << (a & 63)) - 1) << (b & 63));
}

void s_addc_u32(Wave& w, const isa::Inst& in, ExecContext&) {
  const uint64_t r = uint64_t{ssrc32(w, in, 0)} + ssrc32(w, in, 1) + w.scc;
  w.scc = r >> 32;
  sdst32(w, in.dst, uint32_t(r));
}

void s_subb_u32(Wave& w, const isa::Inst& in, ExecContext&) {
  const uint32_t a = ssrc32(w, in, 0), b = ssrc32(w, in, 1);
  const uint64_t sub = uint64_t{b} + w.scc;
  w.scc = sub > a;
  sdst32(w, in.dst, uint32_t(a - sub));
}

// Bit-field extract: offset in S1[4:0] (S1[5:0] for 64-bit), width in S1[22:16].
template <typename T, bool Signed>
void s_bfe(Wave& w, const isa::Inst& in, ExecContext&) {
  constexpr unsigned kBits = sizeof(T) * 8;
  const uint32_t ctl = ssrc32(w, in, 1);
  const T src = kBits == 64 ? T(ssrc64(w, in, 0)) : T(ssrc32(w, in, 0));
  const unsigned off = ctl & (kBits - 1), width = (ctl >> 16) & 0x7F;
  T d = src >> off;
  if (width < kBits) {
    d &= (T{1} << width) - 1;
    if (Signed && width > 0 && ((d >> (width - 1)) & 1)) d |= ~T{0} << width;
  }
  w.scc = d != 0;
  if constexpr (kBits == 64) sdst64(w, in.dst, d);
  else sdst32(w, in.dst, d);
}

#undef SOP2_32
#undef SOP2_64
#undef SOP2_64_32
}  // namespace

void register_salu_sop2(HandlerTable& t) {
  t.set(Op::S_ADD_U32, s_add_u32);
  t.set(Op::S_SUB_U32, s_sub_u32);
  t.set(Op::S_ADD_I32, s_add_i32);
  t.set(Op::S_SUB_I32, s_sub_i32);
  t.set(Op::S_ADDC_U32, s_addc_u32);
  t.set(Op::S_SUBB_U32, s_subb_u32);
  t.set(Op::S_MIN_I32, s_min_i32);
  t.set(Op::S_MIN_U32, s_min_u32);
  t.set(Op::S_MAX_I32, s_max_i32);
  t.set(Op::S_MAX_U32, s_max_u32);
  t.set(Op::S_CSELECT_B32, s_cselect_b32);
  t.set(Op::S_CSELECT_B64, s_cselect_b64);
  t.set(Op::S_AND_B32, s_and_b32);
  t.set(Op::S_AND_B64, s_and_b64);
  t.set(Op::S_OR_B32, s_or_b32);
  t.set(Op::S_OR_B64, s_or_b64);
  t.set(Op::S_XOR_B32, s_xor_b32);
  t.set(Op::S_XOR_B64, s_xor_b64);
  t.set(Op::S_ANDN2_B32, s_andn2_b32);
  t.set(Op::S_ANDN2_B64, s_andn2_b64);
  t.set(Op::S_ORN2_B32, s_orn2_b32);
  t.set(Op::S_ORN2_B64, s_orn2_b64);
  t.set(Op::S_NAND_B32, s_nand_b32);
  t.set(Op::S_NAND_B64, s_nand_b64);
  t.set(Op::S_NOR_B32, s_nor_b32);
  t.set(Op::S_NOR_B64, s_nor_b64);
  t.set(Op::S_XNOR_B32, s_xnor_b32);
  t.set(Op::S_XNOR_B64, s_xnor_b64);
  t.set(Op::S_LSHL_B32, s_lshl_b32);
  t.set(Op::S_LSHL_B64, s_lshl_b64);
  t.set(Op::S_LSHR_B32, s_lshr_b32);
  t.set(Op::S_LSHR_B64, s_lshr_b64);
  t.set(Op::S_ASHR_I32, s_ashr_i32);
  t.set(Op::S_ASHR_I64, s_ashr_i64);
  t.set(Op::S_BFM_B32, s_bfm_b32);
  t.set(Op::S_BFM_B64, s_bfm_b64);
  t.set(Op::S_MUL_I32, s_mul_i32);
  t.set(Op::S_MUL_HI_U32, s_mul_hi_u32);
  t.set(Op::S_MUL_HI_I32, s_mul_hi_i32);
  t.set(Op::S_BFE_U32, s_bfe<uint32_t, false>);
  t.set(Op::S_BFE_I32, s_bfe<uint32_t, true>);
  t.set(Op::S_BFE_U64, s_bfe<uint64_t, false>);
  t.set(Op::S_BFE_I64, s_bfe<uint64_t, true>);
  t.set(Op::S_ABSDIFF_I32, s_absdiff_i32);
}

void register_salu(HandlerTable& t) {
  register_salu_sop2(t);
  register_salu_sop1(t);
  register_salu_sopk_sopc(t);
}

}  // namespace strobe::emu
