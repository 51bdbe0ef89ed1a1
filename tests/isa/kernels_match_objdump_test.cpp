// Every code object the build produces disassembles exactly as llvm-objdump prints it: gfx803's
// as LLVM 14 does, gfx942's (build/gfx942-kernels) as LLVM 19 does.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "isa/listing.h"
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

TEST(KernelDisassembly, EveryBuiltCodeObjectMatchesLlvmObjdumpLineForLine) {
  auto files = all_code_objects();
  ASSERT_FALSE(files.empty()) << "no .hsaco under " << STROBE_BUILD_DIR;
  size_t total = 0, bad = 0;
  for (const auto& f : files) {
    auto text = testing::read_text(f);
    ListingSection section{".text", text.address, text.bytes, {}, text.target};
    for (auto& [addr, name, type] : text.typed_symbols) section.symbols.push_back({addr, name, type});
    // objdump's first two lines are the file heading; the section listing follows.
    auto expected = testing::objdump_listing(f, text.target);
    expected.erase(expected.begin(), expected.begin() + std::min<size_t>(2, expected.size()));
    auto actual = testing::split_lines(list_section(section));
    EXPECT_EQ(actual.size(), expected.size()) << f;
    for (size_t i = 0; i < std::min(actual.size(), expected.size()); ++i)
      if (actual[i] != expected[i] && ++bad <= 5) ADD_FAILURE() << f << " line " << i + 3 << "\n  strobe:  " << actual[i]
                                                              << "\n  objdump: " << expected[i];
    bad += std::max(actual.size(), expected.size()) - std::min(actual.size(), expected.size());
    total += expected.size();
  }
  RecordProperty("lines", static_cast<int>(total));
  EXPECT_EQ(bad, 0u) << "mismatching lines";
}

}  // namespace
}  // namespace strobe::isa
