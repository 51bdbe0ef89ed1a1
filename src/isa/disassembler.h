// Text form of decoded instructions, mirroring llvm-objdump -d --mcpu=gfx803 (LLVM 14).
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "isa/inst.h"

namespace strobe::isa {

/// The instruction text exactly as LLVM prints it, e.g. "v_add_f32_e32 v0, v1, v2";
/// ".long 0x..." for an invalid word. `address` is used for branch targets where LLVM shows them.
std::string format_inst(const Inst& inst, std::span<const uint32_t> words, uint64_t address);

/// One llvm-objdump line: tab, text, padding, "// ADDRESS: ENCODING" (12 hex digits, upper-case words).
std::string format_line(const Inst& inst, std::span<const uint32_t> words, uint64_t address);

/// Disassembles a whole byte range placed at `address` into llvm-objdump lines (one per instruction).
std::string disassemble(std::span<const uint8_t> bytes, uint64_t address);

}  // namespace strobe::isa
