// Memory and export operand text: DS offsets and swizzle(), buffer/flat/image flags, MTBUF
// format:[...] names, EXP targets.
#include <bit>
#include <string>
#include <string_view>

#include "isa/print_internal.h"

namespace strobe::isa::detail {

bool ds_has_vdst(const OpInfo& info);
bool ds_two_offsets(const OpInfo& info);

namespace {

using namespace opcode_field;

std::string swizzle(uint16_t imm) {
  if (imm == 0) return "";
  std::string s = " offset:";
  if ((imm & 0xFF00) == 0x8000) {
    s += "swizzle(QUAD_PERM";
    for (int i = 0; i < 4; ++i, imm >>= 2) s += "," + std::to_string(imm & 3);
    return s + ")";
  }
  if ((imm & 0x8000) == 0) {
    unsigned and_m = imm & 0x1F, or_m = (imm >> 5) & 0x1F, xor_m = (imm >> 10) & 0x1F;
    if (and_m == 0x1F && or_m == 0 && std::popcount(xor_m) == 1)
      return s + "swizzle(SWAP," + std::to_string(xor_m) + ")";
    if (and_m == 0x1F && or_m == 0 && xor_m > 0 && std::has_single_bit(xor_m + 1))
      return s + "swizzle(REVERSE," + std::to_string(xor_m + 1) + ")";
    unsigned group = 0x1F - and_m + 1;
    if (group > 1 && std::has_single_bit(group) && or_m < group && xor_m == 0)
      return s + "swizzle(BROADCAST," + std::to_string(group) + "," + std::to_string(or_m) + ")";
    unsigned p0 = ((0 & and_m) | or_m) ^ xor_m, p1 = ((0x1F & and_m) | or_m) ^ xor_m;
    s += "swizzle(BITMASK_PERM,\"";
    for (unsigned mask = 0x10; mask > 0; mask >>= 1) {
      bool a = p0 & mask, b = p1 & mask;
      s += a && b ? '1' : !a && !b ? '0' : !a && b ? 'p' : 'i';
    }
    return s + "\")";
  }
  return s + std::to_string(imm);
}

const char* kDfmt[] = {"BUF_DATA_FORMAT_INVALID", "BUF_DATA_FORMAT_8", "BUF_DATA_FORMAT_16",
                       "BUF_DATA_FORMAT_8_8", "BUF_DATA_FORMAT_32", "BUF_DATA_FORMAT_16_16",
                       "BUF_DATA_FORMAT_10_11_11", "BUF_DATA_FORMAT_11_11_10", "BUF_DATA_FORMAT_10_10_10_2",
                       "BUF_DATA_FORMAT_2_10_10_10", "BUF_DATA_FORMAT_8_8_8_8", "BUF_DATA_FORMAT_32_32",
                       "BUF_DATA_FORMAT_16_16_16_16", "BUF_DATA_FORMAT_32_32_32", "BUF_DATA_FORMAT_32_32_32_32",
                       "BUF_DATA_FORMAT_RESERVED_15"};
const char* kNfmt[] = {"BUF_NUM_FORMAT_UNORM", "BUF_NUM_FORMAT_SNORM", "BUF_NUM_FORMAT_USCALED",
                       "BUF_NUM_FORMAT_SSCALED", "BUF_NUM_FORMAT_UINT", "BUF_NUM_FORMAT_SINT",
                       "BUF_NUM_FORMAT_RESERVED_6", "BUF_NUM_FORMAT_FLOAT"};

std::string exp_target(unsigned t) {
  if (t <= 7) return "mrt" + std::to_string(t);
  if (t == 8) return "mrtz";
  if (t == 9) return "null";
  if (t >= 12 && t <= 15) return "pos" + std::to_string(t - 12);
  if (t >= 32) return "param" + std::to_string(t - 32);
  return "invalid_target_" + std::to_string(t);
}

std::string vreg(uint16_t code, unsigned dwords) { return vector_reg_name(code, dwords); }

// The cache-policy bits: gfx8's glc/slc, gfx940's sc0/nt/sc1.
std::string cache_policy(const Inst& inst) {
  std::string s;
  if (inst.target == Target::Gfx803) {
    if (inst.glc) s += " glc";
    if (inst.slc) s += " slc";
    return s;
  }
  if (inst.glc) s += " sc0";
  if (inst.slc) s += " nt";
  if (inst.sc1) s += " sc1";
  return s;
}

// A buffer's soffset; LLVM 19 marks lds_direct, which the scalar operand cannot hold.
std::string soffset_text(const Inst& inst) {
  std::string t = src_text(inst.target, inst.soffset, 1, ImmType::B32, 0);
  if (inst.target != Target::Gfx803 && inst.soffset == kLdsDirect) t = invalid_register(t, "SReg_32");
  return t;
}

// A buffer resource: LLVM 19 marks a special register (xnack_mask ...) outside SReg_128.
std::string rsrc_text(const Inst& inst) {
  std::string t = reg_name(inst.target, inst.srsrc, 4);
  const ScalarSpace sp = scalar_space(inst.target);
  const bool plain = inst.srsrc <= kSgprLast || (inst.srsrc >= sp.ttmp_first && inst.srsrc < sp.ttmp_first + sp.ttmp_count);
  return inst.target != Target::Gfx803 && !plain ? invalid_register(t, "SReg_128") : t;
}

// gfx940's FLAT, SCRATCH and GLOBAL operands: [vdst,] address (or off), [vdata,] then the SGPR
// base (or off) outside FLAT, a signed offset there, and the cache policy.
std::string flat_gfx9(const Inst& inst, std::string_view m) {
  std::string s;
  if (inst.dst != kNone) s = vreg(inst.dst, inst.dst_dwords) + ", ";
  s += inst.addr == kNone ? "off" : vreg(inst.addr, inst.src_dwords[0]);
  const bool data = m.find("store") != std::string_view::npos || m.find("atomic") != std::string_view::npos;
  if (data) s += ", " + vreg(inst.data0, inst.src_dwords[1]);
  if (inst.enc != Encoding::FLAT)
    s += ", " + (inst.saddr == kNone ? std::string("off") : reg_name(inst.target, inst.saddr, inst.enc == Encoding::GLOBAL ? 2 : 1));
  if (inst.offset) s += " offset:" + std::to_string(static_cast<int32_t>(inst.offset));
  return s + cache_policy(inst);
}

std::string buffer(const Inst& inst, const OpInfo& info, bool typed) {
  std::string_view m(info.mnemonic);
  if (info.n == 0) {
    // buffer_wbl2 and buffer_inv take gfx940's scope bits alone; gfx8's cache ops print nothing.
    if (inst.target == Target::Gfx803) return "";
    return std::string(inst.glc ? " sc0" : "") + (inst.sc1 ? " sc1" : "");
  }
  if (info.ops[0].kind == 's') {
    // buffer_store_lds_dword: LLVM's asm string puts lds right after the offset.
    std::string s = rsrc_text(inst) + ", " + soffset_text(inst);
    if (inst.offset) s += " offset:" + std::to_string(inst.offset);
    return s + " lds" + cache_policy(inst);
  }
  bool store_or_atomic = m.find("store") != std::string_view::npos || m.find("atomic") != std::string_view::npos;
  uint16_t vdata = store_or_atomic ? inst.data0 : inst.dst;
  unsigned vd = store_or_atomic ? inst.src_dwords[1] : inst.dst_dwords;
  const bool gfx9 = inst.target != Target::Gfx803;
  // gfx940's LDS loads name no data register.
  std::string s = gfx9 && inst.lds ? "" : vreg(vdata, vd) + ", ";
  s += (inst.offen || inst.idxen) ? vreg(inst.addr, inst.src_dwords[0]) : "off";
  s += ", " + rsrc_text(inst) + ", " + soffset_text(inst);
  if (typed && !(inst.dfmt == 1 && inst.nfmt == 0)) {
    s += " format:[";
    if (inst.dfmt != 1) s += kDfmt[inst.dfmt];
    if (inst.dfmt != 1 && inst.nfmt != 0) s += ",";
    if (inst.nfmt != 0) s += kNfmt[inst.nfmt];
    s += "]";
  }
  if (inst.idxen) s += " idxen";
  if (inst.offen) s += " offen";
  if (inst.offset) s += " offset:" + std::to_string(inst.offset);
  s += cache_policy(inst);
  if (inst.lds) s += " lds";
  if (inst.tfe) s += " tfe";
  return s;
}

}  // namespace

std::string print_memory(const Inst& inst, const OpInfo& info) {
  std::string_view m(info.mnemonic);
  switch (inst.enc) {
    case Encoding::DS: {
      std::string s;
      int i = 0;
      if (ds_has_vdst(info) && info.n > 0) {
        s = vreg(inst.dst, inst.dst_dwords);
        i = 1;
      }
      const uint16_t slots[3] = {inst.addr, inst.data0, inst.data1};
      const bool gfx9 = inst.target != Target::Gfx803;
      for (int k = gfx9 && m == "ds_write_addtid_b32" ? 1 : 0; i < info.n && k < 3 && info.ops[i].kind == 'v'; ++i, ++k)
        s += (s.empty() ? "" : ", ") + vreg(slots[k], info.ops[i].dwords);
      bool two = ds_two_offsets(info);
      if (m == "ds_swizzle_b32") {
        s += swizzle(static_cast<uint16_t>(inst.offset));
      } else if (two) {
        if (inst.offset) s += " offset0:" + std::to_string(inst.offset);
        if (inst.offset1) s += " offset1:" + std::to_string(inst.offset1);
      } else if (inst.offset) {
        s += " offset:" + std::to_string(inst.offset);
      }
      // gfx940 has no gds bit, but its GWS operations print the word anyway.
      if (inst.gds || (gfx9 && m.starts_with("ds_gws"))) s += " gds";
      return s;
    }
    case Encoding::SCRATCH:
    case Encoding::GLOBAL:
      return flat_gfx9(inst, m);
    case Encoding::FLAT: {
      if (inst.target != Target::Gfx803) return flat_gfx9(inst, m);
      std::string s;
      if (m.find("load") != std::string_view::npos) {
        s = vreg(inst.dst, inst.dst_dwords) + ", " + vreg(inst.addr, inst.src_dwords[0]);
      } else {
        if (inst.dst != kNone) s = vreg(inst.dst, inst.dst_dwords) + ", ";
        s += vreg(inst.addr, inst.src_dwords[0]) + ", " + vreg(inst.data0, inst.src_dwords[1]);
      }
      if (inst.offset) s += " offset:" + std::to_string(inst.offset);
      if (inst.glc) s += " glc";
      if (inst.slc) s += " slc";
      return s;
    }
    case Encoding::MUBUF:
      return buffer(inst, info, false);
    case Encoding::MTBUF:
      return buffer(inst, info, true);
    case Encoding::MIMG: {
      bool sd = m.find("store") != std::string_view::npos || m.find("atomic") != std::string_view::npos;
      std::string s = vreg(sd ? inst.data0 : inst.dst, inst.dst_dwords) + ", " + vreg(inst.addr, inst.src_dwords[0]) +
                      ", " + reg_name(inst.target, inst.srsrc, 8);
      if (inst.ssamp != kNone) s += ", " + reg_name(inst.target, inst.ssamp, 4);
      if (inst.dmask) s += " dmask:" + hex(inst.dmask);
      if (inst.unorm) s += " unorm";
      if (inst.glc) s += " glc";
      if (inst.slc) s += " slc";
      if (inst.r128) s += " r128";
      if (inst.tfe) s += " tfe";
      if (inst.lwe) s += " lwe";
      if (inst.da) s += " da";
      if (inst.d16) s += " d16";
      return s;
    }
    case Encoding::EXP: {
      std::string s = exp_target(inst.exp_target);
      const uint16_t srcs[4] = {inst.src[0], inst.src[1], inst.src[2], inst.exp_src3};
      for (int n = 0; n < 4; ++n) {
        int k = inst.exp_compr ? n / 2 : n;
        s += (n == 0 ? " " : ", ");
        s += (inst.exp_en >> n & 1) ? vreg(srcs[k], 1) : "off";
      }
      if (inst.exp_done) s += " done";
      if (inst.exp_compr) s += " compr";
      if (inst.exp_vm) s += " vm";
      return s;
    }
    default:
      return "";
  }
}

}  // namespace strobe::isa::detail
