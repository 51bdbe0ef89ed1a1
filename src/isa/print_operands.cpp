// Register names and immediate rendering (AMDGPUInstPrinter::printImmediate16/32/64 for gfx8).
#include <cstdio>
#include <string>

#include "isa/print_internal.h"

namespace strobe::isa::detail {

using namespace opcode_field;

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

namespace {

std::string range(const char* prefix, unsigned first, unsigned dwords) {
  if (dwords <= 1) return prefix + std::to_string(first);
  return std::string(prefix) + "[" + std::to_string(first) + ":" + std::to_string(first + dwords - 1) + "]";
}

const char* special32(uint16_t code) {
  switch (code) {
    case kFlatScrLo: return "flat_scratch_lo";
    case kFlatScrHi: return "flat_scratch_hi";
    case kXnackLo: return "xnack_mask_lo";
    case kXnackHi: return "xnack_mask_hi";
    case kVccLo: return "vcc_lo";
    case kVccHi: return "vcc_hi";
    case kTbaLo: return "tba_lo";
    case kTbaHi: return "tba_hi";
    case kTmaLo: return "tma_lo";
    case kTmaHi: return "tma_hi";
    case kM0: return "m0";
    case 125: return "null";
    case kExecLo: return "exec_lo";
    case kExecHi: return "exec_hi";
    default: return nullptr;
  }
}

const char* special64(uint16_t code) {
  switch (code) {
    case kFlatScrLo: return "flat_scratch";
    case kXnackLo: return "xnack_mask";
    case kVccLo: return "vcc";
    case kTbaLo: return "tba";
    case kTmaLo: return "tma";
    case 125: return "null";
    case kExecLo: return "exec";
    default: return nullptr;
  }
}

const char* src_special(uint16_t code) {
  switch (code) {
    case 235: return "src_shared_base";
    case 236: return "src_shared_limit";
    case 237: return "src_private_base";
    case 238: return "src_private_limit";
    case 239: return "src_pops_exiting_wave_id";
    case kVccz: return "src_vccz";
    case kExecz: return "src_execz";
    case kScc: return "src_scc";
    case kLdsDirect: return "src_lds_direct";
    default: return nullptr;
  }
}

int64_t inline_int(uint16_t code) { return code <= 192 ? int64_t(code) - 128 : 192 - int64_t(code); }

const char* kFloatNames[] = {"0.5", "-0.5", "1.0", "-1.0", "2.0", "-2.0", "4.0", "-4.0"};
constexpr uint32_t kF32Bits[] = {0x3F000000, 0xBF000000, 0x3F800000, 0xBF800000,
                                 0x40000000, 0xC0000000, 0x40800000, 0xC0800000};
constexpr uint32_t kF64HighBits[] = {0x3FE00000, 0xBFE00000, 0x3FF00000, 0xBFF00000,
                                     0x40000000, 0xC0000000, 0x40100000, 0xC0100000};
constexpr uint32_t kF16Bits[] = {0x3800, 0xB800, 0x3C00, 0xBC00, 0x4000, 0xC000, 0x4400, 0xC400};

// A 16-bit operand's literal: LLVM 14 matches f16 constants against the whole dword, LLVM 19
// (`low_half`) against its low half alone.
std::string imm16_text(uint32_t v, bool is_float, bool low_half = false) {
  int16_t s = static_cast<int16_t>(v & 0xFFFF);
  if (s >= -16 && s <= 64) return std::to_string(s);
  if (is_float) {
    const uint32_t f = low_half ? v & 0xFFFF : v;
    for (int i = 0; i < 8; ++i)
      if (f == kF16Bits[i]) return kFloatNames[i];
    if (f == 0x3118) return "0.15915494";
  }
  return hex(v & 0xFFFF);
}

// True when LLVM prints `v` as an inline integer (-16..64) or one of the f32 inline constants.
bool imm32_is_inline(uint32_t v) {
  int32_t s = static_cast<int32_t>(v);
  if (s >= -16 && s <= 64) return true;
  for (uint32_t f : kF32Bits)
    if (v == f) return true;
  return v == 0x3E22F983;
}

}  // namespace

std::string imm32_text(uint32_t v) {
  int32_t s = static_cast<int32_t>(v);
  if (s >= -16 && s <= 64) return std::to_string(s);
  for (int i = 0; i < 8; ++i)
    if (v == kF32Bits[i]) return kFloatNames[i];
  if (v == 0x3E22F983) return "0.15915494";
  return hex(v);
}

std::string vector_reg_name(uint16_t code, unsigned dwords) {
  if (code >= kAgprFirst) return range("a", code - kAgprFirst, dwords);
  return range("v", code - kVgprFirst, dwords);
}

std::string reg_name(Target target, uint16_t code, unsigned dwords) {
  if (code >= kVgprFirst) return vector_reg_name(code, dwords);
  if (code <= kSgprLast) return range("s", code, dwords);
  const ScalarSpace sp = scalar_space(target);
  if (code >= sp.ttmp_first && code < sp.ttmp_first + sp.ttmp_count) return range("ttmp", code - sp.ttmp_first, dwords);
  if (const char* s = src_special(code)) return s;
  const char* n = dwords <= 1 ? special32(code) : special64(code);
  return n ? n : "<bad>";
}

std::string invalid_immediate(Target target, uint16_t code, uint32_t literal) {
  if (target == Target::Gfx803) return "/*invalid immediate*/";
  // LLVM 19 prints the value as a 32-bit immediate, whatever the operand's width and type.
  return src_text(target, code, 1, ImmType::B32, literal) + "/*Invalid immediate*/";
}

std::string invalid_register(const std::string& name, std::string_view reg_class) {
  return name + "/*Invalid register, operand has '" + std::string(reg_class) + "' register class*/";
}

std::string dst_text(Target target, uint16_t code, unsigned dwords, uint32_t literal) {
  if (code >= kIntZero && code < kVgprFirst && !src_special(code))
    return invalid_immediate(target, code, literal);
  // LLVM 19 marks lds_direct alone of the source-only registers it decodes as a destination.
  if (code == kLdsDirect && target != Target::Gfx803) return invalid_register(reg_name(target, code, dwords), "SReg_32");
  return reg_name(target, code, dwords);
}

std::string src_text(Target target, uint16_t code, unsigned dwords, ImmType t, uint32_t literal) {
  bool is_const = (code >= kIntZero && code <= 208) || (code >= kFloatHalf && code <= kInvTwoPi);
  if (code == kLiteral) {
    switch (t) {
      case ImmType::F16: return imm16_text(literal, true, target != Target::Gfx803);
      case ImmType::I16:
        // LLVM 19 reads all 32 bits of a 16-bit integer operand's literal: an inline integer or
        // f32 constant prints as one (0xbf800000 is -1.0, 0x82800000 is 0x0), else the low half.
        if (target == Target::Gfx942) {
          if (imm32_is_inline(literal)) return imm32_text(literal);
          return hex(literal & 0xFFFF);
        }
        return imm16_text(literal, false);
      case ImmType::V2F16:
        // Packed halves: an inline integer, an f16 constant in the low half alone, else all 32 bits.
        if (imm32_is_inline(literal) && static_cast<int32_t>(literal) >= -16 && static_cast<int32_t>(literal) <= 64)
          return imm32_text(literal);
        if (literal <= 0xFFFF) return imm16_text(literal, true);
        return hex(literal);
      case ImmType::F64:
        // LLVM 19 takes a double's literal as its high half: 0x3ff00000 is 1.0, the rest hex.
        for (int i = 0; i < 8; ++i)
          if (literal == kF64HighBits[i]) return kFloatNames[i];
        return literal == 0 ? "0" : hex(literal);
      case ImmType::B64: {
        int64_t s = static_cast<int64_t>(uint64_t(literal));
        if (s >= -16 && s <= 64) return std::to_string(s);
        return hex(literal);
      }
      default: return imm32_text(literal);
    }
  }
  if (!is_const) return reg_name(target, code, dwords);
  if (code <= 208) return std::to_string(inline_int(code));
  int f = code - kFloatHalf;
  switch (t) {
    case ImmType::F16:
      return f == 8 ? "0.15915494" : kFloatNames[f];
    case ImmType::I16:
      return hex(f == 8 ? 0x3118 : kF16Bits[f]);
    case ImmType::B64:
    case ImmType::F64:
      return f == 8 ? "0.15915494309189532" : kFloatNames[f];
    default:
      return f == 8 ? "0.15915494" : kFloatNames[f];
  }
}

}  // namespace strobe::isa::detail
