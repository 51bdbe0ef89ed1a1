// SOPK (16-bit immediate) and SOPC (compare to SCC) semantics, with the hardware-register file
// behind s_getreg/s_setreg.
#include <bit>

#include <fmt/format.h>

#include "emu/dispatch.h"
#include "emu/operands.h"
#include "emu/salu.h"

namespace strobe::emu {

namespace {
using isa::Op;

// Hardware register ids (gfx8 hwreg numbering).
enum HwReg : uint32_t { kMode = 1, kStatus = 2, kTrapSts = 3, kHwId = 4, kGprAlloc = 5, kLdsAlloc = 6, kIbSts = 7 };

int32_t simm(const isa::Inst& in) { return int16_t(in.simm16); }

uint32_t read_hwreg(const Wave& w, const isa::Inst& in, const ExecContext& ctx, uint32_t id) {
  switch (id) {
    case kMode: return w.mode;
    case kStatus:
      // SCC[0], EXECZ[9], VCCZ[10], IN_TG[11] (waves of a work-group share a CU).
      return uint32_t(w.scc) | uint32_t(w.exec() == 0) << 9 | uint32_t(w.vcc() == 0) << 10 | 1u << 11;
    case kTrapSts: return w.trapsts;
    case kHwId:
      // WAVE_ID[3:0], SIMD_ID[5:4], CU_ID[11:8]: a deterministic placement by wave index.
      return (w.wave_id & 0xF) | ((w.wave_id >> 4) & 3) << 4;
    case kGprAlloc: {
      uint32_t vg = w.num_vgprs ? (w.num_vgprs + 3) / 4 - 1 : 0, sg = (w.num_sgprs + 15) / 16 - 1;
      return (vg & 0x3F) << 8 | (sg & 0xF) << 24;
    }
    case kLdsAlloc: return uint32_t((ctx.lds.size() + 255) / 256) << 12;  // LDS_SIZE in 64-dword units
    case kIbSts: return 0;
    default: fault(w, in, ctx, fmt::format("s_getreg of unsupported hardware register {}", id));
  }
}

// simm16 = {size-1[15:11], offset[10:6], id[5:0]}.
struct HwField { uint32_t id, offset, mask; };
HwField hwfield(uint16_t simm16) {
  uint32_t size = ((simm16 >> 11) & 0x1F) + 1;
  return {simm16 & 0x3Fu, (simm16 >> 6) & 0x1Fu, size >= 32 ? 0xFFFFFFFFu : (1u << size) - 1};
}

void s_getreg_b32(Wave& w, const isa::Inst& in, ExecContext& ctx) {
  HwField f = hwfield(in.simm16);
  sdst32(w, in.dst, (read_hwreg(w, in, ctx, f.id) >> f.offset) & f.mask);
}

void set_hwreg(Wave& w, const isa::Inst& in, const ExecContext& ctx, uint32_t value) {
  HwField f = hwfield(in.simm16);
  uint32_t* reg = f.id == kMode ? &w.mode : f.id == kTrapSts ? &w.trapsts : nullptr;
  if (!reg) fault(w, in, ctx, fmt::format("s_setreg of hardware register {} (only MODE and TRAPSTS are writable)", f.id));
  const uint32_t m = f.mask << f.offset;
  *reg = (*reg & ~m) | ((value << f.offset) & m);
}
// SOPK s_setreg: the "sdst" field names the source SGPR.
void s_setreg_b32(Wave& w, const isa::Inst& in, ExecContext& ctx) {
  set_hwreg(w, in, ctx, in.dst < 128 ? w.s[in.dst] : uint32_t(scalar_source(w, in, in.dst, OperandType::B32)));
}
void s_setreg_imm32_b32(Wave& w, const isa::Inst& in, ExecContext& ctx) { set_hwreg(w, in, ctx, in.literal); }

void s_movk_i32(Wave& w, const isa::Inst& in, ExecContext&) { sdst32(w, in.dst, uint32_t(simm(in))); }
void s_cmovk_i32(Wave& w, const isa::Inst& in, ExecContext&) {
  if (w.scc) sdst32(w, in.dst, uint32_t(simm(in)));
}
void s_addk_i32(Wave& w, const isa::Inst& in, ExecContext&) {
  if (in.dst >= 128) return;
  const uint32_t a = w.s[in.dst], b = uint32_t(simm(in)), d = a + b;
  w.scc = ((~(a ^ b)) & (a ^ d)) >> 31;
  w.s[in.dst] = d;
}
void s_mulk_i32(Wave& w, const isa::Inst& in, ExecContext&) {
  if (in.dst < 128) w.s[in.dst] = uint32_t(int64_t(int32_t(w.s[in.dst])) * simm(in));
}

// s_cmpk_*: compare the register named by sdst with the immediate (sign- or zero-extended).
#define CMPK(NAME, T, EXT, CMP)                                           \
  void NAME(Wave& w, const isa::Inst& in, ExecContext&) {                 \
    const T a = T(in.dst < 128 ? w.s[in.dst] : 0), b = T(EXT);            \
    w.scc = a CMP b;                                                      \
  }
CMPK(s_cmpk_eq_i32, int32_t, simm(in), ==)
CMPK(s_cmpk_lg_i32, int32_t, simm(in), !=)
CMPK(s_cmpk_gt_i32, int32_t, simm(in), >)
CMPK(s_cmpk_ge_i32, int32_t, simm(in), >=)
CMPK(s_cmpk_lt_i32, int32_t, simm(in), <)
CMPK(s_cmpk_le_i32, int32_t, simm(in), <=)
CMPK(s_cmpk_eq_u32, uint32_t, in.simm16, ==)
CMPK(s_cmpk_lg_u32, uint32_t, in.simm16, !=)
CMPK(s_cmpk_gt_u32, uint32_t, in.simm16, >)
CMPK(s_cmpk_ge_u32, uint32_t, in.simm16, >=)
CMPK(s_cmpk_lt_u32, uint32_t, in.simm16, <)
CMPK(s_cmpk_le_u32, uint32_t, in.simm16, <=)
#undef CMPK

#define CMP(NAME, T, READ, CMP)                                           \
  void NAME(Wave& w, const isa::Inst& in, ExecContext&) {                 \
    const T a = T(READ(w, in, 0)), b = T(READ(w, in, 1));                 \
    w.scc = a CMP b;                                                      \
  }
CMP(s_cmp_eq_i32, int32_t, ssrc32, ==)
CMP(s_cmp_lg_i32, int32_t, ssrc32, !=)
CMP(s_cmp_gt_i32, int32_t, ssrc32, >)
CMP(s_cmp_ge_i32, int32_t, ssrc32, >=)
CMP(s_cmp_lt_i32, int32_t, ssrc32, <)
CMP(s_cmp_le_i32, int32_t, ssrc32, <=)
CMP(s_cmp_eq_u32, uint32_t, ssrc32, ==)
CMP(s_cmp_lg_u32, uint32_t, ssrc32, !=)
CMP(s_cmp_gt_u32, uint32_t, ssrc32, >)
CMP(s_cmp_ge_u32, uint32_t, ssrc32, >=)
CMP(s_cmp_lt_u32, uint32_t, ssrc32, <)
CMP(s_cmp_le_u32, uint32_t, ssrc32, <=)
CMP(s_cmp_eq_u64, uint64_t, ssrc64, ==)
CMP(s_cmp_lg_u64, uint64_t, ssrc64, !=)
#undef CMP

void s_bitcmp0_b32(Wave& w, const isa::Inst& in, ExecContext&) { w.scc = !((ssrc32(w, in, 0) >> (ssrc32(w, in, 1) & 31)) & 1); }
void s_bitcmp1_b32(Wave& w, const isa::Inst& in, ExecContext&) { w.scc = (ssrc32(w, in, 0) >> (ssrc32(w, in, 1) & 31)) & 1; }
void s_bitcmp0_b64(Wave& w, const isa::Inst& in, ExecContext&) { w.scc = !((ssrc64(w, in, 0) >> (ssrc32(w, in, 1) & 63)) & 1); }
void s_bitcmp1_b64(Wave& w, const isa::Inst& in, ExecContext&) { w.scc = (ssrc64(w, in, 0) >> (ssrc32(w, in, 1) & 63)) & 1; }
}  // namespace

void register_salu_sopk_sopc(HandlerTable& t) {
  t.set(Op::S_MOVK_I32, s_movk_i32);
  t.set(Op::S_CMOVK_I32, s_cmovk_i32);
  t.set(Op::S_ADDK_I32, s_addk_i32);
  t.set(Op::S_MULK_I32, s_mulk_i32);
  t.set(Op::S_CMPK_EQ_I32, s_cmpk_eq_i32);
  t.set(Op::S_CMPK_LG_I32, s_cmpk_lg_i32);
  t.set(Op::S_CMPK_GT_I32, s_cmpk_gt_i32);
  t.set(Op::S_CMPK_GE_I32, s_cmpk_ge_i32);
  t.set(Op::S_CMPK_LT_I32, s_cmpk_lt_i32);
  t.set(Op::S_CMPK_LE_I32, s_cmpk_le_i32);
  t.set(Op::S_CMPK_EQ_U32, s_cmpk_eq_u32);
  t.set(Op::S_CMPK_LG_U32, s_cmpk_lg_u32);
  t.set(Op::S_CMPK_GT_U32, s_cmpk_gt_u32);
  t.set(Op::S_CMPK_GE_U32, s_cmpk_ge_u32);
  t.set(Op::S_CMPK_LT_U32, s_cmpk_lt_u32);
  t.set(Op::S_CMPK_LE_U32, s_cmpk_le_u32);
  t.set(Op::S_GETREG_B32, s_getreg_b32);
  t.set(Op::S_SETREG_B32, s_setreg_b32);
  t.set(Op::S_SETREG_IMM32_B32, s_setreg_imm32_b32);
  t.set(Op::S_CMP_EQ_I32, s_cmp_eq_i32);
  t.set(Op::S_CMP_LG_I32, s_cmp_lg_i32);
  t.set(Op::S_CMP_GT_I32, s_cmp_gt_i32);
  t.set(Op::S_CMP_GE_I32, s_cmp_ge_i32);
  t.set(Op::S_CMP_LT_I32, s_cmp_lt_i32);
  t.set(Op::S_CMP_LE_I32, s_cmp_le_i32);
  t.set(Op::S_CMP_EQ_U32, s_cmp_eq_u32);
  t.set(Op::S_CMP_LG_U32, s_cmp_lg_u32);
  t.set(Op::S_CMP_GT_U32, s_cmp_gt_u32);
  t.set(Op::S_CMP_GE_U32, s_cmp_ge_u32);
  t.set(Op::S_CMP_LT_U32, s_cmp_lt_u32);
  t.set(Op::S_CMP_LE_U32, s_cmp_le_u32);
  t.set(Op::S_CMP_EQ_U64, s_cmp_eq_u64);
  t.set(Op::S_CMP_LG_U64, s_cmp_lg_u64);
  t.set(Op::S_BITCMP0_B32, s_bitcmp0_b32);
  t.set(Op::S_BITCMP1_B32, s_bitcmp1_b32);
  t.set(Op::S_BITCMP0_B64, s_bitcmp0_b64);
  t.set(Op::S_BITCMP1_B64, s_bitcmp1_b64);
  // s_cbranch_i_fork, s_setvskip and s_set_gpr_idx_on (VGPR indexing) stay unset: loud faults.
}

}  // namespace strobe::emu
