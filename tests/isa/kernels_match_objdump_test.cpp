// Every code object the build produces disassembles exactly as llvm-objdump prints it.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

#include "isa/disassembler.h"
#include "isa/llvm_reference.h"

namespace strobe::isa {
namespace {

std::vector<std::string> all_code_objects() {
  std::vector<std::string> files;
  for (auto& e : std::filesystem::recursive_directory_iterator(STROBE_BUILD_DIR))
    if (e.is_regular_file() && e.path().extension() == ".hsaco") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

// objdump labels a branch target with the nearest preceding .text symbol, or ".text" itself.
TargetLabeler symbol_labeler(const testing::TextSection& t) {
  return [&t](uint64_t target) {
    const std::pair<uint64_t, std::string>* best = nullptr;
    for (auto& s : t.symbols)
      if (s.first <= target) best = &s;
    char buf[32];
    if (!best) {
      std::snprintf(buf, sizeof buf, "+0x%llx", static_cast<unsigned long long>(target - t.address));
      return ".text" + std::string(buf);
    }
    if (target == best->first) return best->second;
    std::snprintf(buf, sizeof buf, "+0x%llx", static_cast<unsigned long long>(target - best->first));
    return best->second + buf;
  };
}

TargetLabeler text_relative_labeler() {
  return [](uint64_t target) {
    char buf[40];
    std::snprintf(buf, sizeof buf, ".text+0x%llx", static_cast<unsigned long long>(target));
    return std::string(buf);
  };
}

TEST(KernelDisassembly, EveryBuiltCodeObjectMatchesLlvmObjdumpLineForLine) {
  auto files = all_code_objects();
  ASSERT_FALSE(files.empty()) << "no .hsaco under " << STROBE_BUILD_DIR;
  size_t total = 0;
  for (const auto& f : files) {
    auto text = testing::read_text(f);
    if (!text.v2_kernels.empty()) {
      // objdump only dumps v2 kernels as bytes; compare each kernel's code after its 256-byte
      // header through llvm-mc instead.
      auto& ks = text.v2_kernels;
      for (size_t k = 0; k < ks.size(); ++k) {
        size_t start = ks[k] - text.address + 256;
        size_t end = k + 1 < ks.size() ? ks[k + 1] - text.address : text.bytes.size();
        std::vector<uint8_t> code(text.bytes.begin() + start, text.bytes.begin() + end);
        std::vector<uint32_t> words(code.size() / 4);
        std::memcpy(words.data(), code.data(), words.size() * 4);
        auto expected = testing::llvm_lines_for_words(words);
        auto actual = testing::split_lines(disassemble(code, 0, text_relative_labeler()));
        ASSERT_EQ(actual.size(), expected.size()) << f;
        for (size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(actual[i], expected[i]) << f << " line " << i;
        total += expected.size();
      }
      continue;
    }
    auto expected = testing::objdump_lines(f);
    auto actual = testing::split_lines(disassemble(text.bytes, text.address, symbol_labeler(text)));
    ASSERT_EQ(actual.size(), expected.size()) << f;
    for (size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(actual[i], expected[i]) << f << " line " << i;
    total += expected.size();
  }
  RecordProperty("instructions", static_cast<int>(total));
}

}  // namespace
}  // namespace strobe::isa
