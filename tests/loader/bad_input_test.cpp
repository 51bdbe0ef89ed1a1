// Bad input: each defect gives one strobe::InputError that names the file and the problem.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>

#include "common/error.h"
#include "loader/code_object.h"
#include "loader/elf_reader.h"
#include "loader/loader_test_support.h"

namespace strobe::loader {
namespace {

using namespace testing;
using Image = std::vector<uint8_t>;

/// The InputError message of parsing `image` as "bad.hsaco"; fails the test on success or on
/// any other exception.
std::string error_of(const Image& image) {
  try {
    CodeObject::parse(image, "bad.hsaco");
  } catch (const InputError& e) {
    EXPECT_TRUE(std::string(e.what()).starts_with("bad.hsaco: ")) << e.what();
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not an InputError: " << e.what();
    return {};
  }
  ADD_FAILURE() << "parsed without error";
  return {};
}

#define EXPECT_ERROR(image, text) EXPECT_PRED_FORMAT2(::testing::IsSubstring, text, error_of(image))

// Both come from kernels/loader/args.cl (kernels many_args, two_locals), which only the loader
// tests use, so the byte patterns below stay stable.
Image v4_image() { return read_bytes(build_object("kernels/loader/args.hsaco")); }
Image v2_image() { return read_bytes(fixture("args-v2.hsaco")); }

template <typename T>
void poke(Image& img, uint64_t offset, T value) {
  ASSERT_LE(offset + sizeof(T), img.size());
  std::memcpy(img.data() + offset, &value, sizeof(T));
}

/// Replaces every occurrence of `from` with `to` (same length), returning how many there were.
int replace_all(Image& img, std::string_view from, std::string_view to) {
  EXPECT_EQ(from.size(), to.size());
  int n = 0;
  for (auto it = img.begin(); (it = std::search(it, img.end(), from.begin(), from.end())) != img.end(); ++n)
    it = std::copy(to.begin(), to.end(), it);
  return n;
}

/// File offset of the section header called `name`.
uint64_t section_header(const Image& img, const std::string& name) {
  const ElfHeader h = read_elf_header(img);
  const ElfFile elf(img, h);
  for (size_t i = 0; i < elf.sections().size(); ++i)
    if (elf.sections()[i].name == name) return h.shoff + i * 64;
  ADD_FAILURE() << "no section " << name;
  return 0;
}

/// File offset of the first note's descriptor, and of its header.
std::pair<uint64_t, uint64_t> first_metadata_note(const Image& img, uint32_t type) {
  const ElfFile elf(img, read_elf_header(img));
  for (const ElfNote& n : elf.notes())
    if (n.type == type) {
      const uint64_t desc = n.desc.data() - img.data();
      const uint64_t name_padded = (n.owner.size() + 1 + 3) / 4 * 4;
      return {desc, desc - name_padded - 12};
    }
  ADD_FAILURE() << "no note of type " << type;
  return {0, 0};
}

TEST(BadInput, NotAnElfFile) {
  EXPECT_ERROR(Image{}, "not an ELF file");
  const std::string text = "just some text, long enough to be a header of sixty-four bytes, or more";
  EXPECT_ERROR(Image(text.begin(), text.end()), "not an ELF file (bad magic number)");
}

TEST(BadInput, WrongClassAndEndianness) {
  Image img = v4_image();
  img[4] = 1;
  EXPECT_ERROR(img, "ELF class 1 is not ELF64");
  img = v4_image();
  img[5] = 2;
  EXPECT_ERROR(img, "not little-endian");
}

TEST(BadInput, WrongMachineIsNamed) {
  Image img = v4_image();
  poke<uint16_t>(img, 18, 62);
  EXPECT_ERROR(img, "not an AMDGPU code object: e_machine is 62 (x86-64)");
  // This test program itself is a host ELF file.
  EXPECT_THROW(CodeObject::load("/proc/self/exe"), InputError);
}

TEST(BadInput, OffloadBundleSaysHowToExtractTheCodeObject) {
  // hipcc -c without --no-gpu-bundle-output: the bundle's magic, then its entry table.
  const std::string bundle = std::string("__CLANG_OFFLOAD_BUNDLE__") + std::string(40, '\0');
  EXPECT_ERROR(Image(bundle.begin(), bundle.end()), "is a clang offload bundle, not a code object: extract the gfx803 one "
                                                    "with 'clang-offload-bundler --unbundle --type=o");
}

TEST(BadInput, WrongOsAbi) {
  Image img = v4_image();
  img[7] = 65;
  EXPECT_ERROR(img, "OS/ABI is 65 (AMDGPU PAL), not 64 (AMDGPU HSA)");
  img[7] = 0;
  EXPECT_ERROR(img, "OS/ABI is 0 (System V)");
}

TEST(BadInput, UnsupportedCodeObjectVersionIsNamed) {
  Image img = v4_image();
  img[8] = 4;
  EXPECT_ERROR(img, "unsupported code object version v6 (EI_ABIVERSION 4); strobe supports v2 to v5");
  // v2 files carry their version in a note as well; a v1 or v3 claim there is refused.
  img = v2_image();
  const uint64_t desc = first_metadata_note(img, 1).first;
  poke<uint32_t>(img, desc, 1);
  EXPECT_ERROR(img, "unsupported code object version v1 (NT_AMD_HSA_CODE_OBJECT_VERSION note)");
}

TEST(BadInput, RelocatableObjectNeedsLinking) {
  Image img = v4_image();
  poke<uint16_t>(img, 16, 1);
  EXPECT_ERROR(img, "relocatable object (ET_REL), not a linked code object; link it with 'ld.lld -shared'");
}

TEST(BadInput, OtherTargetIsNamed) {
  Image img = v4_image();
  poke<uint32_t>(img, 48, 0x52F);  // gfx906 with sramecc/xnack "any" bits
  EXPECT_ERROR(img, "code object built for gfx906; strobe simulates gfx803");
  poke<uint32_t>(img, 48, 0x7E);
  EXPECT_ERROR(img, "built for an unknown processor (EF_AMDGPU_MACH 0x7e)");
  // v4 also names the target in the metadata; a contradiction there is caught too.
  img = v4_image();
  ASSERT_EQ(replace_all(img, "--gfx803", "--gfx900"), 1);
  EXPECT_ERROR(img, "code object built for gfx900; strobe simulates gfx803");
  // v2 names it in the ISA notes.
  img = v2_image();
  ASSERT_GE(replace_all(img, "--gfx803", "--gfx90a"), 1);
  EXPECT_ERROR(img, "code object built for gfx90a; strobe simulates gfx803");
}

TEST(BadInput, V2TargetFromIsaVersionNote) {
  Image img = v2_image();
  const uint64_t name_note = first_metadata_note(img, 11).second;
  poke<uint32_t>(img, name_note + 8, 99);  // hide the ISA name note; the version note remains
  const uint64_t isa = first_metadata_note(img, 3).first;
  poke<uint32_t>(img, isa + 4, 9);
  poke<uint32_t>(img, isa + 8, 0);
  poke<uint32_t>(img, isa + 12, 6);
  EXPECT_ERROR(img, "code object built for gfx906");
  poke<uint32_t>(img, isa + 4, 8);
  poke<uint32_t>(img, isa + 12, 3);
  EXPECT_EQ(CodeObject::parse(img, "ok").target(), "amdgcn-amd-amdhsa--gfx803");
}

TEST(BadInput, V2TargetSourcesMustAgree) {
  // The ISA name says gfx803; e_flags and the ISA version note are checked as well.
  Image img = v2_image();
  poke<uint32_t>(img, 48, 0x2F);  // EF_AMDGPU_MACH gfx906
  EXPECT_ERROR(img, "code object built for gfx906; strobe simulates gfx803");
  img = v2_image();
  const uint64_t isa = first_metadata_note(img, 3).first;
  img[isa + 16] = 'X';  // vendor "AMD" -> "XMD"
  EXPECT_ERROR(img, "NT_AMD_HSA_ISA_VERSION note names vendor 'XMD' and architecture 'AMDGPU', not AMD and AMDGPU");
}

TEST(BadInput, MissingKernelListsTheKernelsThatExist) {
  const CodeObject co = CodeObject::load(build_object("kernels/loader/args.hsaco").string());
  try {
    co.kernel("nope");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), build_object("kernels/loader/args.hsaco").string() +
                                         ": no kernel named 'nope'; its kernels are: many_args, two_locals");
  }
}

