// Vector ALU operand text: source modifiers, clamp/omod, SDWA selects, DPP controls, VINTRP.
#include <algorithm>
#include <string>
#include <string_view>

#include "isa/print_internal.h"

namespace strobe::isa::detail {

namespace {

const char* kSel[] = {"BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD", "7"};
const char* kUnused[] = {"UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE", "UNUSED_PAD"};

// A source with LLVM's float input modifiers: "-x", "|x|", "neg(imm)".
std::string with_mods(const std::string& text, bool neg, bool abs, bool is_imm) {
  std::string s;
  bool neg_mnemo = neg && !abs && is_imm;
  if (neg) s += neg_mnemo ? "neg(" : "-";
  if (abs) s += "|";
  s += text;
  if (abs) s += "|";
  if (neg_mnemo) s += ")";
  return s;
}

bool is_imm_code(uint16_t c) { return c >= opcode_field::kIntZero && c != 251 && c != 252 && c != 253 && c != 254 && c < opcode_field::kVgprFirst && !(c >= 235 && c <= 239); }

// LLVM's printDPPCtrl; its messages for controls of other targets carry their own spacing.
// `wide`: an operand is 64-bit (LLVM 14 asks it of src0, LLVM 19 of any VGPR operand).
std::string dpp_ctrl(Target target, uint16_t c, bool wide) {
  bool share = c >= 0x150 && c <= 0x15F;
  if (wide && !share) {
    return target == Target::Gfx803 ? " /* 64 bit dpp only supports row_newbcast */"
                                    : " /* DP ALU dpp only supports row_newbcast */";
  }
  if (share && target != Target::Gfx803) return "row_newbcast:" + std::to_string(c & 0xF);
  if (share) return " /* row_newbcast/row_share is not supported on ASICs earlier than GFX90A/GFX10 */";
  if (c >= 0x160 && c <= 0x16F) return "/* row_xmask is not supported on ASICs earlier than GFX10 */";
  if (c <= 0xFF) {
    return "quad_perm:[" + std::to_string(c & 3) + "," + std::to_string((c >> 2) & 3) + "," +
           std::to_string((c >> 4) & 3) + "," + std::to_string((c >> 6) & 3) + "]";
  }
  if (c >= 0x101 && c <= 0x10F) return "row_shl:" + std::to_string(c & 0xF);
  if (c >= 0x111 && c <= 0x11F) return "row_shr:" + std::to_string(c & 0xF);
  if (c >= 0x121 && c <= 0x12F) return "row_ror:" + std::to_string(c & 0xF);
  switch (c) {
    case 0x130: return "wave_shl:1";
    case 0x134: return "wave_rol:1";
    case 0x138: return "wave_shr:1";
    case 0x13C: return "wave_ror:1";
    case 0x140: return "row_mirror";
    case 0x141: return "row_half_mirror";
    case 0x142: return "row_bcast:15";
    case 0x143: return "row_bcast:31";
    default: return "/* Invalid dpp_ctrl value */";
  }
}

// A VOP3 interpolation source held in the src`field` field, with that field's modifiers.
std::string interp_src(const Inst& inst, const OpInfo& info, int field, uint16_t code) {
  bool imm = is_imm_code(code);
  std::string t = (info.regonly >> field & 1) && imm ? invalid_immediate(inst.target, code, 0)
                                                     : src_text(inst.target, code, 1, ImmType::B32, 0);
  return with_mods(t, inst.neg >> field & 1, inst.abs >> field & 1, imm);
}

// Whether LLVM 19 marks scalar `code` as outside a vector operand's class: every SGPR, trap
// temporary and special register but null, and lds_direct unless the class admits it.
bool outside_class(uint16_t code, std::string_view reg_class) {
  if (code == opcode_field::kLdsDirect) return reg_class != "VRegOrLds_32";
  return code <= opcode_field::kExecHi && code != 125;
}

// Whether LLVM 19 marks `code` as outside a scalar operand's class: any VGPR, and exec where
// the class excludes it (a carry-in's SReg_1_XEXEC).
bool outside_scalar_class(uint16_t code, std::string_view reg_class) {
  if (code >= opcode_field::kVgprFirst) return true;
  return reg_class.find("XEXEC") != std::string_view::npos &&
         (code == opcode_field::kExecLo || code == opcode_field::kExecHi);
}

std::string omod_text(uint8_t omod) {
  switch (omod) {
    case 1: return " mul:2";
    case 2: return " mul:4";
    case 3: return " div:2";
    default: return "";
  }
}

// The class of a source as LLVM 19 names it: an MFMA whose D is AccVGPRs (acc_cd) takes its C
// from AReg_N where the probe, made with VGPRs, saw VReg_N.
std::string matrix_class(const Inst& inst, std::string_view reg_class, int k) {
  if (k == 2 && inst.enc == Encoding::VOP3P && inst.dst >= opcode_field::kAgprFirst && reg_class.starts_with("VReg_"))
    return "AReg_" + std::string(reg_class.substr(5));
  return std::string(reg_class);
}

// " name:[b0,b1,...]" over the first n bits of `bits`.
std::string bit_list(const char* name, uint8_t bits, int n) {
  std::string s = std::string(" ") + name + ":[";
  for (int k = 0; k < n; ++k) s += (k ? "," : "") + std::to_string(bits >> k & 1);
  return s + "]";
}

// What follows a VOP3P instruction's operands: the matrix core's cbsz/abid/blgp (an f64 MFMA's
// blgp negates A, B and C), or packed math's lists, each where it is not its default.
std::string vop3p_controls(const Inst& inst, const OpInfo& info, std::string_view m) {
  std::string out;
  if (m.starts_with("v_mfma") || m.starts_with("v_smfmac")) {
    if (inst.cbsz) out += " cbsz:" + std::to_string(inst.cbsz);
    if (inst.abid) out += " abid:" + std::to_string(inst.abid);
    if (inst.blgp && m.ends_with("_f64")) out += bit_list("neg", inst.blgp, 3);
    else if (inst.blgp) out += " blgp:" + std::to_string(inst.blgp);
    return out;
  }
  const int n = info.nsrc;
  // op_sel_hi defaults to all ones, but for v_fma_mix_* (whose sample shows it) to zeros.
  const uint8_t hi_default = std::string_view(info.sample).find("op_sel_hi") == std::string_view::npos ? (1 << n) - 1 : 0;
  // Each list only where LLVM prints it for this opcode (not for v_accvgpr_read/write).
  auto has = [&](int bit, char effect) { return mod_effect(info, ModForm::VOP3P, bit) == effect; };
  if (inst.op_sel && has(6, 'o')) out += bit_list("op_sel", inst.op_sel, n);
  if (has(9, 'h') && (inst.op_sel_hi & ((1 << n) - 1)) != hi_default) out += bit_list("op_sel_hi", inst.op_sel_hi, n);
  if (inst.neg && has(0, 'n')) out += bit_list("neg_lo", inst.neg, n);
  if (inst.neg_hi && has(3, 'N')) out += bit_list("neg_hi", inst.neg_hi, n);
  if (inst.clamp) out += " clamp";
  return out;
}

}  // namespace

std::string print_vector(const Inst& inst, const OpInfo& info) {
  std::string_view m(info.mnemonic);
  if (inst.enc == Encoding::VINTRP) {
    std::string s = reg_name(inst.target, inst.dst, 1) + ", ";
    if (m.starts_with("v_interp_mov")) {
      uint16_t p = inst.src[0];
      s += p == 0 ? "p10" : p == 1 ? "p20" : p == 2 ? "p0" : "invalid_param_" + std::to_string(p);
    } else {
      s += reg_name(inst.target, inst.src[0], 1);
    }
    return s + ", attr" + std::to_string(inst.attr) + "." + "xyzw"[inst.attr_chan];
  }
  std::string out;
  auto sep = [&]() {
    if (!out.empty()) out += ", ";
  };
  bool vop3 = inst.enc == Encoding::VOP3;
  bool sdwa = inst.ext == VopExt::SDWA, dpp = inst.ext == VopExt::DPP;
  if (vop3 && m.starts_with("v_interp")) {
    out = reg_name(inst.target, inst.dst, 1) + ", ";
    if (m.starts_with("v_interp_mov")) {
      uint16_t p = inst.src[0];
      out += p == 0 ? "p10" : p == 1 ? "p20" : p == 2 ? "p0" : "invalid_param_" + std::to_string(p);
    } else {
      out += interp_src(inst, info, 1, inst.src[0]);
    }
    out += ", attr" + std::to_string(inst.attr) + "." + "xyzw"[inst.attr_chan];
    if (info.nsrc >= 2) out += ", " + interp_src(inst, info, 2, inst.src[2]);
    if (m.find("f16") != std::string_view::npos && inst.interp_high) out += " high";
    if (inst.clamp) out += " clamp";
    out += omod_text(inst.omod);
    return out;
  }
  for (int i = 0; i < info.n; ++i) {
    const SigOperand& o = info.ops[i];
    switch (o.role) {
      case Role::Dst:
        sep();
        out += vop3 || o.kind == 's' ? dst_text(inst.target, inst.dst, o.dwords, inst.literal)
                                     : reg_name(inst.target, inst.dst, o.dwords);
        break;
      case Role::Sdst:
        sep();
        out += dst_text(inst.target, inst.sdst, o.dwords);
        break;
      case Role::Vcc:
        if (vop3) {
          // e64 carry-in/out: the sample's "vcc" is a real operand (handled by Sdst/Src roles).
          break;
        }
        sep();
        // gfx9's SDWA compare names its destination (vcc unless the SD bit chose a pair).
        out += sdwa && inst.enc == Encoding::VOPC && inst.sdst != opcode_field::kNone
                   ? dst_text(inst.target, inst.sdst, 2)
                   : "vcc";
        break;
      case Role::LitK:
        sep();
        out += hex(inst.literal);  // LLVM prints the K constant of madmk/madak raw
        break;
      case Role::Src0:
      case Role::Src1:
      case Role::Src2: {
        int k = static_cast<int>(o.role) - static_cast<int>(Role::Src0);
        sep();
        if ((info.regonly >> k & 1) && is_imm_code(inst.src[k])) {
          // a constant in a register-only operand
          out += invalid_immediate(inst.target, inst.src[k], inst.literal);
          break;
        }
        std::string t = src_text(inst.target, inst.src[k], inst.src_dwords[k], info.imm[k], inst.literal);
        if (info.sgpr_class[k] && outside_class(inst.src[k], info.sgpr_class[k]))
          t = invalid_register(t, matrix_class(inst, info.sgpr_class[k], k));
        if (info.vgpr_class[k] && outside_scalar_class(inst.src[k], info.vgpr_class[k]))
          t = invalid_register(t, info.vgpr_class[k]);
        if (inst.sdwa_sext >> k & 1) t = "sext(" + t + ")";  // integer operand's neg bit
        // Packed math prints neg_lo as a list, not a sign (v_fma_mix_* keep the sign).
        const bool sign = inst.enc != Encoding::VOP3P || mod_effect(info, ModForm::VOP3P, 0) == '-';
        out += with_mods(t, sign && (inst.neg >> k & 1), inst.abs >> k & 1, is_imm_code(inst.src[k]));
        break;
      }
      default:
        break;
    }
  }
  if (vop3) {
    if (inst.op_sel) {
      // gfx9's VOP3 op_sel: one bit per source, then the destination's. LLVM counts the sources
      // it names, a tied one it does not print included (v_cvt_sr_fp8_f32's old destination).
      int n = info.nsrc;
      for (int k = 0; k < 3; ++k)
        if (mod_effect(info, ModForm::VOP3, kVop3OpSelBit + k) == 'o') n = std::max(n, k + 1);
      out += " op_sel:[";
      for (int k = 0; k < n; ++k) out += std::to_string(inst.op_sel >> k & 1) + ",";
      out += std::to_string(inst.op_sel >> 3 & 1) + "]";
    }
    if (inst.clamp) out += " clamp";
    out += omod_text(inst.omod);
  } else if (inst.enc == Encoding::VOP3P) {
    out += vop3p_controls(inst, info, m);
  } else if (sdwa && info.n == 0) {
    // v_nop_sdwa prints no selects at all.
  } else if (sdwa) {
    if (inst.clamp) out += " clamp";
    out += omod_text(inst.omod);
    // A form whose dst_sel is fixed (gfx940's fp8 conversions) prints neither dst control.
    if (inst.enc != Encoding::VOPC && !info.sdwa_ones) {
      out += std::string(" dst_sel:") + kSel[inst.sdwa_dst_sel];
      out += std::string(" dst_unused:") + kUnused[inst.sdwa_dst_unused];
    }
    if (info.nsrc >= 1) out += std::string(" src0_sel:") + kSel[inst.sdwa_src_sel[0]];
    if (info.nsrc >= 2) out += std::string(" src1_sel:") + kSel[inst.sdwa_src_sel[1]];
  } else if (dpp) {
    const bool wide = inst.target == Target::Gfx803
                          ? info.src_dwords[0] == 2
                          : (inst.dst_dwords == 2 && inst.enc != Encoding::VOPC) || info.src_dwords[0] == 2 ||
                                (info.nsrc >= 2 && info.src_dwords[1] == 2);
    out += " " + dpp_ctrl(inst.target, inst.dpp_ctrl, wide);
    out += " row_mask:" + hex(inst.dpp_row_mask) + " bank_mask:" + hex(inst.dpp_bank_mask);
    if (inst.dpp_bound_ctrl) out += " bound_ctrl:1";
  }
  return out;
}

}  // namespace strobe::isa::detail
