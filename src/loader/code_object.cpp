// CodeObject: checks the ELF identity, finds the target and the metadata note, and joins each
// metadata kernel with its descriptor (v3+: NAME.kd; v2: amd_kernel_code_t) and machine code.
#include "loader/code_object.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>

#include "common/error.h"
#include "loader/elf_reader.h"
#include "loader/format_error.h"
#include "loader/gfx_target.h"
#include "loader/kernel_descriptor.h"
#include "loader/metadata.h"
#include "loader/msgpack_metadata.h"
#include "loader/yaml_metadata.h"

namespace strobe::loader {

using detail::fail;
using detail::in_bounds;

namespace {

// Note types: v2 notes have owner "AMD", the v3+ metadata note has owner "AMDGPU".
constexpr uint32_t NT_AMD_HSA_CODE_OBJECT_VERSION = 1;
constexpr uint32_t NT_AMD_HSA_ISA_VERSION = 3;
constexpr uint32_t NT_AMD_HSA_METADATA = 10;
constexpr uint32_t NT_AMD_HSA_ISA_NAME = 11;
constexpr uint32_t NT_AMDGPU_METADATA = 32;

std::string machine_name(uint16_t m) {
  switch (m) {
    case 3: return "x86";
    case 40: return "ARM";
    case 62: return "x86-64";
    case 183: return "AArch64";
    case 190: return "NVIDIA CUDA";
    case 243: return "RISC-V";
    default: return "machine " + std::to_string(m);
  }
}

std::string os_abi_name(uint8_t abi) {
  switch (abi) {
    case 0: return "System V";
    case 3: return "Linux";
    case elf::ELFOSABI_AMDGPU_PAL: return "AMDGPU PAL";
    case elf::ELFOSABI_AMDGPU_MESA3D: return "AMDGPU Mesa3D";
    default: return "unknown";
  }
}

/// The code object version an AMDHSA e_ident[EI_ABIVERSION] denotes.
int version_from_abi(uint8_t abi_version) {
  switch (abi_version) {
    case 0: return 2;  // confirmed (or refuted) by the NT_AMD_HSA_CODE_OBJECT_VERSION note
    case 1: return 3;
    case 2: return 4;
    case 3: return 5;
    default:
      fail("unsupported code object version v{} (EI_ABIVERSION {}); strobe supports v2 to v5",
           int{abi_version} + 2, abi_version);
  }
}

const ElfNote* find_note(const std::vector<ElfNote>& notes, std::string_view owner, uint32_t type) {
  for (const ElfNote& n : notes)
    if (n.owner == owner && n.type == type) return &n;
  return nullptr;
}

/// Whether a (host) ELF carries HIP device code: hipcc links the offload bundle into .hip_fatbin.
bool has_hip_fatbin(std::span<const uint8_t> image, const ElfHeader& hdr) {
  try {
    return ElfFile(image, hdr).find_section(".hip_fatbin") != nullptr;
  } catch (const detail::FormatError&) {
    return false;  // a malformed foreign file just gets the plain e_machine error
  }
}

/// Checks a v2 NT_AMD_HSA_ISA_VERSION note: u16 vendor name size, u16 architecture name size,
/// u32 major, minor, stepping, then the NUL-terminated names ("AMD", "AMDGPU").
void check_isa_version_note(std::span<const uint8_t> desc, Accept accept) {
  const uint16_t vendor_size = detail::read_le<uint16_t>(desc, 0, "ISA vendor name size");
  const uint16_t arch_size = detail::read_le<uint16_t>(desc, 2, "ISA architecture name size");
  check_processor(processor_from_isa_version(detail::read_le<uint32_t>(desc, 4, "ISA major"),
                                             detail::read_le<uint32_t>(desc, 8, "ISA minor"),
                                             detail::read_le<uint32_t>(desc, 12, "ISA stepping")),
                  accept);
  if (!detail::in_bounds(16, uint64_t{vendor_size} + arch_size, desc.size()))
    fail("NT_AMD_HSA_ISA_VERSION note names run past its {} bytes", desc.size());
  auto name = [&](uint64_t at, uint16_t size) {
    std::string_view n(reinterpret_cast<const char*>(desc.data() + at), size);
    return n.substr(0, n.find('\0'));
  };
  const std::string_view vendor = name(16, vendor_size), arch = name(16 + vendor_size, arch_size);
  if (vendor != "AMD" || arch != "AMDGPU")
    fail("NT_AMD_HSA_ISA_VERSION note names vendor '{}' and architecture '{}', not AMD and AMDGPU", vendor, arch);
}

}  // namespace

/// Builds a CodeObject from an image; every failure is a detail::FormatError.
class CodeObjectParser {
 public:
  CodeObjectParser(CodeObject& co, Accept accept) : co_(co), accept_(accept) {}

