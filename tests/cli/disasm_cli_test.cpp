// `strobe disasm` mirrors llvm-objdump -d --mcpu=gfx803 line for line, for code objects and --raw.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string_view>
#include <vector>

#include "cli/cli_runner.h"

namespace strobe::clitest {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::vector<std::filesystem::path> all_kernels() {
  std::vector<std::filesystem::path> out;
  for (auto& e : std::filesystem::recursive_directory_iterator(STROBE_BUILD_DIR))
    if (e.path().extension() == ".hsaco") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

/// stdout of `strobe disasm FILE` and of `llvm-objdump -d --mcpu=gfx803 FILE`, as lines.
struct Listings {
  std::vector<std::string> strobe, objdump;
};

Listings listings(const std::filesystem::path& f) {
  auto r = run_strobe("disasm '" + f.string() + "'");
  EXPECT_EQ(r.rc, 0) << f << ": " << r.err;
  return {lines_of(r.out), lines_of(shell("llvm-objdump -d --mcpu=gfx803 '" + f.string() + "'"))};
}

/// Lines that differ (position by position, plus any surplus), the first few reported.
size_t mismatches(const std::filesystem::path& f, const Listings& l) {
  size_t bad = std::max(l.strobe.size(), l.objdump.size()) - std::min(l.strobe.size(), l.objdump.size());
  for (size_t i = 0; i < std::min(l.strobe.size(), l.objdump.size()); ++i) {
    if (l.strobe[i] == l.objdump[i]) continue;
    if (++bad <= 3) ADD_FAILURE() << f << " line " << i + 1 << "\n  strobe:  " << l.strobe[i] << "\n  objdump: " << l.objdump[i];
  }
  EXPECT_EQ(l.strobe.size(), l.objdump.size()) << f;
  return bad;
}

TEST(DisasmCli, EveryBuiltCodeObjectListsExactlyAsObjdump) {
  auto files = all_kernels();
  ASSERT_FALSE(files.empty());
  size_t lines = 0, bad = 0;
  for (const auto& f : files) {
    const Listings l = listings(f);
    bad += mismatches(f, l);
    lines += l.objdump.size();
  }
  RecordProperty("lines", static_cast<int>(lines));
  RecordProperty("mismatching_lines", static_cast<int>(bad));
  EXPECT_EQ(bad, 0u);
  EXPECT_GT(lines, 1000u);
}

/// Index of the first line equal to `line`, or npos.
size_t find_line(const std::vector<std::string>& lines, std::string_view line, size_t from = 0) {
  for (size_t i = from; i < lines.size(); ++i)
    if (lines[i] == line) return i;
  return std::string::npos;
}

TEST(DisasmCli, PaddingPastASymbolsSizeIsListedUpToTheNextSymbol) {
  // math_exact's st_size ends at its s_endpgm; s_nop padding fills .text up to math_approx.
  const Listings l = listings(kernel("math_builtins"));
  size_t approx = std::string::npos;
  for (size_t i = 0; i < l.strobe.size(); ++i)
    if (l.strobe[i].ends_with(" <math_approx>:")) approx = i;
  ASSERT_NE(approx, std::string::npos);
  ASSERT_GE(approx, 2u);
  EXPECT_EQ(l.strobe[approx - 1], "");
  EXPECT_TRUE(l.strobe[approx - 2].starts_with("\ts_nop 0 ")) << l.strobe[approx - 2];
  EXPECT_EQ(l.strobe, l.objdump);
}

TEST(DisasmCli, V2KernelHeaderIsListedAsBytesBeforeItsCode) {
  const Listings l = listings(std::string(STROBE_BUILD_DIR) + "/kernels-v2/vecadd.hsaco");
  const size_t err = find_line(l.strobe, "// Error in decoding vecadd : Decoding failed region as bytes.");
  ASSERT_NE(err, std::string::npos);
  ASSERT_GT(l.strobe.size(), err + 257);
  for (size_t i = err + 1; i <= err + 256; ++i) EXPECT_TRUE(l.strobe[i].starts_with("\t.byte\t 0x")) << l.strobe[i];
  EXPECT_TRUE(l.strobe[err + 257].find("// ") != std::string::npos) << l.strobe[err + 257];
  EXPECT_EQ(l.strobe, l.objdump);
}

TEST(DisasmCli, LocalBranchSymbolsNameTargetsAndStartBlocks) {
  const auto f = std::filesystem::path(STROBE_BUILD_DIR) / "kernels-devlibs-labels" / "reduce_sum.hsaco";
  if (!std::filesystem::exists(f)) GTEST_SKIP() << f << " needs clang-15 and the ROCm device libraries";
  const Listings l = listings(f);
  bool heading = false, operand = false;
  for (const auto& line : l.strobe) {
    heading |= line.find(" <.LBB0_") != std::string::npos && line.ends_with(">:");
    // The symbol replaces the branch offset, and no "<sym+0x..>" comment follows.
    operand |= line.starts_with("\ts_cbranch") && line.find(" .LBB0_") != std::string::npos && !line.ends_with(">");
  }
  EXPECT_TRUE(heading);
  EXPECT_TRUE(operand);
  EXPECT_EQ(l.strobe, l.objdump);
}

TEST(DisasmCli, EveryFunctionOfACodeObjectIsListedInTextOrder) {
  const auto f = std::filesystem::path(STROBE_BUILD_DIR) / "kernels-hip" / "O0" / "calls.hsaco";
  if (!std::filesystem::exists(f)) GTEST_SKIP() << f << " needs hipcc";
  const Listings l = listings(f);
  size_t kernel_at = std::string::npos, helper_at = std::string::npos;
  for (size_t i = 0; i < l.strobe.size(); ++i) {
    if (l.strobe[i].ends_with(" <call_poly>:")) kernel_at = i;
    if (l.strobe[i].ends_with(" <_Z4polyf>:")) helper_at = i;
  }
  EXPECT_NE(kernel_at, std::string::npos);
  EXPECT_NE(helper_at, std::string::npos);
  EXPECT_EQ(l.strobe, l.objdump);
}

TEST(DisasmCli, RawByteStreamDecodesFromOffsetZero) {
  TempDir t;
  // v_mov_b32 v0, s2 ; an undecodable VOP3 word ; s_endpgm
  const uint32_t words[] = {0x7E000202, 0xD1010000, 0x04020100, 0xBF810000};
  std::ofstream(t.path / "x.bin", std::ios::binary).write(reinterpret_cast<const char*>(words), sizeof words);
  auto r = run_strobe("disasm --raw " + (t.path / "x.bin").string());
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("v_mov_b32_e32 v0, s2"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(".long 0xd1010000"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("// 000000000004: D1010000"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("s_endpgm"), std::string::npos) << r.out;
}

TEST(DisasmCli, CorruptCodeObjectIsBadInput) {
  TempDir t;
  std::string bytes = slurp(kernel("vecadd"));
  bytes.resize(100);
  std::ofstream(t.path / "cut.hsaco", std::ios::binary) << bytes;
  auto r = run_strobe("disasm " + (t.path / "cut.hsaco").string());
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("cut.hsaco"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace strobe::clitest
