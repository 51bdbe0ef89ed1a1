// A small, bounds-checked reader for the ELF64 little-endian files that hold AMDHSA code objects.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace strobe::loader {

/// ELF constants the loader needs (from the System V gABI and LLVM's ELF.h).
namespace elf {
inline constexpr uint16_t ET_REL = 1, ET_EXEC = 2, ET_DYN = 3;
inline constexpr uint16_t EM_AMDGPU = 224;
inline constexpr uint8_t ELFOSABI_AMDGPU_HSA = 64, ELFOSABI_AMDGPU_PAL = 65, ELFOSABI_AMDGPU_MESA3D = 66;
inline constexpr uint32_t SHT_SYMTAB = 2, SHT_STRTAB = 3, SHT_NOTE = 7, SHT_NOBITS = 8, SHT_DYNSYM = 11;
inline constexpr uint64_t SHF_ALLOC = 0x2, SHF_EXECINSTR = 0x4;
inline constexpr uint32_t PT_LOAD = 1;
inline constexpr uint8_t STT_OBJECT = 1, STT_FUNC = 2, STT_AMDGPU_HSA_KERNEL = 10;
inline constexpr uint32_t EF_AMDGPU_MACH = 0xFF;
}  // namespace elf

/// One section header, with its bytes when it occupies space in the file.
struct ElfSection {
  std::string name;
  uint32_t type = 0;
  uint64_t flags = 0, addr = 0, offset = 0, size = 0, addralign = 0, entsize = 0;
  uint32_t link = 0, info = 0;
  std::span<const uint8_t> bytes;  ///< empty for SHT_NOBITS
};

/// One program header.
struct ElfSegment {
  uint32_t type = 0;
  uint64_t offset = 0, vaddr = 0, filesz = 0, memsz = 0;
};

/// One symbol table entry.
struct ElfSymbol {
  std::string name;
  uint64_t value = 0, size = 0;
  uint8_t type = 0, bind = 0;
  uint16_t shndx = 0;
};

/// One note record from an SHT_NOTE section.
struct ElfNote {
  std::string owner;
  uint32_t type = 0;
  std::span<const uint8_t> desc;
};

/// The ELF64 file header. Kept apart from ElfFile so the caller can reject a file for its
/// identity (machine, OS/ABI, version) before any table is parsed.
struct ElfHeader {
  uint8_t os_abi = 0, abi_version = 0;
  uint16_t type = 0, machine = 0;
  uint32_t flags = 0;
  uint64_t phoff = 0, shoff = 0;
  uint16_t phentsize = 0, phnum = 0, shentsize = 0, shnum = 0, shstrndx = 0;
};

/// Checks the magic, class, encoding and version and reads the header. Throws detail::FormatError.
ElfHeader read_elf_header(std::span<const uint8_t> image);

/// A parsed ELF64 little-endian image. Every offset and size is checked against the image on
/// construction, so later accessors cannot read out of bounds. Throws detail::FormatError.
/// The image must outlive this object: sections and notes refer into it.
class ElfFile {
 public:
  /// Validates the section and program header tables that `header` (from `image`) describes.
  ElfFile(std::span<const uint8_t> image, const ElfHeader& header);

  /// The header this file was opened with.
  const ElfHeader& header() const { return hdr_; }
  /// All section headers in index order (index 0 is the null section); names resolved.
  const std::vector<ElfSection>& sections() const { return sections_; }
  /// All program headers; PT_LOAD ones are checked to lie inside the file.
  const std::vector<ElfSegment>& segments() const { return segments_; }

  /// The first section called `name`, or nullptr.
  const ElfSection* find_section(std::string_view name) const;
  /// Symbols of .symtab, or of .dynsym when the file has no .symtab (stripped objects).
  std::vector<ElfSymbol> symbols() const;
  /// Every note record of every SHT_NOTE section, in file order.
  std::vector<ElfNote> notes() const;

 private:
  void read_sections();
  void read_segments();

  std::span<const uint8_t> image_;
  ElfHeader hdr_;
  std::vector<ElfSection> sections_;
  std::vector<ElfSegment> segments_;
};

}  // namespace strobe::loader
