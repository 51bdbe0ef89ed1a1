// Operand text in LLVM 14's AMDGPUInstPrinter conventions, shared by the per-encoding printers.
#pragma once

#include <cstdint>
#include <string>

#include "isa/inst.h"
#include "isa/op_table.h"

namespace strobe::isa::detail {

/// Name of a register operand code of `dwords` width ("s[0:1]", "v7", "vcc", "ttmp[4:7]").
std::string reg_name(uint16_t code, unsigned dwords);

/// Text of any source code: register, inline constant or (code 255) the literal, printed as
/// LLVM prints an operand of immediate type `t`.
std::string src_text(uint16_t code, unsigned dwords, ImmType t, uint32_t literal);

/// Text of a 32-bit immediate value as LLVM's printImmediate32 renders it.
std::string imm32_text(uint32_t v);

/// A destination code: registers by name, immediates as LLVM's "/*invalid immediate*/".
std::string dst_text(uint16_t code, unsigned dwords);

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
