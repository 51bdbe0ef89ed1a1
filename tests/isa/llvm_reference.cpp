#include "isa/llvm_reference.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace strobe::isa::testing {

namespace {

std::string run(const std::string& cmd) {
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) throw std::runtime_error("cannot run: " + cmd);
  std::string out;
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  if (pclose(p) != 0) throw std::runtime_error("command failed: " + cmd);
  return out;
}

std::string temp_base() {
  static std::atomic<int> counter{0};
  return "/tmp/strobe_isa_ref_" + std::to_string(getpid()) + "_" + std::to_string(counter++);
}

template <class T>
T get(const std::vector<uint8_t>& b, size_t off) {
  if (off + sizeof(T) > b.size()) throw std::runtime_error("truncated ELF");
  T v;
  std::memcpy(&v, b.data() + off, sizeof v);
  return v;
}

}  // namespace

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) out.push_back(line);
  return out;
}

namespace {

/// The reference LLVM's tool suffix for `target`: LLVM 14 (Debian's default) reads gfx803 as the
/// decoder was built against; gfx942 needs LLVM 19.
std::string tool(const char* name, Target target) {
  return std::string(name) + (target == Target::Gfx942 ? "-19" : "");
}

std::vector<std::string> instruction_lines(const std::string& file, Target target) {
  std::vector<std::string> out;
  for (auto& l : split_lines(run(tool("llvm-objdump", target) + " -d --mcpu=" + target_name(target) + " '" + file + "'")))
    if (!l.empty() && l[0] == '\t') out.push_back(l);
  return out;
}

}  // namespace

std::vector<std::string> objdump_lines(const std::string& file) { return instruction_lines(file, Target::Gfx803); }

std::vector<std::string> objdump_listing(const std::string& file, Target target) {
  return split_lines(run(tool("llvm-objdump", target) + " -d --mcpu=" + target_name(target) + " '" + file + "'"));
}

std::vector<std::string> llvm_lines_for_words(const std::vector<uint32_t>& words, Target target) {
  std::string base = temp_base();
  {
    std::ofstream s(base + ".s");
    s << ".text\n";
    char buf[32];
    for (uint32_t w : words) {
      std::snprintf(buf, sizeof buf, ".long 0x%08x\n", w);
      s << buf;
    }
  }
  run(tool("llvm-mc", target) + " -arch=amdgcn -mcpu=" + target_name(target) + " -filetype=obj " + base + ".s -o " +
      base + ".o");
  auto lines = instruction_lines(base + ".o", target);
  std::remove((base + ".s").c_str());
  std::remove((base + ".o").c_str());
  return lines;
}

TextSection read_text(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + file);
  std::vector<uint8_t> b((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (b.size() < 64 || std::memcmp(b.data(), "\x7f" "ELF", 4) != 0 || b[4] != 2)
    throw std::runtime_error("not an ELF64 file: " + file);
  uint64_t shoff = get<uint64_t>(b, 0x28);
  uint16_t shentsize = get<uint16_t>(b, 0x3A), shnum = get<uint16_t>(b, 0x3C), shstrndx = get<uint16_t>(b, 0x3E);
  auto sh = [&](unsigned i, unsigned field_off, auto type_tag) {
    return get<decltype(type_tag)>(b, shoff + size_t(i) * shentsize + field_off);
  };
  uint64_t strtab_off = sh(shstrndx, 0x18, uint64_t{});
  TextSection t;
  if ((get<uint32_t>(b, 0x30) & 0xFF) == 0x4C) t.target = Target::Gfx942;  // e_flags' EF_AMDGPU_MACH
  int text_index = -1;
  for (unsigned i = 0; i < shnum; ++i) {
    std::string name(reinterpret_cast<const char*>(b.data() + strtab_off + sh(i, 0, uint32_t{})));
    if (name == ".text") {
      text_index = static_cast<int>(i);
      t.address = sh(i, 0x10, uint64_t{});
      uint64_t off = sh(i, 0x18, uint64_t{}), size = sh(i, 0x20, uint64_t{});
      t.bytes.assign(b.begin() + off, b.begin() + off + size);
    }
  }
  if (text_index < 0) throw std::runtime_error("no .text in " + file);
  for (unsigned i = 0; i < shnum; ++i) {
    if (sh(i, 4, uint32_t{}) != 2 /* SHT_SYMTAB */) continue;
    uint64_t off = sh(i, 0x18, uint64_t{}), size = sh(i, 0x20, uint64_t{});
    uint32_t link = sh(i, 0x28, uint32_t{});
    uint64_t str = sh(link, 0x18, uint64_t{});
    for (uint64_t p = off; p + 24 <= off + size; p += 24) {
      uint32_t name = get<uint32_t>(b, p);
      uint16_t shndx = get<uint16_t>(b, p + 6);
      uint8_t info = b[p + 4];
      if (shndx != text_index || name == 0 || (info & 0xF) == 3 /* STT_SECTION */) continue;
      if ((info & 0xF) == 10 /* STT_AMDGPU_HSA_KERNEL */) t.v2_kernels.push_back(get<uint64_t>(b, p + 8));
      t.symbols.emplace_back(get<uint64_t>(b, p + 8), reinterpret_cast<const char*>(b.data() + str + name));
      t.typed_symbols.emplace_back(get<uint64_t>(b, p + 8), reinterpret_cast<const char*>(b.data() + str + name),
                                   uint8_t(info & 0xF));
    }
  }
  std::sort(t.symbols.begin(), t.symbols.end());
  std::sort(t.v2_kernels.begin(), t.v2_kernels.end());
  t.v2_kernels.erase(std::unique(t.v2_kernels.begin(), t.v2_kernels.end()), t.v2_kernels.end());
  return t;
}

}  // namespace strobe::isa::testing