  /// Fills the CodeObject from its image_; throws detail::FormatError.

  void run() {
    const std::span<const uint8_t> image(co_.image_);
    const ElfHeader hdr = read_elf_header(image);
    if (hdr.machine != elf::EM_AMDGPU) {
      if (has_hip_fatbin(image, hdr))
        fail("is a host program ({}) whose HIP device code is in its .hip_fatbin section, not a code object: extract "
             "it with 'llvm-objcopy --dump-section .hip_fatbin=FAT FILE' then 'clang-offload-bundler --unbundle "
             "--type=o --targets=hipv4-amdgcn-amd-amdhsa--gfx803 --input=FAT --output=OUT.hsaco'",
             machine_name(hdr.machine));
      fail("not an AMDGPU code object: e_machine is {} ({}), not EM_AMDGPU (224)", hdr.machine, machine_name(hdr.machine));
    }
    if (hdr.os_abi != elf::ELFOSABI_AMDGPU_HSA)
      fail("OS/ABI is {} ({}), not 64 (AMDGPU HSA); strobe loads only AMDHSA code objects", hdr.os_abi,
           os_abi_name(hdr.os_abi));
    co_.version_ = version_from_abi(hdr.abi_version);
    if (hdr.type == elf::ET_REL)
      fail("a relocatable object (ET_REL), not a linked code object; link it with 'ld.lld -shared'");
    if (hdr.type != elf::ET_DYN) fail("ELF type {} is not a shared object (ET_DYN, 3)", hdr.type);
    // v3+ name the target in e_flags; check it before anything else can go wrong.
    const std::string mach_processor = processor_from_mach(hdr.flags & elf::EF_AMDGPU_MACH);
    if (co_.version_ >= 3) check_processor(mach_processor, accept_);

    const ElfFile elf(image, hdr);
    const std::vector<ElfNote> notes = elf.notes();
    const CodeObjectMetadata md = co_.version_ == 2 ? read_v2_notes(notes, hdr) : read_v3_notes(notes);
    co_.processor_ = processor_from_target(co_.target_);
    // e_flags and the metadata's target ID must agree (both are checked above, each alone).
    if (co_.version_ >= 3 && co_.processor_ != mach_processor)
      fail("e_flags name {} but the metadata's target ID '{}' names {}", mach_processor, co_.target_, co_.processor_);
    find_text(elf);
    map_segments(elf);
    read_relocations(elf);
    const std::vector<ElfSymbol> symbols = elf.symbols();
    for (const KernelMetadata& km : md.kernels) {
      if (std::any_of(co_.kernels_.begin(), co_.kernels_.end(), [&](const KernelInfo& k) { return k.name == km.name; }))
        fail("metadata lists kernel '{}' twice", km.name);
      co_.kernels_.push_back(co_.version_ == 2 ? kernel_v2(km, symbols) : kernel_v3(km, symbols));
    }
    check_unlisted_descriptors(symbols, md);
    for (KernelInfo& k : co_.kernels_) finish_kernel(k, symbols);
    collect_code_ranges(symbols);
  }

