// The instruction decoder of gfx803 and gfx942. For gfx803 it accepts exactly the words LLVM 14's
// AMDGPU disassembler accepts and rejects the rest (Encoding::Invalid), so `strobe disasm` can
// mirror llvm-objdump; for gfx942 the reference is LLVM 19's.
#pragma once

#include <cstdint>
#include <span>

#include "isa/inst.h"

namespace strobe::isa {

/// Decodes one instruction from `words` (1 to 3 dwords available). Never reads past the span;
/// returns an Inst with enc == Encoding::Invalid and size 4 when the word is not a valid
/// gfx803 instruction or the span is too short for its encoding.
Inst decode(std::span<const uint32_t> words);

/// Decodes one instruction of `target`'s instruction set, as decode() does for gfx803.
Inst decode(std::span<const uint32_t> words, Target target);

/// Lower-case mnemonic of `op` without encoding suffix (e.g. "v_add_f32").
const char* op_name(Op op);

}  // namespace strobe::isa
