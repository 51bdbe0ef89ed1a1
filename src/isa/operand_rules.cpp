// The operand validity rules of LLVM 14's gfx8 disassembler. These decide acceptance as much as
// the fixed bits do: e.g. code 209 or an odd 64-bit special register makes LLVM print .long.
#include <string>

#include "isa/decode_internal.h"

namespace strobe::isa::detail {
namespace {

using namespace opcode_field;

// Number of registers in LLVM's tuple class of `dwords` width built from `total` 32-bit registers.
unsigned tuple_count(unsigned total, unsigned dwords, unsigned stride) {
  if (dwords > total) return 0;
  return (total - dwords) / stride + 1;
}

unsigned sgpr_stride(unsigned dwords) { return dwords == 1 ? 1 : dwords == 2 ? 2 : 4; }

}  // namespace

const char* class_name(char kind, unsigned dwords) {
  switch (kind) {
    case 's':
      switch (dwords) {
        case 1: return "SGPR_32";
        case 2: return "SGPR_64";
        case 3: return "SGPR_96";
        case 4: return "SGPR_128";
        case 8: return "SGPR_256";
        default: return "SGPR_512";
      }
    case 't':
      switch (dwords) {
        case 1: return "TTMP_32";
        case 2: return "TTMP_64";
        case 4: return "TTMP_128";
        case 8: return "TTMP_256";
        default: return "TTMP_512";
      }
    default:
      switch (dwords) {
        case 1: return "VGPR_32";
        case 2: return "VReg_64";
        case 3: return "VReg_96";
        case 4: return "VReg_128";
        case 8: return "VReg_256";
        default: return "VReg_512";
      }
  }
}

bool check_vgpr(Ctx& c, unsigned n, unsigned dwords) {
  if (dwords <= 1) return true;
  if (n + dwords - 1 > 255) {
    c.note(std::string("Error: ") + class_name('v', dwords) + ": unknown register " + std::to_string(n));
    return false;
  }
  return true;
}

// An SGPR or TTMP tuple: LLVM warns about misalignment, aligns, then range-checks the class.
static bool check_scalar_tuple(Ctx& c, uint16_t& code, unsigned dwords, char kind, unsigned first,
                               unsigned total) {
  unsigned idx = code - first;
  unsigned stride = sgpr_stride(dwords);
  if (idx % stride) {
    c.note(std::string("Warning: ") + class_name(kind, dwords) + ": scalar reg isn't aligned " +
           std::to_string(idx));
  }
  unsigned slot = idx / stride;
  if (slot >= tuple_count(total, dwords, stride)) {
    c.note(std::string("Error: ") + class_name(kind, dwords) + ": unknown register " + std::to_string(slot));
    return false;
  }
  code = static_cast<uint16_t>(first + slot * stride);
  return true;
}

static bool unknown(Ctx& c, unsigned code) {
  c.note("Error: unknown operand encoding " + std::to_string(code));
  return false;
}

bool check_operand(Ctx& c, uint16_t& code, unsigned dwords, bool literal_ok) {
  if (code >= kVgprFirst) return check_vgpr(c, code - kVgprFirst, dwords);
  if (code <= kSgprLast) {
    if (dwords == 1) return true;
    return check_scalar_tuple(c, code, dwords, 's', 0, 106);
  }
  const ScalarSpace sp = scalar_space(c.target);
  if (code >= sp.ttmp_first && code < sp.ttmp_first + sp.ttmp_count) {
    if (dwords == 1) return true;
    return check_scalar_tuple(c, code, dwords, 't', sp.ttmp_first, 16);
  }
  if (dwords >= 8 && c.target == Target::Gfx803) {
    // LLVM 14 decodes 256/512-bit scalar operands with decodeDstOp, which has no case for other
    // codes: its release build falls through to a TTMP tuple at index -1. LLVM 19 decodes them
    // as it decodes 64-bit ones (and its printer marks them outside the class).
    c.note(std::string("Warning: ") + class_name('t', dwords) + ": scalar reg isn't aligned 4294967295");
    c.note(std::string("Error: ") + class_name('t', dwords) + ": unknown register 1073741823");
    return false;
  }
  if (code >= kIntZero && code <= 208) return true;
  if (code >= kFloatHalf && code <= kInvTwoPi) return true;
  if (code >= 235 && code <= 239) return true;  // src_shared_base .. src_pops_exiting_wave_id
  if (code >= kVccz && code <= kScc) return true;
  if (code == kLdsDirect && dwords == 1) return true;  // decodeSpecialReg64 has no lds_direct
  if (code == kLiteral) {
    if (!c.has_literal) {
      size_t left = c.words.size() > c.consumed ? c.words.size() - c.consumed : 0;
      if (!literal_ok || left == 0) {
        c.note("Error: cannot read literal, inst bytes left " + std::to_string(left * 4));
        return false;
      }
      c.literal = c.words[c.consumed++];
      c.has_literal = true;
    }
    return true;
  }
  if (code == 125) return true;  // null
  if (dwords == 1) {
    if (code >= kFlatScrLo && code <= kTmaHi) return true;
    if (code == kM0 || code == kExecLo || code == kExecHi) return true;
    return unknown(c, code);
  }
  // 64-bit (and wider) special registers exist only at their even codes.
  switch (code) {
    case kFlatScrLo: case kXnackLo: case kVccLo: case kTbaLo: case kTmaLo: case kExecLo:
      return true;
    default:
      return unknown(c, code);
  }
}

bool check_sdst(Ctx& c, uint16_t& code, unsigned dwords) { return check_operand(c, code, dwords, false); }

}  // namespace strobe::isa::detail