 private:
  CodeObjectMetadata read_v2_notes(const std::vector<ElfNote>& notes, const ElfHeader& hdr) {
    const ElfNote* ver = find_note(notes, "AMD", NT_AMD_HSA_CODE_OBJECT_VERSION);
    if (!ver) fail("has EI_ABIVERSION 0 but no NT_AMD_HSA_CODE_OBJECT_VERSION note, so its code object version is unknown");
    const uint32_t major = detail::read_le<uint32_t>(ver->desc, 0, "NT_AMD_HSA_CODE_OBJECT_VERSION major");
    if (major != 2)
      fail("unsupported code object version v{} (NT_AMD_HSA_CODE_OBJECT_VERSION note); strobe supports v2 to v5", major);

    // v2 names its target up to three ways: the ISA name note (a target ID, often with an
    // environment: "amdgcn-amd-amdhsa-amdgizcl-gfx803"), the ISA version note and e_flags. Each
    // one present must name gfx803, so a contradiction cannot slip through.
    bool named = false;
    if (const ElfNote* name = find_note(notes, "AMD", NT_AMD_HSA_ISA_NAME)) {
      std::string_view text(reinterpret_cast<const char*>(name->desc.data()), name->desc.size());
      text = text.substr(0, text.find('\0'));
      check_target_id(parse_target_id(text), text, accept_);
      co_.target_ = std::string(text);
      named = true;
    }
    if (const ElfNote* isa = find_note(notes, "AMD", NT_AMD_HSA_ISA_VERSION)) {
      check_isa_version_note(isa->desc, accept_);
      named = true;
    }
    if ((hdr.flags & elf::EF_AMDGPU_MACH) != 0) {
      check_processor(processor_from_mach(hdr.flags & elf::EF_AMDGPU_MACH), accept_);
      named = true;
    }
    if (!named) fail("names no target: it has neither an NT_AMD_HSA_ISA_NAME/ISA_VERSION note nor EF_AMDGPU_MACH");
    if (co_.target_.empty()) co_.target_ = "amdgcn-amd-amdhsa--" + std::string(kSupportedProcessor);

    const ElfNote* meta = find_note(notes, "AMD", NT_AMD_HSA_METADATA);
    if (!meta) fail("has no NT_AMD_HSA_METADATA note, which strobe needs for the kernel arguments");
    return parse_yaml_metadata(meta->desc);
  }

  CodeObjectMetadata read_v3_notes(const std::vector<ElfNote>& notes) {
    const ElfNote* meta = find_note(notes, "AMDGPU", NT_AMDGPU_METADATA);
    if (!meta) fail("has no NT_AMDGPU_METADATA note, which strobe needs for the kernel arguments");
    CodeObjectMetadata md = parse_msgpack_metadata(meta->desc);
    if (md.version[0] != 1) fail("amdhsa.version major {} is not 1; this metadata format is unknown", md.version[0]);
    if (!md.target.empty()) {
      check_target_id(parse_target_id(md.target), md.target, accept_);
      co_.target_ = md.target;
    } else {
      co_.target_ = "amdgcn-amd-amdhsa--" + std::string(kSupportedProcessor);
    }
    return md;
  }

  void find_text(const ElfFile& elf) {
    const ElfSection* text = elf.find_section(".text");
    if (!text) fail("has no .text section");
    if (text->type == elf::SHT_NOBITS || !(text->flags & elf::SHF_EXECINSTR))
      fail(".text is not an executable section with contents");
    if (!in_bounds(text->addr, text->size, UINT64_MAX)) fail(".text wraps around the address space");
    co_.text_addr_ = text->addr;
    co_.text_offset_ = text->offset;
    co_.text_size_ = text->size;
  }

  void map_segments(const ElfFile& elf) {
    for (const ElfSegment& p : elf.segments())
      if (p.type == elf::PT_LOAD && p.memsz > 0) {
        if (p.memsz < p.filesz) fail("a PT_LOAD segment at {:#x} has memsz {} < filesz {}", p.vaddr, p.memsz, p.filesz);
        if (!in_bounds(p.vaddr, p.memsz, uint64_t{1} << 40)) fail("a PT_LOAD segment at {:#x} is too large", p.vaddr);
        co_.mappings_.push_back({p.vaddr, p.offset, p.filesz, p.memsz});
      }
    if (!co_.mappings_.empty()) return;
    // No program headers: fall back to the allocated sections' own addresses.
    for (const ElfSection& s : elf.sections())
      if ((s.flags & elf::SHF_ALLOC) && s.type != elf::SHT_NOBITS && s.size > 0 &&
          in_bounds(s.addr, s.size, UINT64_MAX))
        co_.mappings_.push_back({s.addr, s.offset, s.size, s.size});
  }

