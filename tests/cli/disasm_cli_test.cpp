// `strobe disasm` mirrors llvm-objdump -d line for line, for code objects and --raw: LLVM 14's
// --mcpu=gfx803, and LLVM 19's --mcpu=gfx942 for gfx942 code objects (build/gfx942-kernels).
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

/// stdout of `strobe disasm FILE` and of `llvm-objdump -d --mcpu=P FILE` for the file's processor
/// (gfx942 code objects are built into gfx942-kernels), as lines.
struct Listings {
  std::vector<std::string> strobe, objdump;
};

Listings listings(const std::filesystem::path& f) {
  auto r = run_strobe("disasm '" + f.string() + "'");
  EXPECT_EQ(r.rc, 0) << f << ": " << r.err;
  const bool gfx942 = f.parent_path().string().find("gfx942-kernels") != std::string::npos;
  const std::string objdump = gfx942 ? "llvm-objdump-19 -d --mcpu=gfx942 '" : "llvm-objdump -d --mcpu=gfx803 '";
  return {lines_of(r.out), lines_of(shell(objdump + f.string() + "'"))};
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

TEST(DisasmCli, RawStreamDecodesAsGfx942WithMcpu) {
  TempDir t;
  // v_pk_fma_f32 v[0:1], v[0:1], v[2:3], v[4:5] ; global_load_dword v1, v0, s[2:3] ; s_endpgm
  const uint32_t words[] = {0xD3B04000, 0x1C120500, 0xDC508000, 0x01020000, 0xBF810000};
  std::ofstream(t.path / "x.bin", std::ios::binary).write(reinterpret_cast<const char*>(words), sizeof words);
  const std::string bin = (t.path / "x.bin").string();
  auto r = run_strobe("disasm --raw --mcpu gfx942 " + bin);
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("v_pk_fma_f32 v[0:1], v[0:1], v[2:3], v[4:5]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("global_load_dword v1, v0, s[2:3]"), std::string::npos) << r.out;
  // The same bytes as gfx803 (the default) are other instructions.
  auto g8 = run_strobe("disasm --raw " + bin);
  ASSERT_EQ(g8.rc, 0) << g8.err;
  EXPECT_EQ(g8.out.find("v_pk_fma_f32"), std::string::npos) << g8.out;
  auto bad = run_strobe("disasm --raw --mcpu gfx90a " + bin);
  EXPECT_EQ(bad.rc, 2);
  EXPECT_NE(bad.err.find("--mcpu gfx90a: strobe decodes gfx803 and gfx942"), std::string::npos) << bad.err;
}

TEST(DisasmCli, Gfx942CodeObjectListsButDoesNotLaunch) {
  const std::string f = std::string(STROBE_BUILD_DIR) + "/gfx942-kernels/tests/vecadd.hsaco";
  if (!std::filesystem::exists(f)) GTEST_SKIP() << "no clang-19 build: " << f;
  auto r = run_strobe("disasm " + f);
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("<vecadd>:"), std::string::npos);
  auto wrong = run_strobe("disasm --mcpu gfx803 " + f);
  EXPECT_EQ(wrong.rc, 2);
  EXPECT_NE(wrong.err.find("built for gfx942, not for --mcpu gfx803"), std::string::npos) << wrong.err;
  // Running it is refused with one error naming both processors.
  auto launch = run_strobe("launch " + f + " --kernel vecadd --grid 64 --arg zeros:256 --arg zeros:256 --arg zeros:256");
  EXPECT_EQ(launch.rc, 2);
  EXPECT_NE(launch.err.find("code object built for gfx942; strobe simulates gfx803"), std::string::npos) << launch.err;
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
