// Whole-section listings laid out as llvm-objdump -d lays them out (LLVM 14 for gfx803, LLVM 19
// for gfx942): every symbol's heading and every byte of the section, padding and v2 headers
// included.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "isa/inst.h"

namespace strobe::isa {

/// A named symbol defined in the section being listed (llvm-objdump drops unnamed and
/// STT_SECTION symbols before it sees them, so callers leave those out too).
struct ListingSymbol {
  uint64_t address = 0;
  std::string name;
  uint8_t elf_type = 0;  ///< the ELF STT_* value: it orders same-address symbols and selects v2 headers
};

/// One executable section with the symbols defined in it.
struct ListingSection {
  std::string name;  ///< e.g. ".text"
  uint64_t address = 0;
  std::span<const uint8_t> bytes;
  std::vector<ListingSymbol> symbols;  ///< any order
  Target target = Target::Gfx803;      ///< the instruction set the code is decoded as
};

/// The heading llvm-objdump prints once per file: "\nFILE:\tfile format elf64-amdgpu\n".
std::string listing_heading(std::string_view file);

/// llvm-objdump's text for one section: "\nDisassembly of section NAME:\n", then for each symbol
/// "\nADDRESS <NAME>:\n" and its bytes up to the next symbol or the section's end (not to its
/// st_size), decoded as instructions; a v2 kernel's 256-byte amd_kernel_code_t as ".byte" lines;
/// runs of 8 or more zero bytes as "\t\t...". Empty when no symbol owns any byte.
std::string list_section(const ListingSection& section);

}  // namespace strobe::isa