  /// Reads the dynamic relocations (allocated SHT_RELA sections, 24-byte entries) and resolves
  /// their symbols through the linked symbol table.
  void read_relocations(const ElfFile& elf) {
    constexpr uint32_t kShtRela = 4;
    const auto& secs = elf.sections();
    for (const ElfSection& s : secs) {
      if (s.type != kShtRela || !(s.flags & elf::SHF_ALLOC)) continue;
      if (s.size % 24) fail("{} is {} bytes, not a whole number of 24-byte entries", s.name, s.size);
      const ElfSection* symtab = s.link < secs.size() ? &secs[s.link] : nullptr;
      const ElfSection* strtab = symtab && symtab->link < secs.size() ? &secs[symtab->link] : nullptr;
      for (uint64_t off = 0; off < s.size; off += 24) {
        Relocation r;
        r.offset = detail::read_le<uint64_t>(s.bytes, off, "r_offset");
        const uint64_t info = detail::read_le<uint64_t>(s.bytes, off + 8, "r_info");
        r.addend = detail::read_le<int64_t>(s.bytes, off + 16, "r_addend");
        r.type = uint32_t(info);
        const uint64_t sym = info >> 32;
        if (sym != 0) {
          if (!symtab || (sym + 1) * 24 > symtab->bytes.size()) fail("{}: relocation symbol {} is out of range", s.name, sym);
          const uint32_t name = detail::read_le<uint32_t>(symtab->bytes, sym * 24, "st_name");
          const uint16_t shndx = detail::read_le<uint16_t>(symtab->bytes, sym * 24 + 6, "st_shndx");
          r.symbol_value = detail::read_le<uint64_t>(symtab->bytes, sym * 24 + 8, "st_value");
          r.symbol_defined = shndx != 0;
          if (strtab && name < strtab->bytes.size()) {
            const auto* p = reinterpret_cast<const char*>(strtab->bytes.data()) + name;
            r.symbol.assign(p, strnlen(p, strtab->bytes.size() - name));
          }
        }
        co_.relocations_.push_back(std::move(r));
      }
    }
  }

  /// The bytes of a descriptor, or a clear error if it is not inside a loaded segment.
  std::span<const uint8_t> descriptor_bytes(uint64_t addr, uint64_t size, const std::string& what) {
    auto b = co_.bytes_at(addr, size);
    if (b.size() != size) fail("{} at {:#x} ({} bytes) lies outside the loaded segments", what, addr, size);
    return b;
  }

  static uint64_t entry_of(uint64_t descriptor, int64_t offset, const std::string& kernel) {
    uint64_t entry = 0;
    if (__builtin_add_overflow(descriptor, static_cast<uint64_t>(offset), &entry) != (offset < 0))
      fail("kernel '{}': kernel_code_entry_byte_offset {} points outside the address space", kernel, offset);
    return entry;
  }

  static const ElfSymbol* find_symbol(const std::vector<ElfSymbol>& symbols, std::string_view name) {
    for (const ElfSymbol& s : symbols)
      if (s.name == name && s.shndx != 0) return &s;
    return nullptr;
  }

  KernelInfo kernel_v3(const KernelMetadata& km, const std::vector<ElfSymbol>& symbols) {
    const ElfSymbol* kd_sym = find_symbol(symbols, km.symbol);
    if (!kd_sym) fail("kernel '{}': its descriptor symbol '{}' is not defined", km.name, km.symbol);
    KernelInfo k;
    k.name = km.name;
    k.descriptor_address = kd_sym->value;
    k.kd = decode_kernel_descriptor(descriptor_bytes(kd_sym->value, kKernelDescriptorSize,
                                                     "kernel descriptor '" + km.symbol + "'"));
    k.entry_address = entry_of(kd_sym->value, k.kd.kernel_code_entry_byte_offset, km.name);
    // The entry symbol is the descriptor's name without ".kd"; fall back to any function at the entry.
    const std::string entry_name = km.symbol.ends_with(".kd") ? km.symbol.substr(0, km.symbol.size() - 3) : km.name;
    const ElfSymbol* fn = find_symbol(symbols, entry_name);
    if (!fn || fn->value != k.entry_address) {
      fn = nullptr;
      for (const ElfSymbol& s : symbols)
        if (s.type == elf::STT_FUNC && s.shndx != 0 && s.value == k.entry_address) { fn = &s; break; }
    }
    k.symbol = fn ? fn->name : entry_name;
    k.code_size = fn ? fn->size : 0;
    apply_metadata(k, km);
    return k;
  }

  KernelInfo kernel_v2(const KernelMetadata& km, const std::vector<ElfSymbol>& symbols) {
    const ElfSymbol* sym = nullptr;
    for (const ElfSymbol& s : symbols)
      if (s.name == km.name && s.type == elf::STT_AMDGPU_HSA_KERNEL && s.shndx != 0) { sym = &s; break; }
    if (!sym) fail("kernel '{}': no STT_AMDGPU_HSA_KERNEL symbol of that name", km.name);
    KernelInfo k;
    k.name = km.name;
    k.symbol = sym->name;
    k.descriptor_address = sym->value;
    AmdKernelCodeExtras extras;
    k.kd = decode_amd_kernel_code(descriptor_bytes(sym->value, kAmdKernelCodeSize, "amd_kernel_code_t of '" + km.name + "'"),
                                  &extras);
    k.entry_address = entry_of(sym->value, k.kd.kernel_code_entry_byte_offset, km.name);
    // The v2 kernel symbol covers amd_kernel_code_t and the code after it.
    const uint64_t offset = static_cast<uint64_t>(k.kd.kernel_code_entry_byte_offset);
    k.code_size = k.kd.kernel_code_entry_byte_offset >= 0 && sym->size > offset ? sym->size - offset : 0;
    // Fill the v2 fields the metadata may omit from amd_kernel_code_t before the metadata overrides them.
    k.kernarg_segment_align = extras.kernarg_segment_alignment;
    k.wavefront_size = extras.wavefront_size;
    k.sgpr_count = extras.sgpr_count;
    k.vgpr_count = extras.vgpr_count;
    apply_metadata(k, km);
    return k;
  }

