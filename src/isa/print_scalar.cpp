// Scalar ALU and SMEM operand text: hwreg(), sendmsg(), waitcnt fields, gpr_idx(), branches.
#include <string>
#include <string_view>

#include "isa/print_internal.h"

namespace strobe::isa::detail {

namespace {

std::string hwreg(uint16_t simm) {
  static const char* kNames[] = {nullptr, "HW_REG_MODE", "HW_REG_STATUS", "HW_REG_TRAPSTS", "HW_REG_HW_ID",
                                 "HW_REG_GPR_ALLOC", "HW_REG_LDS_ALLOC", "HW_REG_IB_STS"};
  unsigned id = simm & 0x3F, off = (simm >> 6) & 0x1F, width = ((simm >> 11) & 0x1F) + 1;
  std::string s = "hwreg(";
  s += (id >= 1 && id <= 7) ? kNames[id] : std::to_string(id);
  if (width != 32 || off != 0) s += ", " + std::to_string(off) + ", " + std::to_string(width);
  return s + ")";
}

std::string sendmsg(uint16_t imm) {
  unsigned id = imm & 0xF, op = (imm >> 4) & 7, stream = (imm >> 8) & 3;
  bool gs = id == 2 || id == 3;
  bool valid_id = id == 1 || gs || id == 4 || id == 15;
  bool requires_op = gs || id == 15;
  bool valid_op = gs ? (op <= 3 && !(id == 2 && op == 0)) : id == 15 ? (op >= 1 && op <= 4) : op == 0;
  bool stream_ok = (gs && op != 0) ? true : stream == 0;
  static const char* kMsg[16] = {nullptr, "MSG_INTERRUPT", "MSG_GS", "MSG_GS_DONE", "MSG_SAVEWAVE",
                                 nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr,
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

std::string waitcnt(uint16_t imm) {
  unsigned vm = imm & 0xF, exp = (imm >> 4) & 7, lgkm = (imm >> 8) & 0xF;
  std::string s;
  auto add = [&](const char* name, unsigned v) {
    if (!s.empty()) s += ' ';
    s += std::string(name) + "(" + std::to_string(v) + ")";
  };
  bool all_max = vm == 15 && exp == 7 && lgkm == 15;
  if (vm != 15 || all_max) add("vmcnt", vm);
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

}  // namespace

std::string print_scalar(const Inst& inst, const OpInfo& info, uint64_t address) {
  std::string_view m(info.mnemonic);
  auto src = [&](int k) -> std::string {
    uint16_t code = inst.src[k];
    bool constant = code >= opcode_field::kIntZero && code <= opcode_field::kLiteral && !(code >= 235 && code <= 239) &&
                    !(code >= opcode_field::kVccz && code <= opcode_field::kLdsDirect);
    if ((info.regonly >> k & 1) && constant) return "/*invalid immediate*/";  // register-only operand
    return src_text(inst.src[k], inst.src_dwords[k], inst.src_dwords[k] == 2 ? ImmType::B64 : ImmType::B32,
                    inst.literal);
  };
  switch (inst.enc) {
    case Encoding::SOP2:
    case Encoding::SOP1:
    case Encoding::SOPC: {
      std::string s;
      if (info.has_dst) s = dst_text(inst.dst, inst.dst_dwords);
      if (m == "s_set_gpr_idx_on") return src(0) + ", " + gpr_idx(inst.simm16);
      for (int k = 0; k < info.nsrc; ++k) s += (s.empty() ? "" : ", ") + src(k);
      return s;
    }
    case Encoding::SOPK:
      if (m == "s_setreg_imm32_b32") return hwreg(inst.simm16) + ", " + imm32_text(inst.literal);
      if (m == "s_setreg_b32") return hwreg(inst.simm16) + ", " + reg_name(inst.src[0], 1);
      if (m == "s_getreg_b32") return dst_text(inst.dst, 1) + ", " + hwreg(inst.simm16);
      if (m == "s_cbranch_i_fork") return reg_name(inst.src[0], 2) + ", " + std::to_string(inst.simm16);
      return dst_text(inst.dst, 1) + ", " + hex(inst.simm16);
    case Encoding::SOPP:
      if (m == "s_waitcnt") return waitcnt(inst.simm16);
      if (m == "s_sendmsg" || m == "s_sendmsghalt") return sendmsg(inst.simm16);
      if (m == "s_set_gpr_idx_mode") return gpr_idx(inst.simm16);
      if (is_branch(m)) return std::to_string(inst.simm16);
      if (m == "s_endpgm") return inst.simm16 ? std::to_string(inst.simm16) : "";
      if (info.n == 0 && inst.simm16 == 0) return "";
      return small_or_hex(inst.simm16);
    case Encoding::SMEM: {
      std::string s;
      if (info.n == 0) return "";
      if (m == "s_memtime" || m == "s_memrealtime") return reg_name(inst.dst, 2);
      // s_atc_probe's first operand is an unsigned immediate; it has no glc operand at all.
      bool probe = m.starts_with("s_atc_probe");
      s = probe ? small_or_hex(inst.simm16) : reg_name(inst.dst, inst.dst_dwords);
      s += ", " + reg_name(inst.addr, inst.src_dwords[0]) + ", ";
      s += inst.smem_imm ? hex(inst.offset) : reg_name(inst.soffset, 1);
      if (inst.glc && !probe) s += " glc";
      return s;
    }
    default:
      return "";
  }
}

}  // namespace strobe::isa::detail
