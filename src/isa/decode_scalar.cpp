// Scalar encodings: SOP2, SOPK, SOP1, SOPC, SOPP and SMEM.
#include <string_view>

#include "isa/decode_internal.h"

namespace strobe::isa::detail {

using namespace opcode_field;

bool begin(Ctx& c, Inst& inst, Encoding enc, uint16_t opcode, const OpInfo*& info) {
  info = lookup(c.target, enc, opcode);
  if (!info) return false;
  if ((c.w(0) & info->zero_mask[0]) || (c.consumed > 1 && (c.w(1) & info->zero_mask[1]))) return false;
  if ((~c.w(0) & info->one_mask[0]) || (c.consumed > 1 && (~c.w(1) & info->one_mask[1]))) return false;
  inst.enc = enc;
  inst.opcode = opcode;
  inst.op = info->op;
  inst.target = c.target;
  inst.dst_dwords = info->dst_dwords;
  for (int k = 0; k < 3; ++k) inst.src_dwords[k] = info->src_dwords[k];
  return true;
}

namespace {

// Decodes the Src0/Src1 codes given in `codes` in operand order, sharing one literal.
bool scalar_sources(Ctx& c, Inst& inst, const OpInfo& info, const uint16_t* codes) {
  for (int k = 0; k < info.nsrc; ++k) {
    uint16_t code = codes[k];
    if (!check_operand(c, code, info.src_dwords[k], true)) return false;
    inst.src[k] = code;
  }
  return true;
}

bool finish_literal(Ctx& c, Inst& inst) {
  if (c.has_literal) inst.literal = c.literal;
  return true;
}

}  // namespace

bool decode_sop2(Ctx& c, Inst& inst) {
  uint32_t w = c.w(0);
  const OpInfo* info;
  if (!begin(c, inst, Encoding::SOP2, (w >> 23) & 0x7F, info)) return false;
  if (info->has_dst) {
    uint16_t d = (w >> 16) & 0x7F;
    if (!check_sdst(c, d, info->dst_dwords)) return false;
    inst.dst = d;
  }
  uint16_t codes[2] = {static_cast<uint16_t>(w & 0xFF), static_cast<uint16_t>((w >> 8) & 0xFF)};
  if (!scalar_sources(c, inst, *info, codes)) return false;
  return finish_literal(c, inst);
}

bool decode_sop1(Ctx& c, Inst& inst) {
  uint32_t w = c.w(0);
  const OpInfo* info;
  if (!begin(c, inst, Encoding::SOP1, (w >> 8) & 0xFF, info)) return false;
  if (info->has_dst) {
    uint16_t d = (w >> 16) & 0x7F;
    if (!check_sdst(c, d, info->dst_dwords)) return false;
    inst.dst = d;
  }
  uint16_t codes[1] = {static_cast<uint16_t>(w & 0xFF)};
  if (!scalar_sources(c, inst, *info, codes)) return false;
  return finish_literal(c, inst);
}

bool decode_sopc(Ctx& c, Inst& inst) {
  uint32_t w = c.w(0);
  const OpInfo* info;
  if (!begin(c, inst, Encoding::SOPC, (w >> 16) & 0x7F, info)) return false;
  std::string_view m(info->mnemonic);
  if (m == "s_set_gpr_idx_on") {
    // src1 is a 4-bit mode immediate, not an operand code.
    uint16_t code = w & 0xFF;
    if (!check_operand(c, code, 1, true)) return false;
    inst.src[0] = code;
    inst.simm16 = (w >> 8) & 0xFF;
    return finish_literal(c, inst);
  }
  uint16_t codes[2] = {static_cast<uint16_t>(w & 0xFF), static_cast<uint16_t>((w >> 8) & 0xFF)};
  if (!scalar_sources(c, inst, *info, codes)) return false;
  return finish_literal(c, inst);
}

bool decode_sopk(Ctx& c, Inst& inst) {
  uint32_t w = c.w(0);
  const OpInfo* info;
  if (!begin(c, inst, Encoding::SOPK, (w >> 23) & 0x1F, info)) return false;
  std::string_view m(info->mnemonic);
  inst.simm16 = w & 0xFFFF;
  uint16_t reg = (w >> 16) & 0x7F;
  if (m == "s_setreg_imm32_b32") {
    if (c.words.size() < 2) {
      c.note("Error: cannot read literal, inst bytes left 0");
      return false;
    }
    inst.literal = c.words[c.consumed++];
    return true;
  }
  if (m == "s_setreg_b32") {
    if (!check_operand(c, reg, 1, false)) return false;
    inst.src[0] = reg;
    return true;
  }
  unsigned width = m == "s_cbranch_i_fork" || m == "s_call_b64" ? 2 : 1;
  if (!check_sdst(c, reg, width)) return false;
  if (m == "s_cbranch_i_fork") {
    inst.src[0] = reg;
    inst.src_dwords[0] = 2;
  } else {
    inst.dst = reg;
  }
  inst.literal = inst.simm16;
  return true;
}

bool decode_sopp(Ctx& c, Inst& inst) {
  uint32_t w = c.w(0);
  const OpInfo* info;
  if (!begin(c, inst, Encoding::SOPP, (w >> 16) & 0x7F, info)) return false;
  inst.simm16 = w & 0xFFFF;
  return true;
}

namespace {

// gfx9's SMEM: a 21-bit signed offset in the second word's low bits, an SGPR offset in its top
// seven (SOE, bit 14, when both are used; alone when IMM is clear), and discards that name no
// data register.
bool decode_smem_gfx9(Ctx& c, Inst& inst, const OpInfo& info) {
  uint32_t w0 = c.w(0), w1 = c.w(1);
  inst.glc = (w0 >> 16) & 1;
  inst.smem_imm = (w0 >> 17) & 1;
  const bool soe = (w0 >> 14) & 1;
  std::string_view m(info.mnemonic);
  if (info.n == 0) return true;
  int next = 0;  // the sample's operand being decoded
  if (m.starts_with("s_atc_probe")) {
    inst.simm16 = (w0 >> 6) & 0x7F;
    ++next;
  } else if (info.n != 2) {  // every form but the discards has a data register first
    uint16_t d = (w0 >> 6) & 0x7F;
    if (!check_operand(c, d, info.ops[0].dwords, false)) return false;
    // A returning atomic's data is its result and its source: LLVM decodes (and warns) twice.
    if (inst.glc && m.find("atomic") != std::string_view::npos) {
      uint16_t again = (w0 >> 6) & 0x7F;
      check_operand(c, again, info.ops[0].dwords, false);
    }
    inst.dst = d;
    inst.dst_dwords = info.ops[0].dwords;
    ++next;
  }
  if (info.n == 1) return true;  // s_memtime, s_memrealtime
  uint16_t b = static_cast<uint16_t>((w0 & 0x3F) << 1);
  if (!check_operand(c, b, info.ops[next].dwords, false)) return false;
  inst.addr = b;
  inst.src_dwords[0] = info.ops[next].dwords;
  if (inst.smem_imm) inst.offset = static_cast<uint32_t>(static_cast<int32_t>(w1 << 11) >> 11);
  if (!inst.smem_imm || soe) {
    uint16_t so = static_cast<uint16_t>(soe ? w1 >> 25 : w1 & 0x7F);
    if (!check_operand(c, so, 1, false)) return false;
    inst.soffset = so;
  }
  return true;
}

}  // namespace

bool decode_smem(Ctx& c, Inst& inst) {
  uint32_t w0 = c.w(0), w1 = c.w(1);
  c.consumed = 2;
  const OpInfo* info;
  if (!begin(c, inst, Encoding::SMEM, (w0 >> 18) & 0xFF, info)) return false;
  if (c.target == Target::Gfx942) return decode_smem_gfx9(c, inst, *info);
  inst.glc = (w0 >> 16) & 1;
  inst.smem_imm = (w0 >> 17) & 1;
  int di = find_role(*info, Role::Other);
  (void)di;
  // Operand order in the sample: sdata, sbase, offset (s_atc_probe: imm, sbase, offset).
  std::string_view m(info->mnemonic);
  bool probe = m.starts_with("s_atc_probe");
  bool has_sbase = info->n >= 2;
  if (info->n >= 1 && info->ops[0].kind == 's') {
    uint16_t d = (w0 >> 6) & 0x7F;
    if (!check_operand(c, d, info->ops[0].dwords, false)) return false;
    inst.dst = d;
    inst.dst_dwords = info->ops[0].dwords;
  } else if (probe) {
    inst.simm16 = (w0 >> 6) & 0x7F;
  }
  if (has_sbase) {
    uint16_t b = static_cast<uint16_t>((w0 & 0x3F) << 1);
    if (!check_operand(c, b, info->ops[1].dwords, false)) return false;
    inst.addr = b;
    inst.src_dwords[0] = info->ops[1].dwords;
    if (inst.smem_imm) {
      inst.offset = w1 & 0xFFFFF;
    } else {
      uint16_t so = w1 & 0x7F;
      if (!check_operand(c, so, 1, false)) return false;
      inst.soffset = so;
      inst.offset = so;
    }
  }
  return true;
}

}  // namespace strobe::isa::detail