  static void apply_metadata(KernelInfo& k, const KernelMetadata& km) {
    k.args = km.args;
    k.kernarg_segment_size = km.kernarg_segment_size.value_or(k.kd.kernarg_size);
    k.kernarg_segment_align = km.kernarg_segment_align.value_or(k.kernarg_segment_align ? k.kernarg_segment_align : 16);
    k.group_segment_fixed_size = km.group_segment_fixed_size.value_or(k.kd.group_segment_fixed_size);
    k.private_segment_fixed_size = km.private_segment_fixed_size.value_or(k.kd.private_segment_fixed_size);
    k.sgpr_count = km.sgpr_count.value_or(k.sgpr_count);
    k.vgpr_count = km.vgpr_count.value_or(k.vgpr_count);
    k.wavefront_size = km.wavefront_size.value_or(k.wavefront_size ? k.wavefront_size : 64);
    k.max_flat_workgroup_size = km.max_flat_workgroup_size.value_or(256);
    k.sgpr_spill_count = km.sgpr_spill_count.value_or(0);
    k.vgpr_spill_count = km.vgpr_spill_count.value_or(0);
    k.reqd_workgroup_size = km.reqd_workgroup_size;
    k.workgroup_size_hint = km.workgroup_size_hint;
    k.vec_type_hint = km.vec_type_hint;
  }

  /// A descriptor without metadata would be a kernel strobe cannot pass arguments to.
  void check_unlisted_descriptors(const std::vector<ElfSymbol>& symbols, const CodeObjectMetadata& md) {
    for (const ElfSymbol& s : symbols) {
      const bool is_descriptor = co_.version_ == 2 ? s.type == elf::STT_AMDGPU_HSA_KERNEL
                                                   : s.type == elf::STT_OBJECT && s.name.ends_with(".kd");
      if (!is_descriptor || s.shndx == 0) continue;
      const bool listed = std::any_of(co_.kernels_.begin(), co_.kernels_.end(),
                                      [&](const KernelInfo& k) { return k.descriptor_address == s.value; });
      if (!listed) fail("kernel symbol '{}' has no entry in the metadata note", s.name);
    }
  }

  /// Checks the code range and the argument layout of a kernel whose fields are all filled.
  void finish_kernel(KernelInfo& k, const std::vector<ElfSymbol>& symbols) {
    const uint64_t text_end = co_.text_addr_ + co_.text_size_;
    if (k.entry_address < co_.text_addr_ || k.entry_address >= text_end)
      fail("kernel '{}': entry {:#x} lies outside .text [{:#x}, {:#x})", k.name, k.entry_address, co_.text_addr_, text_end);
    if (k.code_size == 0) {
      // No symbol size: the code runs to the next function or kernel entry, or to the end of .text.
      k.code_size = next_code_start(symbols, k.entry_address) - k.entry_address;
    }
    if (!in_bounds(k.entry_address - co_.text_addr_, k.code_size, co_.text_size_))
      fail("kernel '{}': its {} bytes of code at {:#x} run past the end of .text", k.name, k.code_size, k.entry_address);
    if (k.wavefront_size != 64) fail("kernel '{}' uses {}-wide wavefronts; gfx803 runs 64-wide", k.name, k.wavefront_size);
    for (size_t i = 0; i < k.args.size(); ++i) {
      const KernelArg& a = k.args[i];
      if (uint64_t{a.offset} + a.size > k.kernarg_segment_size)
        fail("kernel '{}': argument {} (offset {}, size {}) lies outside its {}-byte kernarg segment", k.name, i, a.offset,
             a.size, k.kernarg_segment_size);
    }
  }

