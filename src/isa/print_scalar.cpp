// Scalar ALU and SMEM operand text: hwreg(), sendmsg(), waitcnt fields, gpr_idx(), branches.
#include <string>
#include <string_view>

#include "isa/print_internal.h"

namespace strobe::isa::detail {

namespace {

// The hardware registers LLVM names; gfx942 adds the shader-memory bases, the trap handler's
// addresses, the XCC and the performance snapshot (LLVM 19's table, probed id by id).
std::string hwreg(Target target, uint16_t simm) {
  static const char* kNames[] = {nullptr,
                                 "HW_REG_MODE",
                                 "HW_REG_STATUS",
                                 "HW_REG_TRAPSTS",
                                 "HW_REG_HW_ID",
                                 "HW_REG_GPR_ALLOC",
                                 "HW_REG_LDS_ALLOC",
                                 "HW_REG_IB_STS",
                                 nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
                                 "HW_REG_SH_MEM_BASES",
                                 "HW_REG_TBA_LO",
                                 "HW_REG_TBA_HI",
                                 "HW_REG_TMA_LO",
                                 "HW_REG_TMA_HI",
                                 "HW_REG_XCC_ID",
                                 "HW_REG_SQ_PERF_SNAPSHOT_DATA",
                                 "HW_REG_SQ_PERF_SNAPSHOT_DATA1",
                                 "HW_REG_SQ_PERF_SNAPSHOT_PC_LO",
                                 "HW_REG_SQ_PERF_SNAPSHOT_PC_HI"};
  unsigned id = simm & 0x3F, off = (simm >> 6) & 0x1F, width = ((simm >> 11) & 0x1F) + 1;
  const unsigned named = target == Target::Gfx942 ? std::size(kNames) : 8;
  std::string s = "hwreg(";
  s += (id < named && kNames[id]) ? kNames[id] : std::to_string(id);
  if (width != 32 || off != 0) s += ", " + std::to_string(off) + ", " + std::to_string(width);
  return s + ")";
}

// gfx9 adds messages 5 to 10 and drops the host-trap acknowledgement from the system messages.
std::string sendmsg(Target target, uint16_t imm) {
  const bool gfx9 = target == Target::Gfx942;
  unsigned id = imm & 0xF, op = (imm >> 4) & 7, stream = (imm >> 8) & 3;
  bool gs = id == 2 || id == 3;
  bool valid_id = id == 1 || gs || id == 4 || id == 15 || (gfx9 && id >= 5 && id <= 10);
  bool requires_op = gs || id == 15;
  bool valid_sys = op >= 1 && op <= 4 && !(gfx9 && op == 3);
  bool valid_op = gs ? (op <= 3 && !(id == 2 && op == 0)) : id == 15 ? valid_sys : op == 0;
  bool stream_ok = (gs && op != 0) ? true : stream == 0;
  static const char* kMsg[16] = {nullptr, "MSG_INTERRUPT", "MSG_GS", "MSG_GS_DONE", "MSG_SAVEWAVE",
                                 "MSG_STALL_WAVE_GEN", "MSG_HALT_WAVES", "MSG_ORDERED_PS_DONE",
                                 "MSG_EARLY_PRIM_DEALLOC", "MSG_GS_ALLOC_REQ", "MSG_GET_DOORBELL", nullptr, nullptr,
                                 nullptr, nullptr, "MSG_SYSMSG"};
  static const char* kGs[] = {"GS_OP_NOP", "GS_OP_CUT", "GS_OP_EMIT", "GS_OP_EMIT_CUT"};
  static const char* kSys[] = {nullptr, "SYSMSG_OP_ECC_ERR_INTERRUPT", "SYSMSG_OP_REG_RD",
                               "SYSMSG_OP_HOST_TRAP_ACK", "SYSMSG_OP_TTRACE_PC"};
  if (valid_id && valid_op && stream_ok) {
    std::string s = std::string("sendmsg(") + kMsg[id];
    if (requires_op) {
      s += std::string(", ") + (gs ? kGs[op] : kSys[op]);
      if (gs && op != 0) s += ", " + std::to_string(stream);
    }
    return s + ")";
  }
  if ((id | op << 4 | stream << 8) == imm)
    return "sendmsg(" + std::to_string(id) + ", " + std::to_string(op) + ", " + std::to_string(stream) + ")";
  return std::to_string(imm);
}

// gfx9's vmcnt has six bits: the low four at 3:0 and the high two at 15:14.
std::string waitcnt(Target target, uint16_t imm) {
  const bool gfx9 = target == Target::Gfx942;
  unsigned vm = (imm & 0xF) | (gfx9 ? (imm >> 14 & 3) << 4 : 0), exp = (imm >> 4) & 7, lgkm = (imm >> 8) & 0xF;
  const unsigned vm_max = gfx9 ? 63 : 15;
  std::string s;
  auto add = [&](const char* name, unsigned v) {
    if (!s.empty()) s += ' ';
    s += std::string(name) + "(" + std::to_string(v) + ")";
  };
  bool all_max = vm == vm_max && exp == 7 && lgkm == 15;
  if (vm != vm_max || all_max) add("vmcnt", vm);
  if (exp != 7 || all_max) add("expcnt", exp);
  if (lgkm != 15 || all_max) add("lgkmcnt", lgkm);
  return s;
}

std::string gpr_idx(uint16_t v) {
  if (v & ~0xFu) return hex(v);
  static const char* kIds[] = {"SRC0", "SRC1", "SRC2", "DST"};
  std::string s = "gpr_idx(";
  bool comma = false;
  for (int i = 0; i < 4; ++i)
    if (v & (1u << i)) {
      if (comma) s += ',';
      s += kIds[i];
      comma = true;
    }
  return s + ")";
}

// LLVM prints these unsigned 16-bit immediates in decimal up to 64, else hex (0xfffd, not -3).
std::string small_or_hex(uint16_t v) {
  if (v <= 64) return std::to_string(v);
  return hex(v);
}

bool is_branch(std::string_view m) { return m == "s_branch" || m.starts_with("s_cbranch"); }

// A signed 21-bit SMEM offset as LLVM prints it: "0x1c", "-0x52c8".
std::string signed_hex(uint32_t v) {
  const int32_t s = static_cast<int32_t>(v);
  return s < 0 ? "-" + hex(uint64_t(-int64_t(s))) : hex(uint64_t(s));
}

// An SMEM data or base register, annotated as LLVM 19 does when it lies outside the operand's
// class: 32-bit data excludes m0 and exec (SReg_32_XM0_XEXEC), 64-bit data exec (SReg_64_XEXEC),
// and wider operands every special register.
std::string smem_reg(const Inst& inst, uint16_t code, unsigned dwords, bool data) {
  std::string name = reg_name(inst.target, code, dwords);
  const ScalarSpace sp = scalar_space(inst.target);
  const bool tuple = code <= opcode_field::kSgprLast || (code >= sp.ttmp_first && code < sp.ttmp_first + sp.ttmp_count);
  if (dwords == 1 && data && (code == opcode_field::kM0 || code == opcode_field::kExecLo || code == opcode_field::kExecHi))
    return invalid_register(name, "SReg_32_XM0_XEXEC");
  if (dwords == 2 && data && code == opcode_field::kExecLo) return invalid_register(name, "SReg_64_XEXEC");
  if (dwords > 2 && !tuple && code != 125) return invalid_register(name, dwords == 4 ? "SReg_128" : dwords == 8 ? "SReg_256" : "SReg_512");
  return name;
}

// gfx9 SMEM operands: data (unless a discard), base, then the SGPR offset and/or the immediate.
std::string smem_gfx9(const Inst& inst, const OpInfo& info) {
  std::string_view m(info.mnemonic);
  std::string s;
  if (m.starts_with("s_atc_probe")) s = small_or_hex(inst.simm16);
  else if (info.n != 2) s = smem_reg(inst, inst.dst, inst.dst_dwords, true);
  if (info.n == 1) return s;
  s += (s.empty() ? "" : ", ") + smem_reg(inst, inst.addr, inst.src_dwords[0], false) + ", ";
  if (inst.soffset != opcode_field::kNone) {
    s += reg_name(inst.target, inst.soffset, 1);
    if (inst.smem_imm) s += " offset:" + signed_hex(inst.offset);
  } else {
    s += signed_hex(inst.offset);
  }
  if (inst.glc && !m.starts_with("s_atc_probe") && !m.starts_with("s_dcache_discard")) s += " glc";
  return s;
}

}  // namespace

std::string print_scalar(const Inst& inst, const OpInfo& info, uint64_t address) {
  std::string_view m(info.mnemonic);
  auto src = [&](int k) -> std::string {
    uint16_t code = inst.src[k];
    bool constant = code >= opcode_field::kIntZero && code <= opcode_field::kLiteral && !(code >= 235 && code <= 239) &&
                    !(code >= opcode_field::kVccz && code <= opcode_field::kLdsDirect);
    const ImmType t = inst.src_dwords[k] == 2 ? ImmType::B64 : ImmType::B32;
    if ((info.regonly >> k & 1) && constant)  // register-only operand
      return invalid_immediate(inst.target, code, inst.literal);
    std::string text = src_text(inst.target, code, inst.src_dwords[k], t, inst.literal);
    // LLVM 19 decodes lds_direct into a scalar source and then finds it outside the class.
    if (inst.target == Target::Gfx942 && code == opcode_field::kLdsDirect) return invalid_register(text, "SReg_32");
    return text;
  };
  switch (inst.enc) {
    case Encoding::SOP2:
    case Encoding::SOP1:
    case Encoding::SOPC: {
      std::string s;
      if (info.has_dst) s = dst_text(inst.target, inst.dst, inst.dst_dwords);
      if (m == "s_set_gpr_idx_on") return src(0) + ", " + gpr_idx(inst.simm16);
      for (int k = 0; k < info.nsrc; ++k) s += (s.empty() ? "" : ", ") + src(k);
      return s;
    }
    case Encoding::SOPK:
      if (m == "s_setreg_imm32_b32") return hwreg(inst.target, inst.simm16) + ", " + imm32_text(inst.literal);
      if (m == "s_setreg_b32") return hwreg(inst.target, inst.simm16) + ", " + reg_name(inst.target, inst.src[0], 1);
      if (m == "s_getreg_b32") return dst_text(inst.target, inst.dst, 1) + ", " + hwreg(inst.target, inst.simm16);
      if (m == "s_call_b64") return reg_name(inst.target, inst.dst, 2) + ", " + std::to_string(inst.simm16);
      if (m == "s_cbranch_i_fork") return reg_name(inst.target, inst.src[0], 2) + ", " + std::to_string(inst.simm16);
      return dst_text(inst.target, inst.dst, 1) + ", " + hex(inst.simm16);
    case Encoding::SOPP:
      if (m == "s_waitcnt") return waitcnt(inst.target, inst.simm16);
      if (m == "s_sendmsg" || m == "s_sendmsghalt") return sendmsg(inst.target, inst.simm16);
      if (m == "s_set_gpr_idx_mode") return gpr_idx(inst.simm16);
      if (is_branch(m)) return std::to_string(inst.simm16);
      if (m == "s_endpgm") return inst.simm16 ? std::to_string(inst.simm16) : "";
      if (info.n == 0 && inst.simm16 == 0) return "";
      return small_or_hex(inst.simm16);
    case Encoding::SMEM: {
      std::string s;
      if (info.n == 0) return "";
      if (inst.target == Target::Gfx942) return smem_gfx9(inst, info);
      if (m == "s_memtime" || m == "s_memrealtime") return reg_name(inst.target, inst.dst, 2);
      // s_atc_probe's first operand is an unsigned immediate; it has no glc operand at all.
      bool probe = m.starts_with("s_atc_probe");
      s = probe ? small_or_hex(inst.simm16) : reg_name(inst.target, inst.dst, inst.dst_dwords);
      s += ", " + reg_name(inst.target, inst.addr, inst.src_dwords[0]) + ", ";
      s += inst.smem_imm ? hex(inst.offset) : reg_name(inst.target, inst.soffset, 1);
      if (inst.glc && !probe) s += " glc";
      return s;
    }
    default:
      return "";
  }
}

}  // namespace strobe::isa::detail
