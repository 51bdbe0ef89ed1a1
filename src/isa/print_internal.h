// Operand text in LLVM's AMDGPUInstPrinter conventions (LLVM 14 for gfx803, 19 for gfx942),
// shared by the per-encoding printers.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "isa/inst.h"
#include "isa/op_table.h"

namespace strobe::isa::detail {

/// Name of a register operand code of `dwords` width on `target` ("s[0:1]", "v7", "vcc",
/// "ttmp[4:7]": the trap temporaries start at another code on gfx942).
std::string reg_name(Target target, uint16_t code, unsigned dwords);

/// Name of a VGPR (codes 256..511) or AccVGPR (512..767) tuple: "v7", "a[0:3]".
std::string vector_reg_name(uint16_t code, unsigned dwords);

/// Text of any source code: register, inline constant or (code 255) the literal, printed as
/// LLVM prints an operand of immediate type `t`.
std::string src_text(Target target, uint16_t code, unsigned dwords, ImmType t, uint32_t literal);

/// Text of a 32-bit immediate value as LLVM's printImmediate32 renders it.
std::string imm32_text(uint32_t v);

/// A destination code: registers by name, immediates as LLVM's "/*invalid immediate*/"
/// (`literal` is the value of code 255, which LLVM reads even for a destination).
std::string dst_text(Target target, uint16_t code, unsigned dwords, uint32_t literal = 0);

/// An inline constant or literal in a register-only operand: LLVM 14 prints "/*invalid
/// immediate*/" alone; LLVM 19 prints the value, then "/*Invalid immediate*/".
/// The value is printed as a 32-bit immediate whatever the operand's width and type.
std::string invalid_immediate(Target target, uint16_t code, uint32_t literal);

/// A register outside its operand's class, as LLVM 19 prints it: the name, then
/// "/*Invalid register, operand has 'CLASS' register class*/".
std::string invalid_register(const std::string& name, std::string_view reg_class);

/// Lower-case hex with 0x prefix, as LLVM's formatHex.
std::string hex(uint64_t v);

}  // namespace strobe::isa::detail

namespace strobe::isa::detail {

/// Operand text (after the mnemonic) of scalar ALU and SMEM instructions.
std::string print_scalar(const Inst& inst, const OpInfo& info, uint64_t address);
/// Operand text of VOP1/VOP2/VOPC (e32, SDWA, DPP), VOP3 and VINTRP instructions.
std::string print_vector(const Inst& inst, const OpInfo& info);
/// Operand text of DS, FLAT, MUBUF, MTBUF, MIMG and EXP instructions.
std::string print_memory(const Inst& inst, const OpInfo& info);

}  // namespace strobe::isa::detail
