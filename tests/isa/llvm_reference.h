// Helpers that ask LLVM's own tools (llvm-mc, llvm-objdump: LLVM 14 for gfx803, LLVM 19 for
// gfx942) for the reference disassembly, and read .text and its symbols from a code object
// without the project's loader.
#pragma once

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "isa/inst.h"

namespace strobe::isa::testing {

/// Instruction lines ("\t..." lines) of `llvm-objdump -d --mcpu=gfx803 FILE`.
std::vector<std::string> objdump_lines(const std::string& file);

/// The whole stdout of `llvm-objdump -d --mcpu=TARGET FILE` (LLVM 19's for gfx942), as lines.
std::vector<std::string> objdump_listing(const std::string& file, Target target = Target::Gfx803);

/// Assembles `words` as .long directives with llvm-mc and returns objdump's instruction lines,
/// both tools those of `target`'s reference LLVM.
std::vector<std::string> llvm_lines_for_words(const std::vector<uint32_t>& words, Target target = Target::Gfx803);

/// The .text section of an ELF64 file: its bytes, its address and its symbols (addr, name).
struct TextSection {
  std::vector<uint8_t> bytes;
  uint64_t address = 0;
  std::vector<std::pair<uint64_t, std::string>> symbols;  ///< sorted by address
  /// Code object v2 kernels (STT_AMDGPU_HSA_KERNEL): their code starts 256 bytes in, after the
  /// amd_kernel_code_t header, which llvm-objdump cannot show as instructions.
  std::vector<uint64_t> v2_kernels;
  /// Every named, non-section symbol of .text with its STT_* type, in symbol-table order.
  std::vector<std::tuple<uint64_t, std::string, uint8_t>> typed_symbols;
  Target target = Target::Gfx803;  ///< from e_flags: gfx942 (EF_AMDGPU_MACH 0x4c), else gfx803
};

/// Reads .text of `file`; throws std::runtime_error when the file is not a usable ELF64.
TextSection read_text(const std::string& file);

/// Splits text into lines (no trailing newline kept).
std::vector<std::string> split_lines(const std::string& text);

}  // namespace strobe::isa::testing
