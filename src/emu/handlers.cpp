// The process-wide handler table and the fault report every handler raises.
#include <fmt/format.h>

#include "common/error.h"
#include "emu/dispatch.h"
#include "emu/semantics.h"
#include "isa/disassembler.h"

namespace strobe::emu {

namespace {
constexpr const char* kNames[] = {
#define STROBE_OP(OP, NAME) NAME,
#include "isa/ops.def"
#undef STROBE_OP
    "<invalid>",
};

const char* encoding_name(isa::Encoding e) {
  static constexpr const char* kEnc[] = {"SOP2", "SOPK", "SOP1", "SOPC", "SOPP", "SMEM", "VOP2", "VOP1", "VOPC",
                                         "VOP3", "VINTRP", "DS", "FLAT", "MUBUF", "MTBUF", "MIMG", "EXP",
                                         "VOP3P", "GLOBAL", "SCRATCH", "invalid"};
  return size_t(e) < std::size(kEnc) ? kEnc[size_t(e)] : "?";
}

// Executed in place of any handler nobody registered: never skip an instruction silently.
void not_implemented(Wave& w, const isa::Inst& inst, ExecContext& ctx) {
  if (ctx.program && ctx.program->is_end_marker(w.pc))
    fault(w, inst, ctx, "execution ran past the last instruction of a function (no branch, return or s_endpgm)");
  if (inst.enc == isa::Encoding::Invalid || inst.op == isa::Op::INVALID)
    fault(w, inst, ctx, "undecodable instruction word");
  const std::string why = fmt::format("not implemented: {} ({})", mnemonic(inst.op), encoding_name(inst.enc));
  // gfx942 code is decoded in full but not all of it executes yet (MFMA, SMFMAC, the float dot
  // products): the code object asks for what this build cannot run, which is bad input (exit
  // 2) rather than a fault of the kernel.
  if (inst.target == isa::Target::Gfx942) throw InputError(fault_message(w, inst, ctx, why + " on gfx942"));
  fault(w, inst, ctx, why);
}

HandlerTable build() {
  HandlerTable t;
  register_salu(t);
  register_sopp(t);
  register_smem(t);
  register_valu(t);
  register_vopc(t);
  register_lane_ops(t);
  register_ds(t);
  register_flat(t);
  register_mubuf(t);
  register_graphics(t);
  register_mimg(t);
  for (auto& f : t.fn)
    if (!f) f = not_implemented;
  return t;
}
}  // namespace

const char* mnemonic(isa::Op op) {
  return size_t(op) < std::size(kNames) ? kNames[size_t(op)] : "<invalid>";
}

uint64_t pc_address(const isa::Program* program, uint32_t pc) {
  if (!program) return 0;
  if (pc < program->offsets.size()) return program->base_address + program->offsets[pc];
  // One past the end: the address where the next instruction would be.
  if (!program->offsets.empty() && pc == program->offsets.size())
    return program->base_address + program->offsets.back() + program->insts.back().size;
  return program->base_address;
}

const HandlerTable& handlers() {
  static const HandlerTable table = build();
  return table;
}

bool has_semantics(isa::Op op) { return size_t(op) < handlers().fn.size() && handlers().fn[size_t(op)] != not_implemented; }

std::string fault_message(const Wave& w, const isa::Inst& inst, const ExecContext& ctx, const std::string& why) {
  std::string kernel = ctx.dispatch ? ctx.dispatch->kernel_name : std::string("<kernel>");
  const uint64_t pc = pc_address(ctx.program, w.pc);
  // The full instruction text as llvm-objdump prints it; the bare mnemonic if printing fails.
  std::string text;
  try {
    text = inst.enc == isa::Encoding::Invalid ? mnemonic(inst.op) : isa::format_inst(inst, {}, pc);
  } catch (...) {
    text = mnemonic(inst.op);
  }
  // The PC is reported as the code object address, the one `strobe disasm` prints.
  const uint64_t bias = ctx.program ? ctx.program->load_bias : 0;
  return fmt::format("kernel {}: work-group ({},{},{}) wave {} PC 0x{:x} [{}]: {}", kernel, ctx.workgroup_id[0],
                     ctx.workgroup_id[1], ctx.workgroup_id[2], w.wave_id, pc - bias, text, why);
}

void fault(const Wave& w, const isa::Inst& inst, const ExecContext& ctx, const std::string& why) {
  throw FaultError(fault_message(w, inst, ctx, why));
}

}  // namespace strobe::emu
