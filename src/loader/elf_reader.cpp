// ELF64 parsing: header, sections, program headers, symbols and notes, all bounds-checked.
#include "loader/elf_reader.h"

#include <cstring>
#include <string_view>

#include "loader/format_error.h"

namespace strobe::loader {

using detail::fail;
using detail::in_bounds;
using detail::read_le;

namespace {

constexpr uint64_t kEhdrSize = 64, kShdrSize = 64, kPhdrSize = 56, kSymSize = 24;
constexpr uint16_t kShnXindex = 0xFFFF;

/// The NUL-terminated string at `offset` of a string table section.
std::string read_string(const ElfSection& strtab, uint64_t offset, const char* what) {
  auto b = strtab.bytes;
  if (offset >= b.size())
    fail("{} name offset {:#x} lies outside string table '{}' ({} bytes)", what, offset, strtab.name, b.size());
  const void* nul = std::memchr(b.data() + offset, 0, b.size() - offset);
  if (!nul) fail("{} name at offset {:#x} of string table '{}' is not NUL-terminated", what, offset, strtab.name);
  return std::string(reinterpret_cast<const char*>(b.data() + offset),
                     static_cast<const uint8_t*>(nul) - (b.data() + offset));
}

/// `v` rounded up to a multiple of `align` (a power of two); fails instead of wrapping.
uint64_t align_up(uint64_t v, uint64_t align) {
  uint64_t r = v + (align - 1);
  if (r < v) fail("note record length overflows");
  return r & ~(align - 1);
}

}  // namespace

ElfHeader read_elf_header(std::span<const uint8_t> image) {
  // hipcc -c (and clang's HIP/OpenMP offloading) writes its device code into a bundle by default.
  static constexpr std::string_view kBundleMagic = "__CLANG_OFFLOAD_BUNDLE__";
  if (image.size() >= kBundleMagic.size() && std::memcmp(image.data(), kBundleMagic.data(), kBundleMagic.size()) == 0)
    fail("is a clang offload bundle, not a code object: extract the gfx803 one with 'clang-offload-bundler --unbundle "
         "--type=o --targets=hipv4-amdgcn-amd-amdhsa--gfx803 --input=FILE --output=OUT.hsaco', or build it with "
         "'hipcc --cuda-device-only --no-gpu-bundle-output'");
  if (image.size() < 4 || std::memcmp(image.data(), "\x7f" "ELF", 4) != 0) fail("not an ELF file (bad magic number)");
  if (image.size() < kEhdrSize) fail("truncated: {} bytes is shorter than the 64-byte ELF64 header", image.size());
  if (image[4] != 2) fail("ELF class {} is not ELF64 (2); AMDGPU code objects are 64-bit", image[4]);
  if (image[5] != 1) fail("ELF data encoding {} is not little-endian (1)", image[5]);
  if (image[6] != 1) fail("ELF identification version {} is not 1 (EV_CURRENT)", image[6]);
  ElfHeader h;
  h.os_abi = image[7];
  h.abi_version = image[8];
  h.type = read_le<uint16_t>(image, 16, "e_type");
  h.machine = read_le<uint16_t>(image, 18, "e_machine");
  h.flags = read_le<uint32_t>(image, 48, "e_flags");
  h.phoff = read_le<uint64_t>(image, 32, "e_phoff");
  h.shoff = read_le<uint64_t>(image, 40, "e_shoff");
  h.phentsize = read_le<uint16_t>(image, 54, "e_phentsize");
  h.phnum = read_le<uint16_t>(image, 56, "e_phnum");
  h.shentsize = read_le<uint16_t>(image, 58, "e_shentsize");
  h.shnum = read_le<uint16_t>(image, 60, "e_shnum");
  h.shstrndx = read_le<uint16_t>(image, 62, "e_shstrndx");
  return h;
}

ElfFile::ElfFile(std::span<const uint8_t> image, const ElfHeader& header) : image_(image), hdr_(header) {
  read_sections();
  read_segments();
}

void ElfFile::read_sections() {
  if (hdr_.shnum == 0) {
    // e_shnum 0 with a table offset means extended numbering (> 65279 sections): never a code object.
    if (hdr_.shoff != 0) fail("uses extended section numbering (e_shnum 0), which code objects never need");
    fail("has no section headers");
  }
  if (hdr_.shentsize != kShdrSize) fail("e_shentsize is {}, not the 64 bytes of an ELF64 section header", hdr_.shentsize);
  if (!in_bounds(hdr_.shoff, uint64_t{hdr_.shnum} * kShdrSize, image_.size()))
    fail("truncated or corrupt: section header table ({} entries at offset {:#x}) extends past the end of the "
         "{}-byte file", hdr_.shnum, hdr_.shoff, image_.size());
  if (hdr_.shstrndx == kShnXindex || hdr_.shstrndx >= hdr_.shnum)
    fail("section name string table index {} is out of range (the file has {} sections)", hdr_.shstrndx, hdr_.shnum);

  sections_.resize(hdr_.shnum);
  for (uint16_t i = 0; i < hdr_.shnum; ++i) {
    const uint64_t base = hdr_.shoff + uint64_t{i} * kShdrSize;
    ElfSection& s = sections_[i];
    s.type = read_le<uint32_t>(image_, base + 4, "sh_type");
    s.flags = read_le<uint64_t>(image_, base + 8, "sh_flags");
    s.addr = read_le<uint64_t>(image_, base + 16, "sh_addr");
    s.offset = read_le<uint64_t>(image_, base + 24, "sh_offset");
    s.size = read_le<uint64_t>(image_, base + 32, "sh_size");
    s.link = read_le<uint32_t>(image_, base + 40, "sh_link");
    s.info = read_le<uint32_t>(image_, base + 44, "sh_info");
    s.addralign = read_le<uint64_t>(image_, base + 48, "sh_addralign");
    s.entsize = read_le<uint64_t>(image_, base + 56, "sh_entsize");
    if (s.type != elf::SHT_NOBITS && i != 0) {
      if (!in_bounds(s.offset, s.size, image_.size()))
        fail("truncated or corrupt: section {} ({} bytes at offset {:#x}) extends past the end of the {}-byte file",
             i, s.size, s.offset, image_.size());
      s.bytes = image_.subspan(s.offset, s.size);
    }
  }
  const ElfSection& shstrtab = sections_[hdr_.shstrndx];
  if (shstrtab.type != elf::SHT_STRTAB)
    fail("section name string table (section {}) has type {}, not SHT_STRTAB", hdr_.shstrndx, shstrtab.type);
  for (uint16_t i = 1; i < hdr_.shnum; ++i) {
    const uint32_t name_off = read_le<uint32_t>(image_, hdr_.shoff + uint64_t{i} * kShdrSize, "sh_name");
    sections_[i].name = read_string(shstrtab, name_off, "section");
  }
}

void ElfFile::read_segments() {
  if (hdr_.phnum == 0) return;
  if (hdr_.phentsize != kPhdrSize) fail("e_phentsize is {}, not the 56 bytes of an ELF64 program header", hdr_.phentsize);
  if (!in_bounds(hdr_.phoff, uint64_t{hdr_.phnum} * kPhdrSize, image_.size()))
    fail("truncated or corrupt: program header table ({} entries at offset {:#x}) extends past the end of the "
         "{}-byte file", hdr_.phnum, hdr_.phoff, image_.size());
  segments_.resize(hdr_.phnum);
  for (uint16_t i = 0; i < hdr_.phnum; ++i) {
    const uint64_t base = hdr_.phoff + uint64_t{i} * kPhdrSize;
    ElfSegment& p = segments_[i];
    p.type = read_le<uint32_t>(image_, base, "p_type");
    p.offset = read_le<uint64_t>(image_, base + 8, "p_offset");
    p.vaddr = read_le<uint64_t>(image_, base + 16, "p_vaddr");
    p.filesz = read_le<uint64_t>(image_, base + 32, "p_filesz");
    p.memsz = read_le<uint64_t>(image_, base + 40, "p_memsz");
    if (p.type != elf::PT_LOAD) continue;
    if (!in_bounds(p.offset, p.filesz, image_.size()))
      fail("truncated or corrupt: loadable segment {} ({} bytes at offset {:#x}) extends past the end of the "
           "{}-byte file", i, p.filesz, p.offset, image_.size());
    if (p.memsz < p.filesz) fail("loadable segment {} has p_memsz {:#x} smaller than p_filesz {:#x}", i, p.memsz, p.filesz);
    if (!in_bounds(p.vaddr, p.memsz, UINT64_MAX)) fail("loadable segment {} wraps around the address space", i);
  }
}

const ElfSection* ElfFile::find_section(std::string_view name) const {
  for (const ElfSection& s : sections_)
    if (s.name == name) return &s;
  return nullptr;
}

std::vector<ElfSymbol> ElfFile::symbols() const {
  const ElfSection* table = nullptr;
  for (const ElfSection& s : sections_)
    if (s.type == elf::SHT_SYMTAB) { table = &s; break; }
  if (!table)
    for (const ElfSection& s : sections_)
      if (s.type == elf::SHT_DYNSYM) { table = &s; break; }
  if (!table) return {};

  if (table->entsize != kSymSize) fail("symbol table '{}' has entry size {}, not 24", table->name, table->entsize);
  if (table->size % kSymSize != 0)
    fail("symbol table '{}' size {} is not a multiple of its 24-byte entries", table->name, table->size);
  if (table->link == 0 || table->link >= sections_.size() || sections_[table->link].type != elf::SHT_STRTAB)
    fail("symbol table '{}' links to section {}, which is not a string table", table->name, table->link);
  const ElfSection& strtab = sections_[table->link];

  std::vector<ElfSymbol> out(table->size / kSymSize);
  for (size_t i = 0; i < out.size(); ++i) {
    const uint64_t base = i * kSymSize;
    ElfSymbol& sym = out[i];
    const uint32_t name_off = read_le<uint32_t>(table->bytes, base, "st_name");
    const uint8_t info = read_le<uint8_t>(table->bytes, base + 4, "st_info");
    sym.type = info & 0xF;
    sym.bind = info >> 4;
    sym.shndx = read_le<uint16_t>(table->bytes, base + 6, "st_shndx");
    sym.value = read_le<uint64_t>(table->bytes, base + 8, "st_value");
    sym.size = read_le<uint64_t>(table->bytes, base + 16, "st_size");
    sym.name = read_string(strtab, name_off, "symbol");
  }
  return out;
}

std::vector<ElfNote> ElfFile::notes() const {
  std::vector<ElfNote> out;
  for (const ElfSection& s : sections_) {
    if (s.type != elf::SHT_NOTE) continue;
    // AMDGPU notes are 4-byte aligned; honour an 8-byte section alignment as the gABI allows.
    const uint64_t align = s.addralign == 8 ? 8 : 4;
    uint64_t pos = 0;
    while (pos < s.bytes.size()) {
      const uint32_t namesz = read_le<uint32_t>(s.bytes, pos, "note name size");
      const uint32_t descsz = read_le<uint32_t>(s.bytes, pos + 4, "note descriptor size");
      ElfNote n;
      n.type = read_le<uint32_t>(s.bytes, pos + 8, "note type");
      const uint64_t name_at = pos + 12;
      if (!in_bounds(name_at, namesz, s.bytes.size()))
        fail("corrupt note in '{}' at offset {:#x}: its {}-byte owner name runs past the section end", s.name, pos, namesz);
      const uint64_t desc_at = align_up(name_at + namesz, align);
      if (!in_bounds(desc_at, descsz, s.bytes.size()))
        fail("corrupt note in '{}' at offset {:#x}: its {}-byte descriptor runs past the section end", s.name, pos, descsz);
      // The owner name is NUL-terminated and namesz counts the NUL; tolerate its absence.
      const char* name = reinterpret_cast<const char*>(s.bytes.data() + name_at);
      n.owner.assign(name, strnlen(name, namesz));
      n.desc = s.bytes.subspan(desc_at, descsz);
      out.push_back(std::move(n));
      const uint64_t end = desc_at + descsz;
      pos = end >= s.bytes.size() ? s.bytes.size() : align_up(end, align);
    }
  }
  return out;
}

}  // namespace strobe::loader
