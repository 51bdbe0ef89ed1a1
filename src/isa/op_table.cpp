// Builds each target's per-(encoding, opcode) signature table from its generated opcodes.def rows.
// The sample texts are LLVM's own rendering of each opcode, so the register widths they show
// (v[0:1], s[0:3], ...) are the operand widths; parsing them keeps widths out of hand-written code.
#include "isa/op_table.h"

#include <array>
#include <cstring>
#include <span>
#include <string_view>

namespace strobe::isa::detail {
namespace {

struct Row {
  Encoding enc;
  uint16_t opcode;
  const char* mnemonic;
  Op op;
  const char* sample;
};

struct FixedRow {
  Encoding enc;
  uint16_t opcode;
  uint32_t mask[2];
  uint32_t ones[2];
};

struct ExtRow {
  Encoding enc;
  VopExt ext;
  uint16_t opcode;
  uint32_t mask[2];
  uint32_t ones;  ///< second-dword bits that must be one (gfx940's fp8 SDWA: dst_sel DWORD)
};

struct RegOnlyRow {
  Encoding enc;
  uint16_t opcode;
  uint8_t mask;
};

struct ModsRow {
  Encoding enc;
  ModForm form;
  uint16_t opcode;
  const char* effects;
};

struct ClassMarkRow {
  Encoding enc;
  uint16_t opcode;
  uint8_t src;
  char kind;  ///< 's' an SGPR, 'v' a VGPR is outside the source's class
  const char* reg_class;
};

struct ImmRow {
  Encoding enc;
  uint16_t opcode;
  uint8_t src;
  ImmType type;
};

namespace gfx803 {
#define STROBE_OPCODES_DEF "isa/opcodes.def"
#define STROBE_FIXED_BITS_DEF "isa/fixed_bits.def"
#define STROBE_OPERAND_PROBES_DEF "isa/operand_probes.def"
#include "isa/target_rows.inc"
#undef STROBE_OPCODES_DEF
#undef STROBE_FIXED_BITS_DEF
#undef STROBE_OPERAND_PROBES_DEF
}  // namespace gfx803

namespace gfx942 {
#define STROBE_OPCODES_DEF "isa/gfx942/opcodes.def"
#define STROBE_FIXED_BITS_DEF "isa/gfx942/fixed_bits.def"
#define STROBE_OPERAND_PROBES_DEF "isa/gfx942/operand_probes.def"
#include "isa/target_rows.inc"
#undef STROBE_OPCODES_DEF
#undef STROBE_FIXED_BITS_DEF
#undef STROBE_OPERAND_PROBES_DEF
}  // namespace gfx942

/// One target's generated rows.
struct TargetRows {
  std::span<const Row> rows;
  std::span<const FixedRow> fixed;
  std::span<const ExtRow> ext;
  std::span<const RegOnlyRow> regonly;
  std::span<const ModsRow> mods;
  std::span<const ClassMarkRow> class_mark;
  std::span<const ImmRow> imm;
};

constexpr size_t kEncCount = static_cast<size_t>(Encoding::Invalid);
constexpr size_t kMaxOpcode = 1024;

// Splits the operand list at top-level ", " (hwreg(a, b, c) stays one token).
int split_operands(std::string_view text, std::string_view out[8]) {
  size_t sp = text.find(' ');
  if (sp == std::string_view::npos) return 0;
  text.remove_prefix(sp + 1);
  int n = 0, depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
    if (c == ',' && depth == 0) {
      if (n < 8) out[n++] = text.substr(start, i - start);
      start = i + 2;
    }
  }
  if (n < 8) out[n++] = text.substr(start);
  return n;
}

// Width of "v7", "s[0:3]", "v[0:1]"; kind from the first letter.
SigOperand classify(std::string_view tok) {
  SigOperand s;
  if (tok.starts_with("vcc")) {
    s.kind = 'c';
    s.dwords = 2;
    return s;
  }
  if ((tok[0] == 'v' || tok[0] == 's' || tok[0] == 'a') && tok.size() > 1 && (tok[1] == '[' || (tok[1] >= '0' && tok[1] <= '9'))) {
    s.kind = tok[0];
    if (tok[1] == '[') {
      unsigned lo = 0, hi = 0;
      size_t i = 2;
      while (tok[i] != ':') lo = lo * 10 + (tok[i++] - '0');
      ++i;
      while (tok[i] != ']') hi = hi * 10 + (tok[i++] - '0');
      s.dwords = static_cast<uint8_t>(hi - lo + 1);
    }
    return s;
  }
  if ((tok[0] >= '0' && tok[0] <= '9') || tok[0] == '-') {
    s.kind = 'i';
    return s;
  }
  s.kind = 'o';
  return s;
}

// Assigns roles to the parsed tokens according to how each encoding orders its operands.
void assign_roles(Encoding enc, OpInfo& info) {
  auto& o = info.ops;
  int n = info.n;
  auto srcs_from = [&](int first) {
    int k = 0;
    for (int i = first; i < n && k < 3; ++i) {
      if (o[i].kind == 'c') {
        o[i].role = Role::Vcc;
        continue;
      }
      if (o[i].kind == 'o' && std::strstr(info.mnemonic, "interp")) {
        o[i].role = Role::Attr;
        continue;
      }
      o[i].role = static_cast<Role>(static_cast<int>(Role::Src0) + k++);
    }
  };
  std::string_view m(info.mnemonic);
  switch (enc) {
    case Encoding::SOP2:
      if (n == 3) { o[0].role = Role::Dst; srcs_from(1); } else srcs_from(0);
      break;
    case Encoding::SOP1:
      if (n == 2) { o[0].role = Role::Dst; srcs_from(1); }
      else if (n == 1 && m == "s_getpc_b64") o[0].role = Role::Dst;
      else srcs_from(0);
      break;
    case Encoding::SOPC:
      srcs_from(0);
      break;
    case Encoding::VOP1:
    case Encoding::VOP2:
      if (n > 0) { o[0].role = Role::Dst; srcs_from(1); }
      if (m.starts_with("v_madmk") || m.starts_with("v_fmamk")) o[2].role = Role::LitK, o[3].role = Role::Src1;
      if (m.starts_with("v_madak") || m.starts_with("v_fmaak")) o[3].role = Role::LitK;
      break;
    case Encoding::VOPC:
      o[0].role = Role::Vcc;
      srcs_from(1);
      break;
    case Encoding::VOP3P:
      if (n > 0) { o[0].role = Role::Dst; srcs_from(1); }
      break;
    case Encoding::VOP3:
      if (n == 0) break;
      if (m.starts_with("v_cmp")) { o[0].role = Role::Sdst; srcs_from(1); break; }
      o[0].role = Role::Dst;
      if (n >= 4 && o[1].kind == 's' && o[0].kind == 'v' && !m.starts_with("v_interp")) {
        o[1].role = Role::Sdst;
        srcs_from(2);
      } else {
        srcs_from(1);
      }
      break;
    default:
      break;
  }
}

struct Table {
  std::array<std::array<OpInfo, kMaxOpcode>, kEncCount> by_enc{};
  std::array<std::array<bool, kMaxOpcode>, kEncCount> present{};