TEST(BadInput, MissingOrUnreadableFile) {
  try {
    CodeObject::load("/nonexistent/k.hsaco");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "/nonexistent/k.hsaco: cannot open: No such file or directory");
  }
  EXPECT_THROW(CodeObject::load("/tmp"), InputError);
}

TEST(BadInput, TruncatedFile) {
  const Image full = v4_image();
  EXPECT_ERROR(Image(full.begin(), full.begin() + 40), "truncated: 40 bytes is shorter than the 64-byte ELF64 header");
  EXPECT_ERROR(Image(full.begin(), full.end() - 1), "truncated or corrupt: section header table");
  // Cut in the middle of the sections: the section table is gone too, so say so.
  EXPECT_ERROR(Image(full.begin(), full.begin() + full.size() / 2), "truncated");
}

TEST(BadInput, CorruptSectionHeader) {
  Image img = v4_image();
  poke<uint64_t>(img, section_header(img, ".text") + 24, 0xFFFF'FFFF'FFFF'FF00ull);  // sh_offset near 2^64
  EXPECT_ERROR(img, "extends past the end of the");
  img = v4_image();
  poke<uint16_t>(img, 62, 200);  // e_shstrndx
  EXPECT_ERROR(img, "section name string table index 200 is out of range");
  img = v4_image();
  poke<uint16_t>(img, 58, 40);  // e_shentsize
  EXPECT_ERROR(img, "e_shentsize is 40");
}

TEST(BadInput, CorruptSymbol) {
  Image img = v4_image();
  const uint64_t symtab = section_header(img, ".symtab");
  const uint64_t symtab_offset = *reinterpret_cast<const uint64_t*>(img.data() + symtab + 24);
  poke<uint32_t>(img, symtab_offset + 24, 0x7FFF'FFFF);  // st_name of symbol 1
  EXPECT_ERROR(img, "symbol name offset 0x7fffffff lies outside string table '.strtab'");
  img = v4_image();
  ASSERT_GE(replace_all(img, std::string_view("many_args.kd\0", 13), std::string_view("many_args.kx\0", 13)), 1);
  EXPECT_ERROR(img, "kernel 'many_args': its descriptor symbol 'many_args.kd' is not defined");
}

TEST(BadInput, DescriptorOutsideTheImage) {
  Image img = v4_image();
  const CodeObject co = CodeObject::parse(img, "ok");
  const uint64_t kd_addr = co.kernels()[0].descriptor_address;
  // Move the descriptor symbol's st_value (in .symtab) far away.
  const uint64_t symtab = section_header(img, ".symtab");
  const uint64_t off = *reinterpret_cast<const uint64_t*>(img.data() + symtab + 24);
  const uint64_t size = *reinterpret_cast<const uint64_t*>(img.data() + symtab + 32);
  for (uint64_t s = off; s < off + size; s += 24)
    if (*reinterpret_cast<const uint64_t*>(img.data() + s + 8) == kd_addr) poke<uint64_t>(img, s + 8, 0x10'0000'0000ull);
  EXPECT_ERROR(img, "kernel descriptor 'many_args.kd' at 0x1000000000 (64 bytes) lies outside the loaded segments");
}

TEST(BadInput, EntryOutsideText) {
  Image img = v4_image();
  const CodeObject co = CodeObject::parse(img, "ok");
  // Find the descriptor bytes in the file by content and patch kernel_code_entry_byte_offset.
  const auto kd = co.bytes_at(co.kernels()[0].descriptor_address, 64);
  auto it = std::search(img.begin(), img.end(), kd.begin(), kd.end());
  ASSERT_NE(it, img.end());
  poke<int64_t>(img, (it - img.begin()) + 16, 0x4000'0000);
  EXPECT_ERROR(img, "kernel 'many_args': entry 0x");
  EXPECT_ERROR(img, "lies outside .text");
  poke<int64_t>(img, (it - img.begin()) + 16, INT64_MIN);
  EXPECT_ERROR(img, "kernel_code_entry_byte_offset -9223372036854775808 points outside the address space");
}

TEST(BadInput, CorruptNote) {
  Image img = v4_image();
  const auto [desc, header] = first_metadata_note(img, 32);
  poke<uint32_t>(img, header + 4, 0x7FFF'0000);  // descsz
  EXPECT_ERROR(img, "corrupt note in '.note' at offset 0x0: its 2147418112-byte descriptor runs past the section end");
  img = v4_image();
  poke<uint32_t>(img, header + 8, 33);  // not the metadata type any more
  EXPECT_ERROR(img, "has no NT_AMDGPU_METADATA note");
}

TEST(BadInput, MalformedMsgpack) {
  Image img = v4_image();
  const auto [desc, header] = first_metadata_note(img, 32);
  img[desc] = 0xC1;  // the one byte msgpack never uses
  EXPECT_ERROR(img, "NT_AMDGPU_METADATA is not valid msgpack");
  img = v4_image();
  img[desc] = 0x93;  // a 3-element array instead of the root map: it ends early
  EXPECT_ERROR(img, "bytes of trailing data after its msgpack object");
}

TEST(BadInput, MalformedMsgpackValues) {
  Image img = v4_image();
  // ".value_kind" strings: make "global_buffer" an unknown kind of the same length.
  ASSERT_GE(replace_all(img, "global_buffer", "global_bufxer"), 1);
  EXPECT_ERROR(img, "unsupported kernel argument value kind 'global_bufxer'");
  img = v4_image();
  ASSERT_EQ(replace_all(img, ".kernarg_segment_size", ".kernarg_segment_sizz"), 2);
  // Without the metadata size, the descriptor's kernarg_size (160) is used: still valid.
  EXPECT_EQ(CodeObject::parse(img, "ok").kernels()[0].kernarg_segment_size, 160u);
  img = v4_image();
  ASSERT_EQ(replace_all(img, ".symbol", ".symbox"), 2);
  EXPECT_ERROR(img, "metadata of kernel 'many_args' has no .symbol");
}

TEST(BadInput, MalformedYaml) {
  Image img = v2_image();
  ASSERT_EQ(replace_all(img, "Version:         [ 1, 0 ]", "Version:         [ 1, 0  "), 1);
  EXPECT_ERROR(img, "YAML line 2: unterminated flow sequence");
  img = v2_image();
  ASSERT_EQ(replace_all(img, "  - Name:", "\t - Name:"), 2);
  EXPECT_ERROR(img, "tab in indentation");
  img = v2_image();
  ASSERT_EQ(replace_all(img, "KernargSegmentSize: 160", "KernargSegmentSize: 008"), 1);
  EXPECT_ERROR(img, "kernel 'many_args': argument 3 (offset 8, size 8) lies outside its 8-byte kernarg segment");
  img = v2_image();
  ASSERT_EQ(replace_all(img, "NumSGPRs:        31", "NumSGPRs:        3x"), 1);
  EXPECT_ERROR(img, "metadata YAML line 112: NumSGPRs is not a non-negative integer");
  img = v2_image();
  ASSERT_GE(replace_all(img, "ValueKind:       ByValue", "ValueKind:       Unknown"), 1);
  EXPECT_ERROR(img, "unsupported kernel argument ValueKind 'Unknown'");
  img = v2_image();
  ASSERT_GE(replace_all(img, "Align:           4", "Align:           3"), 1);
  EXPECT_ERROR(img, "has Align 3, not a power of two");
}

TEST(BadInput, MetadataForAKernelThatDoesNotExist) {
  Image img = v2_image();
  ASSERT_EQ(replace_all(img, "Name:            many_args", "Name:            many_argx"), 1);
  EXPECT_ERROR(img, "kernel 'many_argx': no STT_AMDGPU_HSA_KERNEL symbol of that name");
}

}  // namespace
}  // namespace strobe::loader