  /// First address after `from` where another function or kernel starts, or the end of .text.
  uint64_t next_code_start(const std::vector<ElfSymbol>& symbols, uint64_t from) const {
    uint64_t end = co_.text_addr_ + co_.text_size_;
    for (const ElfSymbol& s : symbols)
      if ((s.type == elf::STT_FUNC || s.type == elf::STT_AMDGPU_HSA_KERNEL) && s.shndx != 0 && s.value > from && s.value < end)
        end = s.value;
    for (const KernelInfo& k : co_.kernels_)
      if (k.entry_address > from && k.entry_address < end) end = k.entry_address;
    return end;
  }

  /// Every function's code, so calls out of a kernel land on decoded instructions. Function
  /// symbols outside .text are not code strobe can run and are left out.
  void collect_code_ranges(const std::vector<ElfSymbol>& symbols) {
    const uint64_t text_end = co_.text_addr_ + co_.text_size_;
    std::vector<CodeRange>& out = co_.code_ranges_;
    for (const KernelInfo& k : co_.kernels_) out.push_back(CodeRange{k.entry_address, k.code_size, k.symbol});
    for (const ElfSymbol& s : symbols) {
      if (s.type != elf::STT_FUNC || s.shndx == 0 || s.value < co_.text_addr_ || s.value >= text_end) continue;
      const uint64_t size = s.size ? s.size : next_code_start(symbols, s.value) - s.value;
      if (!in_bounds(s.value - co_.text_addr_, size, co_.text_size_))
        fail("function '{}': its {} bytes of code at {:#x} run past the end of .text", s.name, size, s.value);
      out.push_back(CodeRange{s.value, size, s.name});
    }
    std::sort(out.begin(), out.end(), [](const CodeRange& a, const CodeRange& b) {
      return a.address != b.address ? a.address < b.address : a.size > b.size;
    });
  }

  CodeObject& co_;
  Accept accept_;
};

CodeObject CodeObject::load(const std::string& path, Accept accept) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw InputError(path + ": is a directory, not a code object");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open: " + std::strerror(errno));
  std::vector<uint8_t> image((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw InputError(path + ": read error");
  return parse(std::move(image), path, accept);
}

CodeObject CodeObject::parse(std::vector<uint8_t> image, const std::string& name, Accept accept) {
  CodeObject co;
  co.name_ = name;
  co.image_ = std::move(image);
  try {
    CodeObjectParser(co, accept).run();
  } catch (const detail::FormatError& e) {
    throw InputError(name + ": " + e.what());
  }
  return co;
}

const KernelInfo& CodeObject::kernel(const std::string& name) const {
  for (const KernelInfo& k : kernels_)
    if (k.name == name) return k;
  std::string list;
  for (const KernelInfo& k : kernels_) list += (list.empty() ? "" : ", ") + k.name;
  throw InputError(name_ + ": no kernel named '" + name + "'; " +
                   (list.empty() ? std::string("it contains no kernels") : "its kernels are: " + list));
}

std::span<const uint8_t> CodeObject::text() const {
  return std::span<const uint8_t>(image_).subspan(text_offset_, text_size_);
}

std::span<const uint8_t> CodeObject::code(const KernelInfo& k) const {
  // Validated at load for this object's kernels; a KernelInfo from elsewhere gets an empty span.
  if (k.entry_address < text_addr_ || !in_bounds(k.entry_address - text_addr_, k.code_size, text_size_)) return {};
  return text().subspan(k.entry_address - text_addr_, k.code_size);
}

std::span<const uint8_t> CodeObject::bytes_at(uint64_t addr, uint64_t size) const {
  for (const Mapping& m : mappings_)
    if (addr >= m.vaddr && in_bounds(addr - m.vaddr, size, m.size))
      return std::span<const uint8_t>(image_).subspan(m.offset + (addr - m.vaddr), size);
  return {};
}

}  // namespace strobe::loader

namespace strobe::loader {

std::vector<LoadSegment> CodeObject::load_segments() const {
  std::vector<LoadSegment> out;
  for (const Mapping& m : mappings_)
    out.push_back({m.vaddr, m.memsz, std::span<const uint8_t>(image_).subspan(m.offset, m.size)});
  std::sort(out.begin(), out.end(), [](const LoadSegment& a, const LoadSegment& b) { return a.vaddr < b.vaddr; });
  return out;
}

uint64_t CodeObject::image_span() const {
  uint64_t end = 0;
  for (const Mapping& m : mappings_) end = std::max(end, m.vaddr + m.memsz);
  return end;
}

}  // namespace strobe::loader