  explicit Table(const TargetRows& t) {
    build_rows(t.rows);
    for (const FixedRow& f : t.fixed) {
      OpInfo& info = by_enc[static_cast<size_t>(f.enc)][f.opcode];
      info.zero_mask[0] = f.mask[0];
      info.zero_mask[1] = f.mask[1];
      info.one_mask[0] = f.ones[0];
      info.one_mask[1] = f.ones[1];
    }
    for (const RegOnlyRow& r : t.regonly) by_enc[static_cast<size_t>(r.enc)][r.opcode].regonly = r.mask;
    for (const ModsRow& r : t.mods) by_enc[static_cast<size_t>(r.enc)][r.opcode].mods[static_cast<int>(r.form)] = r.effects;
    for (const ClassMarkRow& r : t.class_mark) {
      if (r.enc == Encoding::Invalid) continue;
      OpInfo& info = by_enc[static_cast<size_t>(r.enc)][r.opcode];
      (r.kind == 's' ? info.sgpr_class : info.vgpr_class)[r.src] = r.reg_class;
    }
    for (const ImmRow& r : t.imm) by_enc[static_cast<size_t>(r.enc)][r.opcode].imm[r.src] = r.type;
    for (const ExtRow& x : t.ext) {
      OpInfo& info = by_enc[static_cast<size_t>(x.enc)][x.opcode];
      bool sdwa = x.ext == VopExt::SDWA;
      (sdwa ? info.has_sdwa : info.has_dpp) = true;
      uint32_t* m = sdwa ? info.sdwa_mask : info.dpp_mask;
      m[0] = x.mask[0];
      m[1] = x.mask[1];
      if (sdwa) info.sdwa_ones = x.ones;
    }
  }

