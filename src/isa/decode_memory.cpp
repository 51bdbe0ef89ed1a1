// Memory and export encodings: DS, FLAT, MUBUF, MTBUF, MIMG and EXP.
#include <bit>
#include <string_view>

#include "isa/decode_internal.h"

namespace strobe::isa::detail {

using namespace opcode_field;

namespace {

bool has(const OpInfo& info, const char* sub) { return std::string_view(info.mnemonic).find(sub) != std::string_view::npos; }

// Vector operand i of the sample (in printed order) checked and stored as 256+n.
bool vreg(Ctx& c, const OpInfo& info, int i, unsigned field, uint16_t& out) {
  if (!check_vgpr(c, field, info.ops[i].dwords)) return false;
  out = kVgprFirst + field;
  return true;
}

}  // namespace

bool ds_has_vdst(const OpInfo& info) {
  return has(info, "rtn") || has(info, "ds_read") || has(info, "swizzle") || has(info, "permute") ||
         has(info, "consume") || has(info, "append") || has(info, "ordered_count");
}

// The two-address forms (offset0/offset1): read2*, write2*, wrxchg2* (not src2_ or condxchg32_).
bool ds_two_offsets(const OpInfo& info) {
  return has(info, "_read2") || has(info, "_write2") || has(info, "_wrxchg2");
}

bool decode_ds(Ctx& c, Inst& inst) {
  uint32_t w0 = c.w(0), w1 = c.w(1);
  c.consumed = 2;
  const OpInfo* info;
  if (!begin(c, inst, Encoding::DS, (w0 >> 17) & 0xFF, info)) return false;
  inst.offset = w0 & 0xFF;
  inst.offset1 = (w0 >> 8) & 0xFF;
  // gfx940 has no GDS (LLVM ignores the bit); bit 25 makes the data and result AccVGPRs.
  const bool gfx9 = c.target != Target::Gfx803;
  inst.gds = gfx9 ? 0 : (w0 >> 16) & 1;
  const uint16_t acc = gfx9 && (w0 >> 25 & 1) ? kAgprFirst - kVgprFirst : 0;
  bool two = ds_two_offsets(*info);
  if (!two) inst.offset = w0 & 0xFFFF;
  int i = 0;
  if (ds_has_vdst(*info) && info->n > 0) {
    if (!vreg(c, *info, 0, w1 >> 24, inst.dst)) return false;
    inst.dst += acc;
    inst.dst_dwords = info->ops[0].dwords;
    i = 1;
  }
  const unsigned fields[3] = {w1 & 0xFF, (w1 >> 8) & 0xFF, (w1 >> 16) & 0xFF};
  uint16_t* slots[3] = {&inst.addr, &inst.data0, &inst.data1};
  // gfx9's ds_write_addtid_b32 has data but no address; the GWS ops' data sits in the
  // address field (and is an AccVGPR with the flag).
  const bool no_addr = gfx9 && std::string_view(info->mnemonic) == "ds_write_addtid_b32";
  const bool gws = gfx9 && has(*info, "ds_gws");
  for (int k = no_addr ? 1 : 0; i < info->n && k < 3 && info->ops[i].kind == 'v'; ++i, ++k) {
    if (!vreg(c, *info, i, fields[k], *slots[k])) return false;
    if (k > 0) inst.src_dwords[k - 1] = info->ops[i].dwords;
    if (k > 0 || gws) *slots[k] += acc;
  }
  return true;
}

// gfx940's FLAT family, segment in bits 15:14 (FLAT, SCRATCH, GLOBAL): cache policy sc0 (16),
// nt (17), sc1 (25); a 13-bit offset, signed outside FLAT; AccVGPR data with w1 bit 23. GLOBAL
// takes a 64-bit VGPR address without an SGPR base (saddr 0x7f is "off"), SCRATCH a 32-bit
// one only with SVE (bit 13).
static bool decode_flat_gfx9(Ctx& c, Inst& inst) {
  const uint32_t w0 = c.w(0), w1 = c.w(1);
  c.consumed = 2;
  const unsigned seg = (w0 >> 14) & 3;
  if (seg == 3) return false;
  const Encoding enc = seg == 0 ? Encoding::FLAT : seg == 1 ? Encoding::SCRATCH : Encoding::GLOBAL;
  const OpInfo* info;
  if (!begin(c, inst, enc, (w0 >> 18) & 0x7F, info)) return false;
  inst.glc = (w0 >> 16) & 1;
  inst.slc = (w0 >> 17) & 1;
  inst.sc1 = (w0 >> 25) & 1;
  inst.offset = enc == Encoding::FLAT ? w0 & 0x1FFF : static_cast<uint32_t>(static_cast<int32_t>(w0 << 19) >> 19);
  const uint16_t acc = (w1 >> 23 & 1) ? kAgprFirst - kVgprFirst : 0;
  const unsigned saddr = (w1 >> 16) & 0x7F;
  inst.saddr = kNone;
  if (enc != Encoding::FLAT && saddr != 0x7F) {
    uint16_t code = static_cast<uint16_t>(saddr);
    if (!check_operand(c, code, enc == Encoding::GLOBAL ? 2 : 1, false)) return false;
    inst.saddr = code;
  }
  // The address: 64-bit unless an SGPR base supplies the high part; SCRATCH's only with SVE.
  inst.addr = kNone;
  const unsigned addr_dwords = enc == Encoding::SCRATCH ? 1 : enc == Encoding::GLOBAL && inst.saddr != kNone ? 1 : 2;
  if (enc != Encoding::SCRATCH || (w0 >> 13 & 1)) {
    if (!check_vgpr(c, w1 & 0xFF, addr_dwords)) return false;
    inst.addr = kVgprFirst + (w1 & 0xFF);
  }
  inst.src_dwords[0] = static_cast<uint8_t>(addr_dwords);
  inst.dst = kNone;
  inst.dst_dwords = 0;
  if (has(*info, "load_lds")) return true;  // LDS is the destination: no data operand
  if (has(*info, "load")) {
    if (!check_vgpr(c, w1 >> 24, info->ops[0].dwords)) return false;
    inst.dst = kVgprFirst + (w1 >> 24) + acc;
    inst.dst_dwords = info->ops[0].dwords;
    return true;
  }
  const unsigned vd = info->ops[1].dwords;
  if (!check_vgpr(c, (w1 >> 8) & 0xFF, vd)) return false;
  inst.data0 = kVgprFirst + ((w1 >> 8) & 0xFF) + acc;
  inst.src_dwords[1] = static_cast<uint8_t>(vd);
  if (has(*info, "atomic") && inst.glc) {
    // The returning form: as wide as the data, but cmpswap returns half.
    const unsigned d = has(*info, "cmpswap") ? vd / 2 : vd;
    if (!check_vgpr(c, w1 >> 24, d)) return false;
    inst.dst = kVgprFirst + (w1 >> 24) + acc;
    inst.dst_dwords = static_cast<uint8_t>(d);
  }
  return true;
}

bool decode_flat(Ctx& c, Inst& inst) {
  if (c.target != Target::Gfx803) return decode_flat_gfx9(c, inst);
  uint32_t w0 = c.w(0), w1 = c.w(1);
  c.consumed = 2;
  const OpInfo* info;
  if (!begin(c, inst, Encoding::FLAT, (w0 >> 18) & 0x7F, info)) return false;
  inst.glc = (w0 >> 16) & 1;
  inst.slc = (w0 >> 17) & 1;
  // LLVM 14 decodes gfx803 FLAT words with the gfx9 layout: a 13-bit unsigned offset, no tfe.
  inst.offset = w0 & 0x1FFF;
  bool load = has(*info, "load");
  bool atomic = has(*info, "atomic");
  // Sample order: loads "vdst, vaddr"; stores and atomics "vaddr, vdata".
  if (load) {
    if (!vreg(c, *info, 0, w1 >> 24, inst.dst)) return false;
    inst.dst_dwords = info->ops[0].dwords;
    if (!vreg(c, *info, 1, w1 & 0xFF, inst.addr)) return false;
    inst.src_dwords[0] = info->ops[1].dwords;
    return true;
  }
  if (!vreg(c, *info, 0, w1 & 0xFF, inst.addr)) return false;
  inst.src_dwords[0] = info->ops[0].dwords;
  if (!vreg(c, *info, 1, (w1 >> 8) & 0xFF, inst.data0)) return false;
  inst.src_dwords[1] = info->ops[1].dwords;
  if (atomic && inst.glc) {
    // The returning form: vdst as wide as the data, except cmpswap returns half.
    unsigned d = has(*info, "cmpswap") ? info->ops[1].dwords / 2 : info->ops[1].dwords;
    if (!check_vgpr(c, w1 >> 24, d)) return false;
    inst.dst = kVgprFirst + (w1 >> 24);
    inst.dst_dwords = static_cast<uint8_t>(d);
  } else {
    inst.dst = kNone;
    inst.dst_dwords = 0;
  }
  return true;
}

// MUBUF and MTBUF share the operand layout: vdata, vaddr, srsrc, soffset.
static bool buffer_operands(Ctx& c, Inst& inst, const OpInfo& info) {
  uint32_t w1 = c.w(1);
  if (info.n == 0) return true;
  if (info.ops[0].kind == 's') {
    // buffer_store_lds_dword: no vdata or vaddr, only srsrc and soffset (LDS supplies the data).
    inst.tfe = 0;
    inst.dst_dwords = 0;
    uint16_t rsrc = static_cast<uint16_t>(((w1 >> 16) & 0x1F) << 2);
    if (!check_operand(c, rsrc, 4, false)) return false;
    inst.srsrc = rsrc;
    uint16_t so = (w1 >> 24) & 0xFF;
    if (!check_operand(c, so, 1, false)) return false;
    inst.soffset = so;
    return true;
  }
  unsigned vaddr_dwords = (inst.offen && inst.idxen) ? 2 : 1;
  bool atomic = has(info, "atomic");
  bool store = has(info, "store");
  const bool gfx9 = c.target != Target::Gfx803;
  unsigned vd = info.ops[0].dwords;
  if (gfx9 && inst.lds) {
    // gfx940's LDS loads name no data register, so they have no AccVGPR flag either.
    if (w1 >> 23 & 1) return false;
    inst.dst_dwords = 0;
    vd = 0;
  } else if (!check_vgpr(c, (w1 >> 8) & 0xFF, vd)) {
    return false;
  }
  // gfx940 makes the data AccVGPRs with bit 23 (gfx8's tfe).
  uint16_t vdata = kVgprFirst + ((w1 >> 8) & 0xFF) + (gfx9 && (w1 >> 23 & 1) ? kAgprFirst - kVgprFirst : 0);
  if (store || atomic) {
    inst.data0 = vdata;
    inst.src_dwords[1] = static_cast<uint8_t>(vd);
    if (atomic && inst.glc) {
      inst.dst = vdata;
      inst.dst_dwords = static_cast<uint8_t>(has(info, "cmpswap") ? vd / 2 : vd);
    } else {
      inst.dst_dwords = 0;
    }
  } else if (vd) {
    inst.dst = vdata;
    inst.dst_dwords = static_cast<uint8_t>(vd);
  }
  if (inst.offen || inst.idxen) {
    if (!check_vgpr(c, w1 & 0xFF, vaddr_dwords)) return false;
    inst.addr = kVgprFirst + (w1 & 0xFF);
    inst.src_dwords[0] = static_cast<uint8_t>(vaddr_dwords);
  }
  uint16_t rsrc = static_cast<uint16_t>(((w1 >> 16) & 0x1F) << 2);
  if (!check_operand(c, rsrc, 4, false)) return false;
  inst.srsrc = rsrc;
  uint16_t so = (w1 >> 24) & 0xFF;
  if (!check_operand(c, so, 1, false)) return false;
  inst.soffset = so;
  return true;
}

bool decode_mubuf(Ctx& c, Inst& inst) {
  uint32_t w0 = c.w(0), w1 = c.w(1);
  c.consumed = 2;
  const OpInfo* info;
  if (!begin(c, inst, Encoding::MUBUF, (w0 >> 18) & 0x7F, info)) return false;
  inst.offset = w0 & 0xFFF;
  inst.offen = (w0 >> 12) & 1;
  inst.idxen = (w0 >> 13) & 1;
  inst.glc = (w0 >> 14) & 1;
  inst.lds = (w0 >> 16) & 1;
  inst.slc = (w0 >> 17) & 1;
  // The LDS and atomic forms have no tfe operand, and gfx940 none at all (bit 15 is its sc1).
  if (c.target == Target::Gfx803) inst.tfe = (inst.lds || has(*info, "atomic")) ? 0 : (w1 >> 23) & 1;
  else inst.sc1 = (w0 >> 15) & 1;
  return buffer_operands(c, inst, *info);
}

bool decode_mtbuf(Ctx& c, Inst& inst) {
  uint32_t w0 = c.w(0), w1 = c.w(1);
  c.consumed = 2;
  const OpInfo* info;
  if (!begin(c, inst, Encoding::MTBUF, (w0 >> 15) & 0xF, info)) return false;
  inst.offset = w0 & 0xFFF;
  inst.offen = (w0 >> 12) & 1;
  inst.idxen = (w0 >> 13) & 1;
  inst.glc = (w0 >> 14) & 1;
  inst.dfmt = (w0 >> 19) & 0xF;
  inst.nfmt = (w0 >> 23) & 7;
  inst.slc = (w1 >> 22) & 1;
  // gfx940: bit 21 is sc1, bit 23 the AccVGPR flag (no tfe).
  if (c.target == Target::Gfx803) inst.tfe = (w1 >> 23) & 1;
  else inst.sc1 = (w1 >> 21) & 1;
  return buffer_operands(c, inst, *info);
}

// The data width LLVM's convertMIMGInst settles on: dmask channels (gather4: 4) plus tfe, if
// the opcode has a variant that wide (atomics: 1x or 2x the default) and the tuple fits in
// v0..v255; otherwise the default width of the opcode stays.
static unsigned mimg_data_dwords(const OpInfo& info, const Inst& inst, unsigned vdata) {
  unsigned def = info.ops[0].dwords;
  unsigned dm = std::popcount(static_cast<unsigned>(inst.dmask));
  unsigned want = has(info, "gather4") ? 4 : (dm == 0 ? 1 : dm);
  if (inst.tfe) want += 1;
  bool exists = has(info, "atomic") ? (want == def || want == 2 * def) : want <= 5;
  if (!exists || vdata + want - 1 > 255) return def;
  return want;
}

bool decode_mimg(Ctx& c, Inst& inst) {
  uint32_t w0 = c.w(0), w1 = c.w(1);
  c.consumed = 2;
  const OpInfo* info;
  // The opcode is 8 bits: bit 7 is bit 0 of the word.
  if (!begin(c, inst, Encoding::MIMG, ((w0 >> 18) & 0x7F) | (w0 & 1) << 7, info)) return false;
  inst.dmask = (w0 >> 8) & 0xF;
  inst.unorm = (w0 >> 12) & 1;
  inst.glc = (w0 >> 13) & 1;
  inst.da = (w0 >> 14) & 1;
  inst.r128 = (w0 >> 15) & 1;
  inst.tfe = (w0 >> 16) & 1;
  inst.lwe = (w0 >> 17) & 1;
  inst.slc = (w0 >> 25) & 1;
  inst.d16 = (w1 >> 31) & 1;
  bool atomic = has(*info, "atomic");
  unsigned vdata_field = (w1 >> 8) & 0xFF;
  // LLVM decodes vdata with the opcode's default register class, then widens it.
  if (!check_vgpr(c, vdata_field, info->ops[0].dwords)) return false;
  unsigned vd = mimg_data_dwords(*info, inst, vdata_field);
  uint16_t vdata = kVgprFirst + vdata_field;
  bool store = has(*info, "store");
  if (store || atomic) {
    inst.data0 = vdata;
    inst.src_dwords[1] = static_cast<uint8_t>(vd);
    if (atomic && inst.glc) inst.dst = vdata;
  } else {
    inst.dst = vdata;
  }
  inst.dst_dwords = static_cast<uint8_t>(vd);
  if (!check_vgpr(c, w1 & 0xFF, info->ops[1].dwords)) return false;
  inst.addr = kVgprFirst + (w1 & 0xFF);
  inst.src_dwords[0] = info->ops[1].dwords;
  uint16_t rsrc = static_cast<uint16_t>(((w1 >> 16) & 0x1F) << 2);
  if (!check_operand(c, rsrc, 8, false)) return false;
  inst.srsrc = rsrc;
  if (info->n >= 4 && info->ops[3].kind == 's') {
    uint16_t samp = static_cast<uint16_t>(((w1 >> 21) & 0x1F) << 2);
    if (!check_operand(c, samp, 4, false)) return false;
    inst.ssamp = samp;
  }
  return true;
}

bool decode_exp(Ctx& c, Inst& inst) {
  uint32_t w0 = c.w(0), w1 = c.w(1);
  c.consumed = 2;
  const OpInfo* info;
  if (!begin(c, inst, Encoding::EXP, 0, info)) return false;
  inst.exp_en = w0 & 0xF;
  inst.exp_target = (w0 >> 4) & 0x3F;
  inst.exp_compr = (w0 >> 10) & 1;
  inst.exp_done = (w0 >> 11) & 1;
  inst.exp_vm = (w0 >> 12) & 1;
  inst.src[0] = kVgprFirst + (w1 & 0xFF);
  inst.src[1] = kVgprFirst + ((w1 >> 8) & 0xFF);
  inst.src[2] = kVgprFirst + ((w1 >> 16) & 0xFF);
  inst.exp_src3 = kVgprFirst + ((w1 >> 24) & 0xFF);
  return true;
}

}  // namespace strobe::isa::detail
