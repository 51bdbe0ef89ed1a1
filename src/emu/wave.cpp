// Inline constants and scalar operand reads.
#include "emu/wave.h"

#include "emu/dispatch_abi.h"

namespace strobe::emu {

namespace of = isa::opcode_field;

namespace {
// 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0, 1/(2*pi) in each float width (codes 240..248).
constexpr uint16_t kF16[9] = {0x3800, 0xB800, 0x3C00, 0xBC00, 0x4000, 0xC000, 0x4400, 0xC400, 0x3118};
constexpr uint32_t kF32[9] = {0x3F000000, 0xBF000000, 0x3F800000, 0xBF800000, 0x40000000,
                              0xC0000000, 0x40800000, 0xC0800000, 0x3E22F983};
constexpr uint64_t kF64[9] = {0x3FE0000000000000, 0xBFE0000000000000, 0x3FF0000000000000,
                              0xBFF0000000000000, 0x4000000000000000, 0xC000000000000000,
                              0x4010000000000000, 0xC010000000000000, 0x3FC45F306DC9C882};
}  // namespace

uint64_t inline_constant(uint16_t code, OperandType t) {
  int64_t iv;
  if (code >= of::kIntZero && code <= 192) {
    iv = code - of::kIntZero;
  } else if (code >= of::kIntNegFirst && code <= 208) {
    iv = -int64_t(code - 192);
  } else if (code >= of::kFloatHalf && code <= of::kInvTwoPi) {
    unsigned i = code - of::kFloatHalf;
    switch (t) {
      case OperandType::F16: case OperandType::B16: return kF16[i];
      // Any 64-bit operand, integer or float, sees the double pattern (LLVM isInlinableLiteral64).
      case OperandType::F64: case OperandType::B64: return kF64[i];
      default: return kF32[i];
    }
  } else {
    return 0;  // not an inline constant; callers only pass 128..248
  }
  switch (t) {
    case OperandType::B64: case OperandType::F64: return uint64_t(iv);
    case OperandType::F16: case OperandType::B16: return uint64_t(iv) & 0xFFFF;
    default: return uint32_t(iv);
  }
}

uint64_t scalar_source(const Wave& w, const isa::Inst& inst, uint16_t code, OperandType t) {
  const bool wide = t == OperandType::B64 || t == OperandType::F64;
  if (code < 128) return wide ? w.s64(code) : w.s[code];
  if (code >= of::kSrcSharedBase && code <= of::kSrcPrivateLimit) {
    // gfx9's aperture registers. Only a 64-bit read is meaningful (LLVM reads them with
    // s_mov_b64 and uses the high half); a 32-bit read sees the low half.
    const uint64_t base = code <= of::kSrcSharedLimit ? kSharedApertureBase : kPrivateApertureBase;
    const uint64_t v = (code - of::kSrcSharedBase) % 2 ? base | 0xFFFFFFFFu : base;
    return wide ? v : uint32_t(v);
  }
  if (code <= of::kInvTwoPi) return inline_constant(code, t);
  switch (code) {
    case of::kLiteral:
      return t == OperandType::F64 ? uint64_t{inst.literal} << 32 : inst.literal;
    case of::kVccz: return w.vcc() == 0;
    case of::kExecz: return w.exec() == 0;
    case of::kScc: return w.scc;
    default: return 0;  // LDS_DIRECT, SDWA/DPP markers and VGPRs are not scalar sources
  }
}

}  // namespace strobe::emu
