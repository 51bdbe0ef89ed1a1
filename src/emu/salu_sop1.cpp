// SOP1 scalar ALU semantics: moves, bit counting/scanning, exec save/restore, PC and M0-relative moves.
#include <bit>

#include <fmt/format.h>

#include "emu/operands.h"
#include "emu/salu.h"

namespace strobe::emu {

namespace {
using isa::Op;
namespace of = isa::opcode_field;

#define SOP1_32(NAME, EXPR, SCC_EXPR)                           \
  void NAME(Wave& w, const isa::Inst& in, ExecContext&) {       \
    const uint32_t a = ssrc32(w, in, 0);                        \
    const uint32_t d = (EXPR);                                  \
    SCC_EXPR;                                                   \
    sdst32(w, in.dst, d);                                       \
  }
#define SOP1_64(NAME, EXPR, SCC_EXPR)                           \
  void NAME(Wave& w, const isa::Inst& in, ExecContext&) {       \
    const uint64_t a = ssrc64(w, in, 0);                        \
    const uint64_t d = (EXPR);                                  \
    SCC_EXPR;                                                   \
    sdst64(w, in.dst, d);                                       \
  }
// Bit-count/scan ops on a 64-bit source produce a 32-bit result.
#define SOP1_32_64(NAME, EXPR, SCC_EXPR)                        \
  void NAME(Wave& w, const isa::Inst& in, ExecContext&) {       \
    const uint64_t a = ssrc64(w, in, 0);                        \
    const uint32_t d = (EXPR);                                  \
    SCC_EXPR;                                                   \
    sdst32(w, in.dst, d);                                       \
  }
#define SCC_NZ w.scc = d != 0
#define NO_SCC (void)0

template <typename T>
T bit_reverse(T a) {
  T d = 0;
  for (unsigned i = 0; i < sizeof(T) * 8; ++i, a >>= 1) d = (d << 1) | (a & 1);
  return d;
}

// Whole-quad mode: a quad is fully on if any of its lanes is.
template <typename T>
T wqm(T a) {
  T d = 0;
  for (unsigned i = 0; i < sizeof(T) * 8; i += 4)
    if ((a >> i) & 0xF) d |= T{0xF} << i;
  return d;
}
template <typename T>
T quadmask(T a) {
  T d = 0;
  for (unsigned i = 0; i < sizeof(T) * 8; i += 4)
    if ((a >> i) & 0xF) d |= T{1} << (i / 4);
  return d;
}
// First bit (from the MSB) that differs from the sign bit; -1 if all bits equal the sign.
template <typename S>
uint32_t flbit_signed(S a) {
  using U = std::make_unsigned_t<S>;
  U u = a < 0 ? U(~a) : U(a);
  return u == 0 ? 0xFFFFFFFFu : uint32_t(std::countl_zero(u));
}

SOP1_32(s_mov_b32, a, NO_SCC)
SOP1_64(s_mov_b64, a, NO_SCC)
SOP1_32(s_not_b32, ~a, SCC_NZ)
SOP1_64(s_not_b64, ~a, SCC_NZ)
SOP1_32(s_wqm_b32, wqm(a), SCC_NZ)
SOP1_64(s_wqm_b64, wqm(a), SCC_NZ)
SOP1_32(s_brev_b32, bit_reverse(a), NO_SCC)
SOP1_64(s_brev_b64, bit_reverse(a), NO_SCC)
SOP1_32(s_bcnt0_i32_b32, uint32_t(std::popcount(~a)), SCC_NZ)
SOP1_32_64(s_bcnt0_i32_b64, uint32_t(std::popcount(~a)), SCC_NZ)
SOP1_32(s_bcnt1_i32_b32, uint32_t(std::popcount(a)), SCC_NZ)
SOP1_32_64(s_bcnt1_i32_b64, uint32_t(std::popcount(a)), SCC_NZ)
SOP1_32(s_ff0_i32_b32, ~a ? uint32_t(std::countr_zero(~a)) : 0xFFFFFFFFu, NO_SCC)
SOP1_32_64(s_ff0_i32_b64, ~a ? uint32_t(std::countr_zero(~a)) : 0xFFFFFFFFu, NO_SCC)
SOP1_32(s_ff1_i32_b32, a ? uint32_t(std::countr_zero(a)) : 0xFFFFFFFFu, NO_SCC)
SOP1_32_64(s_ff1_i32_b64, a ? uint32_t(std::countr_zero(a)) : 0xFFFFFFFFu, NO_SCC)
SOP1_32(s_flbit_i32_b32, a ? uint32_t(std::countl_zero(a)) : 0xFFFFFFFFu, NO_SCC)
SOP1_32_64(s_flbit_i32_b64, a ? uint32_t(std::countl_zero(a)) : 0xFFFFFFFFu, NO_SCC)
SOP1_32(s_flbit_i32, flbit_signed(int32_t(a)), NO_SCC)
SOP1_32_64(s_flbit_i32_i64, flbit_signed(int64_t(a)), NO_SCC)
SOP1_32(s_sext_i32_i8, uint32_t(int32_t(int8_t(a))), NO_SCC)
SOP1_32(s_sext_i32_i16, uint32_t(int32_t(int16_t(a))), NO_SCC)
SOP1_32(s_quadmask_b32, quadmask(a), SCC_NZ)
SOP1_64(s_quadmask_b64, quadmask(a), SCC_NZ)
SOP1_32(s_abs_i32, int32_t(a) < 0 ? 0u - a : a, SCC_NZ)

void s_cmov_b32(Wave& w, const isa::Inst& in, ExecContext&) {
  if (w.scc) sdst32(w, in.dst, ssrc32(w, in, 0));
}
void s_cmov_b64(Wave& w, const isa::Inst& in, ExecContext&) {
  if (w.scc) sdst64(w, in.dst, ssrc64(w, in, 0));
}

// s_bitset*: the destination is read-modify-written; S0 gives the bit index.
template <bool One>
void s_bitset_b32(Wave& w, const isa::Inst& in, ExecContext&) {
  if (in.dst >= 128) return;
  const uint32_t bit = 1u << (ssrc32(w, in, 0) & 31);
  w.s[in.dst] = One ? w.s[in.dst] | bit : w.s[in.dst] & ~bit;
}
template <bool One>
void s_bitset_b64(Wave& w, const isa::Inst& in, ExecContext&) {
  if (in.dst >= 127) return;
  const uint64_t bit = uint64_t{1} << (ssrc32(w, in, 0) & 63);
  const uint64_t d = w.s64(in.dst);
  w.set_s64(in.dst, One ? d | bit : d & ~bit);
}

// Exec save/restore: D = EXEC; EXEC = f(S0, EXEC); SCC = EXEC != 0.
#define SAVEEXEC(NAME, EXPR)                                    \
  void NAME(Wave& w, const isa::Inst& in, ExecContext&) {       \
    const uint64_t s0 = ssrc64(w, in, 0), e = w.exec();         \
    const uint64_t ne = (EXPR);                                 \
    sdst64(w, in.dst, e);                                       \
    w.set_exec(ne);                                             \
    w.scc = ne != 0;                                            \
  }
SAVEEXEC(s_and_saveexec_b64, s0 & e)
SAVEEXEC(s_or_saveexec_b64, s0 | e)
SAVEEXEC(s_xor_saveexec_b64, s0 ^ e)
SAVEEXEC(s_andn2_saveexec_b64, s0 & ~e)
SAVEEXEC(s_orn2_saveexec_b64, s0 | ~e)
SAVEEXEC(s_nand_saveexec_b64, ~(s0 & e))
SAVEEXEC(s_nor_saveexec_b64, ~(s0 | e))
SAVEEXEC(s_xnor_saveexec_b64, ~(s0 ^ e))
#undef SAVEEXEC

// ---- program counter ----
uint32_t pc_index_of(const Wave& w, const isa::Inst& in, const ExecContext& ctx, uint64_t addr) {
  if (!ctx.program) fault(w, in, ctx, "PC-relative instruction without a program");
  int32_t idx = addr >= ctx.program->base_address ? ctx.program->index_at(addr - ctx.program->base_address) : -1;
  if (idx < 0)
    fault(w, in, ctx, fmt::format("jump to 0x{:x} (code object address 0x{:x}): not an instruction of this kernel "
                                  "or of any function in its code object",
                                  addr, addr - ctx.program->load_bias));
  for (const isa::RefusedEntry& r : ctx.program->refused) [[unlikely]]
    if (r.index == idx) fault(w, in, ctx, r.why);
  return uint32_t(idx);
}
void s_getpc_b64(Wave& w, const isa::Inst& in, ExecContext& ctx) {
  sdst64(w, in.dst, pc_address(ctx.program, w.pc) + in.size);  // address of the next instruction
}
void s_setpc_b64(Wave& w, const isa::Inst& in, ExecContext& ctx) {
  ctx.branch_target = pc_index_of(w, in, ctx, ssrc64(w, in, 0));
  ctx.branch_taken = true;
}
void s_swappc_b64(Wave& w, const isa::Inst& in, ExecContext& ctx) {
  const uint64_t target = ssrc64(w, in, 0);
  sdst64(w, in.dst, pc_address(ctx.program, w.pc) + in.size);
  ctx.branch_target = pc_index_of(w, in, ctx, target);
  ctx.branch_taken = true;
}

// ---- M0-relative SGPR moves: the register number is offset by M0 ----
uint16_t relative_sgpr(const Wave& w, const isa::Inst& in, const ExecContext& ctx, uint16_t code, unsigned dwords) {
  const uint64_t r = uint64_t{code} + w.m0();
  if (code > of::kSgprLast || r + dwords - 1 > of::kSgprLast)
    fault(w, in, ctx, fmt::format("M0-relative SGPR s{} (base {} + M0 {}) is outside s0..s101", r, code, w.m0()));
  return uint16_t(r);
}
void s_movrels_b32(Wave& w, const isa::Inst& in, ExecContext& ctx) {
  sdst32(w, in.dst, w.s[relative_sgpr(w, in, ctx, in.src[0], 1)]);
}
void s_movrels_b64(Wave& w, const isa::Inst& in, ExecContext& ctx) {
  sdst64(w, in.dst, w.s64(relative_sgpr(w, in, ctx, in.src[0], 2)));
}
void s_movreld_b32(Wave& w, const isa::Inst& in, ExecContext& ctx) {
  w.s[relative_sgpr(w, in, ctx, in.dst, 1)] = ssrc32(w, in, 0);
}
void s_movreld_b64(Wave& w, const isa::Inst& in, ExecContext& ctx) {
  w.set_s64(relative_sgpr(w, in, ctx, in.dst, 2), ssrc64(w, in, 0));
}

#undef SOP1_32
#undef SOP1_64
#undef SOP1_32_64
}  // namespace

void register_salu_sop1(HandlerTable& t) {
  t.set(Op::S_MOV_B32, s_mov_b32);
  t.set(Op::S_MOV_B64, s_mov_b64);
  t.set(Op::S_CMOV_B32, s_cmov_b32);
  t.set(Op::S_CMOV_B64, s_cmov_b64);
  t.set(Op::S_NOT_B32, s_not_b32);
  t.set(Op::S_NOT_B64, s_not_b64);
  t.set(Op::S_WQM_B32, s_wqm_b32);
  t.set(Op::S_WQM_B64, s_wqm_b64);
  t.set(Op::S_BREV_B32, s_brev_b32);
  t.set(Op::S_BREV_B64, s_brev_b64);
  t.set(Op::S_BCNT0_I32_B32, s_bcnt0_i32_b32);
  t.set(Op::S_BCNT0_I32_B64, s_bcnt0_i32_b64);
  t.set(Op::S_BCNT1_I32_B32, s_bcnt1_i32_b32);
  t.set(Op::S_BCNT1_I32_B64, s_bcnt1_i32_b64);
  t.set(Op::S_FF0_I32_B32, s_ff0_i32_b32);
  t.set(Op::S_FF0_I32_B64, s_ff0_i32_b64);
  t.set(Op::S_FF1_I32_B32, s_ff1_i32_b32);
  t.set(Op::S_FF1_I32_B64, s_ff1_i32_b64);
  t.set(Op::S_FLBIT_I32_B32, s_flbit_i32_b32);
  t.set(Op::S_FLBIT_I32_B64, s_flbit_i32_b64);
  t.set(Op::S_FLBIT_I32, s_flbit_i32);
  t.set(Op::S_FLBIT_I32_I64, s_flbit_i32_i64);
  t.set(Op::S_SEXT_I32_I8, s_sext_i32_i8);
  t.set(Op::S_SEXT_I32_I16, s_sext_i32_i16);
  t.set(Op::S_BITSET0_B32, s_bitset_b32<false>);
  t.set(Op::S_BITSET1_B32, s_bitset_b32<true>);
  t.set(Op::S_BITSET0_B64, s_bitset_b64<false>);
  t.set(Op::S_BITSET1_B64, s_bitset_b64<true>);
  t.set(Op::S_GETPC_B64, s_getpc_b64);
  t.set(Op::S_SETPC_B64, s_setpc_b64);
  t.set(Op::S_SWAPPC_B64, s_swappc_b64);
  t.set(Op::S_AND_SAVEEXEC_B64, s_and_saveexec_b64);
  t.set(Op::S_OR_SAVEEXEC_B64, s_or_saveexec_b64);
  t.set(Op::S_XOR_SAVEEXEC_B64, s_xor_saveexec_b64);
  t.set(Op::S_ANDN2_SAVEEXEC_B64, s_andn2_saveexec_b64);
  t.set(Op::S_ORN2_SAVEEXEC_B64, s_orn2_saveexec_b64);
  t.set(Op::S_NAND_SAVEEXEC_B64, s_nand_saveexec_b64);
  t.set(Op::S_NOR_SAVEEXEC_B64, s_nor_saveexec_b64);
  t.set(Op::S_XNOR_SAVEEXEC_B64, s_xnor_saveexec_b64);
  t.set(Op::S_QUADMASK_B32, s_quadmask_b32);
  t.set(Op::S_QUADMASK_B64, s_quadmask_b64);
  t.set(Op::S_MOVRELS_B32, s_movrels_b32);
  t.set(Op::S_MOVRELS_B64, s_movrels_b64);
  t.set(Op::S_MOVRELD_B32, s_movreld_b32);
  t.set(Op::S_MOVRELD_B64, s_movreld_b64);
  t.set(Op::S_ABS_I32, s_abs_i32);
  // s_rfe_b64, s_cbranch_join, s_set_gpr_idx_idx stay unset: they fault as not implemented.
}

}  // namespace strobe::emu
