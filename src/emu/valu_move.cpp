// Data movement on the vector ALU: v_mov_b32, v_cndmask_b32, the M0-relative v_movrel*
// moves, v_nop/v_clrexcp, and the graphics-only interpolation ops (which fault in compute).
#include "emu/valu_exec.h"

namespace strobe::emu::valu {
namespace {

using isa::Op;

/// v_cndmask_b32: S1 where the lane's mask bit is set, else S0. The mask is VCC for VOP2/SDWA/
/// DPP forms and the e64 src2 scalar pair otherwise. Sources are float-typed so e64 abs/neg
/// apply as sign-bit operations (inline constants are the same bits for b32 and f32).
void cndmask(Wave& w, const isa::Inst& in, ExecContext&) {
  const uint64_t mask = in.enc == isa::Encoding::VOP3 ? mask_operand(w, in, in.src[2]) : w.vcc();
  run_lane<K::B32, K::F32, K::F32>(w, in, [mask](unsigned l, uint32_t a, uint32_t b) -> uint32_t {
    return (mask >> l) & 1 ? b : a;
  });
}

/// Offsets a VGPR operand by M0 for v_movrel*, faulting when the result leaves the allocation.
uint16_t relative(const Wave& w, const isa::Inst& in, const ExecContext& ctx, uint16_t code) {
  if (!is_vgpr(code)) unsupported(w, in, ctx, "M0-relative operand must be a VGPR");
  const uint64_t reg = uint64_t(vgpr_index(code)) + w.m0();
  if (reg >= w.num_vgprs) {
    fault(w, in, ctx, std::string(op_text(in.op)) + ": v" + std::to_string(vgpr_index(code)) + " + M0 (" +
                          std::to_string(w.m0()) + ") is beyond the " + std::to_string(w.num_vgprs) +
                          " allocated VGPRs");
  }
  return uint16_t(isa::opcode_field::kVgprFirst + reg);
}

/// v_movrels (source relative), v_movreld (destination relative), v_movrelsd (both).
template <bool RelSrc, bool RelDst>
void movrel(Wave& w, const isa::Inst& in, ExecContext& ctx) {
  isa::Inst r = in;
  if (RelSrc) r.src[0] = relative(w, in, ctx, in.src[0]);
  if (RelDst) r.dst = relative(w, in, ctx, in.dst);
  run<K::B32, K::F32>(w, r, [](uint32_t a) -> uint32_t { return a; });
}

void interp(Wave& w, const isa::Inst& in, ExecContext& ctx) {
  unsupported(w, in, ctx, "parameter interpolation is graphics-only and not supported in compute");
}

}  // namespace

void register_valu_move(HandlerTable& t) {
  t.set(Op::V_NOP, [](Wave&, const isa::Inst&, ExecContext&) {});
  // No FP exception state is modelled, so there is nothing to clear.
  t.set(Op::V_CLREXCP, [](Wave&, const isa::Inst&, ExecContext&) {});
  t.set(Op::V_MOV_B32, [](Wave& w, const isa::Inst& in, ExecContext&) {
    run<K::B32, K::F32>(w, in, [](uint32_t a) -> uint32_t { return a; });
  });
  // gfx90a+: a 64-bit move, and moves into, out of and between AccVGPRs (AccVGPR aN is row
  // 256 + N of the wave's register array, so they are plain moves here).
  t.set(Op::V_MOV_B64, [](Wave& w, const isa::Inst& in, ExecContext&) {
    run<K::B64, K::B64>(w, in, [](uint64_t a) -> uint64_t { return a; });
  });
  for (Op op : {Op::V_ACCVGPR_READ_B32, Op::V_ACCVGPR_WRITE_B32, Op::V_ACCVGPR_MOV_B32})
    t.set(op, [](Wave& w, const isa::Inst& in, ExecContext&) {
      run<K::B32, K::B32>(w, in, [](uint32_t a) -> uint32_t { return a; });
    });
  t.set(Op::V_CNDMASK_B32, cndmask);
  t.set(Op::V_MOVRELS_B32, movrel<true, false>);
  t.set(Op::V_MOVRELD_B32, movrel<false, true>);
  t.set(Op::V_MOVRELSD_B32, movrel<true, true>);
  for (Op op : {Op::V_INTERP_P1_F32, Op::V_INTERP_P2_F32, Op::V_INTERP_MOV_F32, Op::V_INTERP_P1LL_F16,
                Op::V_INTERP_P1LV_F16, Op::V_INTERP_P2_F16})
    t.set(op, interp);
}

}  // namespace strobe::emu::valu