  void build_rows(std::span<const Row> rows) {
    for (const Row& r : rows) {
      OpInfo& info = by_enc[static_cast<size_t>(r.enc)][r.opcode];
      present[static_cast<size_t>(r.enc)][r.opcode] = true;
      info.mnemonic = r.mnemonic;
      info.sample = r.sample;
      info.op = r.op;
      std::string_view toks[8];
      int n = split_operands(r.sample, toks);
      info.n = static_cast<uint8_t>(n > 6 ? 6 : n);
      for (int i = 0; i < info.n; ++i) info.ops[i] = classify(toks[i]);
      assign_roles(r.enc, info);
      for (int i = 0; i < info.n; ++i) {
        const SigOperand& s = info.ops[i];
        switch (s.role) {
          case Role::Dst: info.has_dst = true; info.dst_dwords = s.dwords; break;
          case Role::Sdst: info.sdst_dwords = s.dwords; break;
          case Role::Src0: case Role::Src1: case Role::Src2: {
            int k = static_cast<int>(s.role) - static_cast<int>(Role::Src0);
            info.src_dwords[k] = s.dwords;
            if (k + 1 > info.nsrc) info.nsrc = static_cast<uint8_t>(k + 1);
            break;
          }
          default: break;
        }
      }
      // Until operand_probes.def says otherwise (STROBE_IMM): a 64-bit or a 32-bit value.
      for (int k = 0; k < 3; ++k) info.imm[k] = info.src_dwords[k] == 2 ? ImmType::B64 : ImmType::B32;
    }
  }
};

const Table& table(Target target) {
  if (target == Target::Gfx942) {
    static const Table t942(TargetRows{gfx942::kRows, gfx942::kFixed, gfx942::kExt, gfx942::kRegOnly, gfx942::kMods,
                                        gfx942::kClassMark, gfx942::kImm});
    return t942;
  }
  static const Table t803(TargetRows{gfx803::kRows, gfx803::kFixed, gfx803::kExt, gfx803::kRegOnly, gfx803::kMods,
                                        gfx803::kClassMark, gfx803::kImm});
  return t803;
}

}  // namespace

const OpInfo* lookup(Target target, Encoding enc, uint16_t opcode) {
  if (enc == Encoding::Invalid || opcode >= kMaxOpcode) return nullptr;
  const Table& t = table(target);
  size_t e = static_cast<size_t>(enc);
  return t.present[e][opcode] ? &t.by_enc[e][opcode] : nullptr;
}

char mod_effect(const OpInfo& info, ModForm form, int i) {
  const char* e = info.mods[static_cast<int>(form)];
  if (!e) return '*';
  for (int k = 0; k < i; ++k)
    if (!e[k]) return '*';
  return e[i] ? e[i] : '*';
}

int find_role(const OpInfo& info, Role role) {
  for (int i = 0; i < info.n; ++i)
    if (info.ops[i].role == role) return i;
  return -1;
}

}  // namespace strobe::isa::detail
