// Text form of decoded instructions, mirroring llvm-objdump -d --mcpu=gfx803 (LLVM 14) and
// --mcpu=gfx942 (LLVM 19).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
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

/// Names a branch target for the " <label>" llvm-objdump appends after the encoding words
/// (e.g. "vecadd+0xac"); an empty string means no label. Without a labeler no label is printed.
using TargetLabeler = std::function<std::string(uint64_t target)>;

/// Target address of a PC-relative branch (s_branch, s_cbranch_*), or nullopt for other instructions.
std::optional<uint64_t> branch_target(const Inst& inst, uint64_t address);

/// format_line with branch-target labels, as llvm-objdump prints them when it knows the symbols.
std::string format_line(const Inst& inst, std::span<const uint32_t> words, uint64_t address,
                        const TargetLabeler& labeler);

/// Names a branch target inside the operand itself ("s_cbranch_execz BB0_2"), as LLVM's AMDGPU
/// symbolizer does when an untyped symbol sits at the target; nullopt keeps the numeric offset.
/// A symbolized branch gets no " <label>" suffix: llvm-objdump cannot evaluate it any more.
using OperandSymbolizer = std::function<std::optional<std::string>(uint64_t target)>;

/// format_line with symbolized branch operands (see OperandSymbolizer) and target labels.
std::string format_line(const Inst& inst, std::span<const uint32_t> words, uint64_t address,
                        const TargetLabeler& labeler, const OperandSymbolizer& symbolizer);

/// disassemble with branch-target labels (see TargetLabeler).
std::string disassemble(std::span<const uint8_t> bytes, uint64_t address, const TargetLabeler& labeler);

/// disassemble of `target`'s code, mirroring llvm-objdump of that target's reference LLVM.
std::string disassemble(std::span<const uint8_t> bytes, uint64_t address, const TargetLabeler& labeler,
                        Target target);

}  // namespace strobe::isa
