// Vector ALU encodings: VOP1, VOP2, VOPC (e32, SDWA, DPP), VOP3a/VOP3b and VINTRP.
#include <span>
#include <string_view>

#include "isa/decode_internal.h"

namespace strobe::isa::detail {

using namespace opcode_field;

namespace {

bool starts(const OpInfo& info, const char* prefix) { return std::string_view(info.mnemonic).starts_with(prefix); }

// The vector destination of an e32/SDWA/DPP/VOP3 word: a VGPR tuple, or an SGPR for the
// lane-read ops (LLVM decodes that 8-bit field with the scalar source rules).
bool vector_dst(Ctx& c, Inst& inst, const OpInfo& info, uint16_t field) {
  int d = find_role(info, Role::Dst);
  if (d < 0) return true;
  if (info.ops[d].kind == 's') {
    uint16_t code = field;
    // LLVM reads a literal even here (and prints it as an invalid immediate).
    if (!check_operand(c, code, info.ops[d].dwords, true)) return false;
    inst.dst = code;
    return true;
  }
  if (!check_vgpr(c, field, info.ops[d].dwords)) return false;
  inst.dst = (info.ops[d].kind == 'a' ? kAgprFirst : kVgprFirst) + field;
  return true;
}

// A vector register source: an AccVGPR where the operand is one (gfx942's v_accvgpr_*).
uint16_t vector_src(const OpInfo& info, Role role, uint16_t code) {
  const int i = find_role(info, role);
  return i >= 0 && info.ops[i].kind == 'a' && code >= kVgprFirst && code < kAgprFirst ? code + 256 : code;
}

// One modifier bit of a form: where it sits and what the encoding defines it as.
struct ModBit {
  uint8_t dword, bit;
  char role;   ///< '-' neg, '|' abs, 's' sext, 'c' clamp, 'm' omod bit
  int8_t index;  ///< source number (omod: bit number)
};

// In the bit order of operand_probes.def.
// gfx9 adds op_sel in bits 14:11 (sources 0-2, then the destination).
constexpr ModBit kVop3Mods[] = {{0, 8, '|', 0},  {0, 9, '|', 1},  {0, 10, '|', 2}, {1, 29, '-', 0}, {1, 30, '-', 1},
                                {1, 31, '-', 2}, {0, 15, 'c', 0}, {1, 27, 'm', 0}, {1, 28, 'm', 1}, {0, 11, 'o', 0},
                                {0, 12, 'o', 1}, {0, 13, 'o', 2}, {0, 14, 'o', 3}};
constexpr size_t kVop3ModsGfx8 = kVop3OpSelBit;  // gfx8 has no op_sel
// gfx9 adds omod in bits 15:14 (where VOPC keeps its SD bit and scalar destination instead).
constexpr ModBit kSdwaMods[] = {{1, 19, 's', 0}, {1, 20, '-', 0}, {1, 21, '|', 0}, {1, 27, 's', 1}, {1, 28, '-', 1},
                                {1, 29, '|', 1}, {1, 13, 'c', 0}, {1, 14, 'm', 0}, {1, 15, 'm', 1}};
constexpr size_t kSdwaModsGfx8 = 7;
constexpr ModBit kDppMods[] = {{1, 20, '-', 0}, {1, 21, '|', 0}, {1, 22, '-', 1}, {1, 23, '|', 1}};
// gfx9's packed math; v_fma_mix_* read neg_lo as neg and neg_hi as abs (the probes say which).
constexpr ModBit kVop3pMods[] = {{1, 29, 'n', 0}, {1, 30, 'n', 1}, {1, 31, 'n', 2}, {0, 8, 'N', 0},  {0, 9, 'N', 1},
                                 {0, 10, 'N', 2}, {0, 11, 'o', 0}, {0, 12, 'o', 1}, {0, 13, 'o', 2}, {1, 27, 'h', 0},
                                 {1, 28, 'h', 1}, {0, 14, 'h', 2}, {0, 15, 'c', 0}};

// Sets neg/abs/sext/clamp/omod from the modifier bits the way LLVM reads them for this opcode:
// integer operands turn the neg bit into sext(), operands without modifiers ignore the bits.
void apply_mods(const Ctx& c, Inst& inst, const OpInfo& info, ModForm form, std::span<const ModBit> bits) {
  inst.neg = inst.abs = inst.sdwa_sext = inst.clamp = inst.omod = inst.op_sel = inst.op_sel_hi = inst.neg_hi = 0;
  for (size_t i = 0; i < bits.size(); ++i) {
    const ModBit& b = bits[i];
    if (!(c.w(b.dword) >> b.bit & 1)) continue;
    char e = mod_effect(info, form, static_cast<int>(i));
    if (e == '*' || e == 'x') e = b.role;  // not probed: the encoding's own meaning
    switch (e) {
      case '-': inst.neg |= 1 << b.index; break;
      case '|': inst.abs |= 1 << b.index; break;
      case 's': inst.sdwa_sext |= 1 << b.index; break;
      case 'c': inst.clamp = 1; break;
      case 'm': inst.omod |= b.role == 'm' ? 1 << b.index : 0; break;
      case 'o': inst.op_sel |= 1 << b.index; break;
      case 'h': inst.op_sel_hi |= 1 << b.index; break;
      case 'n': inst.neg |= 1 << b.index; break;
      case 'N': inst.neg_hi |= 1 << b.index; break;
      default: break;  // '.': LLVM ignores the bit
    }
  }
}

// Fields of a VOP1/VOP2/VOPC first dword.
struct E32 {
  Encoding enc;
  uint16_t opcode, src0, vsrc1, vdst;
};

E32 split_e32(uint32_t w) {
  if ((w >> 25) == 0x3F) return {Encoding::VOP1, static_cast<uint16_t>((w >> 9) & 0xFF), static_cast<uint16_t>(w & 0x1FF), 0,
                                 static_cast<uint16_t>((w >> 17) & 0xFF)};
  if ((w >> 25) == 0x3E) return {Encoding::VOPC, static_cast<uint16_t>((w >> 17) & 0xFF), static_cast<uint16_t>(w & 0x1FF),
                                 static_cast<uint16_t>((w >> 9) & 0xFF), 0};
  return {Encoding::VOP2, static_cast<uint16_t>((w >> 25) & 0x3F), static_cast<uint16_t>(w & 0x1FF),
          static_cast<uint16_t>((w >> 9) & 0xFF), static_cast<uint16_t>((w >> 17) & 0xFF)};
}

bool decode_e32(Ctx& c, Inst& inst, Encoding enc) {
  E32 f = split_e32(c.w(0));
  const OpInfo* info;
  if (!begin(c, inst, enc, f.opcode, info)) return false;
  bool madk = takes_k_constant(info->mnemonic);
  if (madk) {
    // The K constant is the second dword of a 64-bit encoding.
    if (c.words.size() < 2) return false;
    c.consumed = 2;
    inst.literal = c.words[1];
  }
  if (!vector_dst(c, inst, *info, f.vdst)) return false;
  for (int k = 0; k < info->nsrc; ++k) {
    if (k == 0) {
      uint16_t code = f.src0;
      // A literal src0 of madmk/madak is the K dword itself (LLVM reads one literal per word).
      if (madk && code == kLiteral) c.has_literal = true, c.literal = inst.literal;
      if (!check_operand(c, code, info->src_dwords[0], true)) return false;
      inst.src[0] = vector_src(*info, Role::Src0, code);
    } else {
      // vsrc1 is an 8-bit VGPR field; any other source (vcc of cndmask) is implicit.
      if (!check_vgpr(c, f.vsrc1, info->src_dwords[k])) return false;
      inst.src[k] = kVgprFirst + f.vsrc1;
    }
  }
  if (c.has_literal && !madk) inst.literal = c.literal;
  return true;
}

}  // namespace

bool decode_vop1(Ctx& c, Inst& inst) { return decode_e32(c, inst, Encoding::VOP1); }
bool decode_vop2(Ctx& c, Inst& inst) { return decode_e32(c, inst, Encoding::VOP2); }
bool decode_vopc(Ctx& c, Inst& inst) { return decode_e32(c, inst, Encoding::VOPC); }

/// A source of an SDWA or DPP word: a VGPR, or where `scalar` (gfx9's SDWA) an 8-bit scalar or
/// constant code, decoded as LLVM's decodeSDWASrc does (the 9-bit rules without a literal).
static bool extended_src(Ctx& c, uint16_t& src, uint16_t field, bool scalar, unsigned dwords) {
  if (!scalar) {
    src = kVgprFirst + field;
    return check_vgpr(c, field, dwords);
  }
  if (field == kLiteral) return false;
  src = field;
  return check_operand(c, src, dwords, false);
}

/// The part SDWA and DPP share: the e32 word names the operation, the second dword carries
/// src0 and the extension's controls. Rejects words whose must-be-zero/one bits LLVM checks.
static const OpInfo* begin_extended(Ctx& c, Inst& inst, VopExt ext) {
  uint32_t w0 = c.w(0), w1 = c.w(1);
  E32 f = split_e32(w0);
  const OpInfo* info = lookup(c.target, f.enc, f.opcode);
  const bool sdwa = ext == VopExt::SDWA;
  if (!info || !(sdwa ? info->has_sdwa : info->has_dpp)) return nullptr;
  const uint32_t* mask = sdwa ? info->sdwa_mask : info->dpp_mask;
  if ((w0 & mask[0]) || (w1 & mask[1])) return nullptr;
  if (sdwa && (~w1 & info->sdwa_ones)) return nullptr;
  inst.enc = f.enc;
  inst.opcode = f.opcode;
  inst.op = info->op;
  inst.target = c.target;
  inst.ext = ext;
  inst.dst_dwords = info->dst_dwords;
  for (int k = 0; k < 3; ++k) inst.src_dwords[k] = info->src_dwords[k];
  c.consumed = 2;
  if (!(sdwa && f.enc == Encoding::VOPC && c.target != Target::Gfx803) && !vector_dst(c, inst, *info, f.vdst))
    return nullptr;
  // gfx9's SDWA may name a scalar or a constant in either source: S0 (bit 23) and S1 (bit 31).
  const bool gfx9_sdwa = sdwa && c.target != Target::Gfx803;
  if (info->nsrc >= 1 && !extended_src(c, inst.src[0], w1 & 0xFF, gfx9_sdwa && (w1 >> 23 & 1), info->src_dwords[0]))
    return nullptr;
  if (info->nsrc >= 2 && !extended_src(c, inst.src[1], f.vsrc1, gfx9_sdwa && (w1 >> 31), info->src_dwords[1]))
    return nullptr;
  return info;
}

bool decode_sdwa(Ctx& c, Inst& inst) {
  const OpInfo* info = begin_extended(c, inst, VopExt::SDWA);
  if (!info) return false;
  uint32_t w1 = c.w(1);
  inst.sdwa_dst_sel = (w1 >> 8) & 7;
  inst.sdwa_dst_unused = (w1 >> 11) & 3;
  inst.sdwa_src_sel[0] = (w1 >> 16) & 7;
  const bool gfx9 = c.target != Target::Gfx803;
  if (gfx9 && inst.enc == Encoding::VOPC) {
    // gfx9's compare writes vcc, or with the SD bit (15) the scalar pair in bits 14:8.
    uint16_t sd = (w1 >> 8) & 0x7F;
    if (!(w1 >> 15 & 1)) sd = kVccLo;
    else if (!check_sdst(c, sd, 2)) return false;
    inst.sdst = sd;
  }
  apply_mods(c, inst, *info, ModForm::SDWA,
             std::span(kSdwaMods, gfx9 && inst.enc != Encoding::VOPC ? std::size(kSdwaMods) : kSdwaModsGfx8));
  inst.sdwa_src_sel[1] = (w1 >> 24) & 7;
  // A select of 7 has no meaning; LLVM 14 crashes printing it, strobe rejects the word.
  if (inst.sdwa_src_sel[0] == 7 || inst.sdwa_src_sel[1] == 7 || inst.sdwa_dst_sel == 7) return false;
  return true;
}

bool decode_dpp(Ctx& c, Inst& inst) {
  const OpInfo* info = begin_extended(c, inst, VopExt::DPP);
  if (!info) return false;
  uint32_t w1 = c.w(1);
  inst.dpp_ctrl = (w1 >> 8) & 0x1FF;
  inst.dpp_bound_ctrl = (w1 >> 19) & 1;
  apply_mods(c, inst, *info, ModForm::DPP, kDppMods);
  inst.dpp_bank_mask = (w1 >> 24) & 0xF;
  inst.dpp_row_mask = (w1 >> 28) & 0xF;
  return true;
}

bool decode_vop3(Ctx& c, Inst& inst) {
  uint32_t w0 = c.w(0), w1 = c.w(1);
  c.consumed = 2;
  const OpInfo* info;
  if (!begin(c, inst, Encoding::VOP3, (w0 >> 16) & 0x3FF, info)) return false;
  apply_mods(c, inst, *info, ModForm::VOP3,
             std::span(kVop3Mods, c.target == Target::Gfx803 ? kVop3ModsGfx8 : std::size(kVop3Mods)));
  if (starts(*info, "v_interp")) {
    // Modifier bits 1 and 2 belong to the printed sources (src1 and src2 fields).
    if (!vector_dst(c, inst, *info, w0 & 0xFF)) return false;
    inst.attr = w1 & 0x3F;
    inst.attr_chan = (w1 >> 6) & 3;
    inst.interp_high = (w1 >> 8) & 1;
    uint16_t s0 = (w1 >> 9) & 0x1FF;
    if (!starts(*info, "v_interp_mov")) {
      if (!check_operand(c, s0, 1, true)) return false;
    }
    inst.src[0] = s0;
    if (info->nsrc >= 2) {
      uint16_t s2 = (w1 >> 18) & 0x1FF;
      if (!check_operand(c, s2, 1, true)) return false;
      inst.src[2] = s2;
    }
    return true;
  }
  bool is_cmp = starts(*info, "v_cmp");
  if (is_cmp) {
    uint16_t sd = w0 & 0xFF;
    if (!check_operand(c, sd, 2, true)) return false;
    inst.sdst = sd;
  } else {
    if (!vector_dst(c, inst, *info, w0 & 0xFF)) return false;
    if (find_role(*info, Role::Sdst) >= 0) {
      uint16_t sd = (w0 >> 8) & 0x7F;
      if (!check_sdst(c, sd, info->sdst_dwords)) return false;
      inst.sdst = sd;
      inst.abs = inst.op_sel = 0;  // VOP3b: bits 14:8 are the scalar destination
    }
  }
  const int shifts[3] = {0, 9, 18};
  for (int k = 0; k < info->nsrc; ++k) {
    uint16_t code = (w1 >> shifts[k]) & 0x1FF;
    if (!check_operand(c, code, info->src_dwords[k], true)) return false;
    inst.src[k] = code;
  }
  if (is_cmp) inst.dst = opcode_field::kNone;
  return true;
}

// A matrix-core (MFMA/SMFMAC) word: D and C are AccVGPRs with acc_cd (bit 15), A and B each with
// its own flag (bits 59, 60); cbsz, abid and blgp sit where packed math keeps its modifiers.
static bool decode_mai(Ctx& c, Inst& inst, const OpInfo& info) {
  const uint32_t w0 = c.w(0), w1 = c.w(1);
  const bool acc_cd = w0 >> 15 & 1;
  inst.cbsz = (w0 >> 8) & 7;
  inst.abid = (w0 >> 11) & 0xF;
  inst.blgp = w1 >> 29;
  if (!check_vgpr(c, w0 & 0xFF, info.dst_dwords)) return false;
  inst.dst = (acc_cd ? kAgprFirst : kVgprFirst) + (w0 & 0xFF);
  const bool sparse = starts(info, "v_smfmac");  // its C is D itself; src2 is the index VGPR
  const bool acc[3] = {bool(w1 >> 27 & 1), bool(w1 >> 28 & 1), acc_cd && !sparse};
  for (int k = 0; k < info.nsrc; ++k) {
    uint16_t code = (w1 >> (9 * k)) & 0x1FF;
    // LLVM has no 1024-bit scalar classes: an SGPR or trap temporary there decodes (and prints)
    // as a 32-bit register, a special one as its 64-bit pair.
    if (code < kVgprFirst && inst.src_dwords[k] > 16) {
      const ScalarSpace sp = scalar_space(c.target);
      const bool plain = code <= kSgprLast || (code >= sp.ttmp_first && code < sp.ttmp_first + sp.ttmp_count);
      inst.src_dwords[k] = plain ? 1 : 2;
    }
    if (!check_operand(c, code, inst.src_dwords[k], false)) return false;
    inst.src[k] = acc[k] && code >= kVgprFirst ? code + (kAgprFirst - kVgprFirst) : code;
  }
  return true;
}

bool decode_vop3p(Ctx& c, Inst& inst) {
  const uint32_t w0 = c.w(0), w1 = c.w(1);
  c.consumed = 2;
  const OpInfo* info;
  if (!begin(c, inst, Encoding::VOP3P, (w0 >> 16) & 0x7F, info)) return false;
  if (starts(*info, "v_mfma") || starts(*info, "v_smfmac")) return decode_mai(c, inst, *info);
  apply_mods(c, inst, *info, ModForm::VOP3P, kVop3pMods);
  if (!vector_dst(c, inst, *info, w0 & 0xFF)) return false;
  for (int k = 0; k < info->nsrc; ++k) {
    uint16_t code = (w1 >> (9 * k)) & 0x1FF;
    if (!check_operand(c, code, info->src_dwords[k], false)) return false;
    inst.src[k] = vector_src(*info, static_cast<Role>(static_cast<int>(Role::Src0) + k), code);
  }
  return true;
}

bool decode_vintrp(Ctx& c, Inst& inst) {
  uint32_t w = c.w(0);
  const OpInfo* info;
  if (!begin(c, inst, Encoding::VINTRP, (w >> 16) & 3, info)) return false;
  inst.dst = kVgprFirst + ((w >> 18) & 0xFF);
  inst.attr = (w >> 10) & 0x3F;
  inst.attr_chan = (w >> 8) & 3;
  if (starts(*info, "v_interp_mov")) {
    inst.src[0] = w & 0xFF;  // parameter select p10/p20/p0
  } else {
    inst.src[0] = kVgprFirst + (w & 0xFF);
  }
  return true;
}

}  // namespace strobe::isa::detail
