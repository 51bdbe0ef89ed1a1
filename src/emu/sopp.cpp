// SOPP semantics: branches, program end, barrier and the scheduling hints that have no functional effect.
#include <fmt/format.h>

#include "emu/operands.h"

namespace strobe::emu {

namespace {
using isa::Op;

// Branch targets are relative to the next instruction, in signed dwords.
[[gnu::always_inline]] inline void branch(Wave& w, const isa::Inst& in, ExecContext& ctx) {
  if (!ctx.program) fault(w, in, ctx, "branch without a program");
  const int64_t target = int64_t(ctx.program->offsets[w.pc]) + in.size + int64_t(int16_t(in.simm16)) * 4;
  const int32_t idx = target >= 0 ? ctx.program->index_at(uint64_t(target)) : -1;
  if (idx < 0)
    fault(w, in, ctx, fmt::format("branch target 0x{:x} is not an instruction of this kernel",
                                  ctx.program->base_address + uint64_t(target)));
  ctx.branch_target = uint32_t(idx);
  ctx.branch_taken = true;
}

void s_nop(Wave&, const isa::Inst&, ExecContext&) {}
void s_endpgm(Wave& w, const isa::Inst&, ExecContext&) { w.halted = true; }
void s_barrier(Wave& w, const isa::Inst&, ExecContext&) { w.at_barrier = true; }
void s_branch(Wave& w, const isa::Inst& in, ExecContext& ctx) { branch(w, in, ctx); }
void s_cbranch_scc0(Wave& w, const isa::Inst& in, ExecContext& ctx) { if (!w.scc) branch(w, in, ctx); }
void s_cbranch_scc1(Wave& w, const isa::Inst& in, ExecContext& ctx) { if (w.scc) branch(w, in, ctx); }
void s_cbranch_vccz(Wave& w, const isa::Inst& in, ExecContext& ctx) { if (!w.vcc()) branch(w, in, ctx); }
void s_cbranch_vccnz(Wave& w, const isa::Inst& in, ExecContext& ctx) { if (w.vcc()) branch(w, in, ctx); }
void s_cbranch_execz(Wave& w, const isa::Inst& in, ExecContext& ctx) { if (!w.exec()) branch(w, in, ctx); }
void s_cbranch_execnz(Wave& w, const isa::Inst& in, ExecContext& ctx) { if (w.exec()) branch(w, in, ctx); }

void s_sethalt(Wave& w, const isa::Inst& in, ExecContext& ctx) {
  // Halting waits for a debugger to resume the wave; there is none, so it would hang forever.
  if (in.simm16 & 1) fault(w, in, ctx, "s_sethalt 1 halts the wave for a debugger that does not exist");
}
void s_trap(Wave& w, const isa::Inst& in, ExecContext& ctx) {
  fault(w, in, ctx, fmt::format("s_trap {} (kernel trap, e.g. __builtin_trap or a failed assert)", in.simm16 & 0xFF));
}
void s_sendmsg(Wave& w, const isa::Inst& in, ExecContext& ctx) {
  // Only messages without a functional effect on a compute wave are accepted.
  const uint32_t msg = in.simm16 & 0xF;
  if (msg == 4) return;  // MSG_SAVEWAVE: context-save bookkeeping
  // MSG_INTERRUPT only wakes the host early (ockl's hostcall rings it after posting the event id
  // to the signal's mailbox); the wave goes on, and a host that polls the signal sees the same.
  if (msg == 1) return;
  fault(w, in, ctx, fmt::format("s_sendmsg with message id {} (GS and system messages are not emulated)", msg));
}
}  // namespace

void register_sopp(HandlerTable& t) {
  t.set(Op::S_NOP, s_nop);
  t.set(Op::S_ENDPGM, s_endpgm);
  t.set(Op::S_ENDPGM_SAVED, s_endpgm);
  t.set(Op::S_BRANCH, s_branch);
  t.set(Op::S_CBRANCH_SCC0, s_cbranch_scc0);
  t.set(Op::S_CBRANCH_SCC1, s_cbranch_scc1);
  t.set(Op::S_CBRANCH_VCCZ, s_cbranch_vccz);
  t.set(Op::S_CBRANCH_VCCNZ, s_cbranch_vccnz);
  t.set(Op::S_CBRANCH_EXECZ, s_cbranch_execz);
  t.set(Op::S_CBRANCH_EXECNZ, s_cbranch_execnz);
  t.set(Op::S_BARRIER, s_barrier);
  t.set(Op::S_SETHALT, s_sethalt);
  t.set(Op::S_TRAP, s_trap);
  t.set(Op::S_SENDMSG, s_sendmsg);
  // Scheduling, cache and performance hints: no effect on values.
  for (Op op : {Op::S_WAITCNT, Op::S_SLEEP, Op::S_SETPRIO, Op::S_ICACHE_INV, Op::S_INCPERFLEVEL,
                Op::S_DECPERFLEVEL, Op::S_TTRACEDATA, Op::S_WAKEUP, Op::S_SET_GPR_IDX_OFF})
    t.set(op, s_nop);
  // Debugger branches test debug bits that are never set here: always not taken.
  for (Op op : {Op::S_CBRANCH_CDBGSYS, Op::S_CBRANCH_CDBGUSER, Op::S_CBRANCH_CDBGSYS_OR_USER,
                Op::S_CBRANCH_CDBGSYS_AND_USER})
    t.set(op, s_nop);
  // s_setkill, s_sendmsghalt and s_set_gpr_idx_mode stay unset: loud faults.
}

}  // namespace strobe::emu
