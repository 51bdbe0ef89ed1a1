// Mirrors LLVM 14 llvm-objdump's disassembleObject loop for one section: symbol order, ends,
// onSymbolStart (AMDGPU: v2 kernel headers), zero-run elision, and both ways a branch target
// is named (the symbolizer's operand and the "<sym+0xoff>" comment).
#include "isa/listing.h"

#include <algorithm>
#include <cstdio>
#include <optional>
#include <tuple>

#include "isa/decoder.h"
#include "isa/disassembler.h"

namespace strobe::isa {

namespace {

constexpr uint8_t kSttNoType = 0, kSttObject = 1, kSttFunc = 2, kSttCommon = 5, kSttAmdgpuHsaKernel = 10;
/// llvm-objdump only elides zero runs of at least this many bytes (countSkippableZeroBytes).
constexpr size_t kMinZeroRun = 8;
/// AMDGPUDisassembler::onSymbolStart claims this much of an STT_AMDGPU_HSA_KERNEL symbol.
constexpr uint64_t kAmdKernelCodeTSize = 256;

bool symbol_less(const ListingSymbol& a, const ListingSymbol& b) {
  return std::tie(a.address, a.name, a.elf_type) < std::tie(b.address, b.name, b.elf_type);
}

uint32_t word_at(std::span<const uint8_t> b, size_t i) {
  return uint32_t(b[i]) | uint32_t(b[i + 1]) << 8 | uint32_t(b[i + 2]) << 16 | uint32_t(b[i + 3]) << 24;
}

/// Leading zero bytes llvm-objdump skips at `rest`: none below kMinZeroRun, else whole dwords.
size_t skippable_zeros(std::span<const uint8_t> rest) {
  size_t n = 0;
  while (n < rest.size() && rest[n] == 0) ++n;
  return n < kMinZeroRun ? 0 : n & ~size_t{3};
}

/// llvm-objdump's dump of a data symbol (STT_OBJECT, STT_COMMON) inside a text section: rows of
/// up to 8 bytes, "ADDR: xx xx ..", padded to 8 columns, then the printable characters.
std::string data_rows(std::span<const uint8_t> bytes, uint64_t base, uint64_t index, uint64_t end) {
  std::string out;
  char buf[32];
  for (uint64_t row = index; row < end; row += 8) {
    const uint64_t n = std::min<uint64_t>(8, end - row);
    std::snprintf(buf, sizeof buf, "%8llx:", static_cast<unsigned long long>(base + row));
    out += buf;
    std::string ascii;
    for (uint64_t i = 0; i < n; ++i) {
      const uint8_t b = bytes[row + i];
      std::snprintf(buf, sizeof buf, " %02x", b);
      out += buf;
      ascii += (b >= 0x20 && b < 0x7f) ? char(b) : '.';
    }
    out.append(3 * (8 - n), ' ').append(9, ' ').append(ascii).append("\n");
  }
  return out;
}

std::string hex_address(uint64_t a) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(a));
  return buf;
}

}  // namespace

std::string listing_heading(std::string_view file) {
  std::string out = "\n";
  out.append(file);
  out.append(":\tfile format elf64-amdgpu\n");
  return out;
}

std::string list_section(const ListingSection& section) {
  std::vector<ListingSymbol> syms = section.symbols;
  std::stable_sort(syms.begin(), syms.end(), symbol_less);
  // LLVM compares the first symbol with 0, not with the section address, so a linked object
  // always gets this dummy; it only shows when no real symbol starts the section.
  if (syms.empty() || syms.front().address != 0)
    syms.insert(syms.begin(), ListingSymbol{section.address, section.name, kSttFunc});

  const std::span<const uint8_t> bytes = section.bytes;
  const uint64_t base = section.address;
  // Branch comments name the last symbol at or below the target, plus the distance.
  const TargetLabeler labeler = [&syms](uint64_t target) -> std::string {
    auto it = std::partition_point(syms.begin(), syms.end(), [&](const ListingSymbol& s) { return s.address <= target; });
    if (it == syms.begin()) return "";
    const ListingSymbol& s = *(it - 1);
    if (s.address == target) return s.name;
    char buf[24];
    std::snprintf(buf, sizeof buf, "+0x%llx", static_cast<unsigned long long>(target - s.address));
    return s.name + buf;
  };
  // The AMDGPU symbolizer puts the first untyped symbol at the target into the operand.
  const OperandSymbolizer symbolizer = [&syms](uint64_t target) -> std::optional<std::string> {
    for (const ListingSymbol& s : syms)
      if (s.address == target && s.elf_type == kSttNoType) return s.name;
    return std::nullopt;
  };

  std::string out;
  bool printed_heading = false;
  for (size_t si = 0; si < syms.size(); ++si) {
    uint64_t start = syms[si].address;
    uint64_t end = base + bytes.size();
    if (si + 1 < syms.size()) end = std::min(end, syms[si + 1].address);
    // Of several symbols at one address only the last owns bytes, and only it is printed.
    if (start < base || start >= end) continue;
    if (!printed_heading) {
      out += "\nDisassembly of section " + section.name + ":\n";
      printed_heading = true;
    }
    out.append("\n").append(hex_address(start)).append(" <").append(syms[si].name).append(">:\n");
    start -= base;
    end -= base;
    if (syms[si].elf_type == kSttAmdgpuHsaKernel) {
      out += "// Error in decoding " + syms[si].name + " : Decoding failed region as bytes.\n";
      // LLVM 14 indexes the whole section here, not the symbol's bytes, so every v2 kernel after
      // the first shows the first kernel's header. Mirrored: the listing must match line for line.
      for (uint64_t i = 0; i < kAmdKernelCodeTSize && i < bytes.size(); ++i) {
        char buf[16];
        std::snprintf(buf, sizeof buf, "\t.byte\t 0x%X\n", bytes[i]);
        out += buf;
      }
      start += kAmdKernelCodeTSize;
    }
    uint64_t index = start;
    // Data symbols in a text section are dumped, not decoded.
    if (syms[si].elf_type == kSttObject || syms[si].elf_type == kSttCommon) {
      if (index < end) out += data_rows(bytes, base, index, end);
      continue;
    }
    while (index < end) {
      if (size_t zeros = skippable_zeros(bytes.subspan(index, end - index))) {
        out += "\t\t...\n";
        index += zeros;
        continue;
      }
      // LLVM decodes from the rest of the section, so an instruction may run past `end`.
      uint32_t words[3] = {};
      size_t n = 0;
      while (n < 3 && index + 4 * n + 4 <= bytes.size()) {
        words[n] = word_at(bytes, index + 4 * n);
        ++n;
      }
      if (n == 0) break;  // a tail shorter than a dword: not an instruction
      const std::span<const uint32_t> avail(words, n);
      const Inst inst = decode(avail, section.target);
      out += format_line(inst, avail, base + index, labeler, symbolizer);
      out += '\n';
      index += inst.size;
    }
  }
  return out;
}

}  // namespace strobe::isa
