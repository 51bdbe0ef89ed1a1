// `strobe disasm` mirrors llvm-objdump -d --mcpu=gfx803 line for line, for code objects and --raw.
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <sstream>

#include "cli/cli_runner.h"

namespace strobe::clitest {
namespace {

/// Instruction lines of llvm-objdump output keyed by address.
std::map<uint64_t, std::string> objdump_lines(const std::string& file) {
  std::map<uint64_t, std::string> lines;
  std::istringstream in(shell("llvm-objdump -d --mcpu=gfx803 '" + file + "'"));
  static const std::regex addr(R"(// ([0-9A-F]{12}): )");
  std::string line;
  std::smatch m;
  while (std::getline(in, line))
    if (!line.empty() && line[0] == '\t' && std::regex_search(line, m, addr)) lines[std::stoull(m[1], nullptr, 16)] = line;
  return lines;
}

std::vector<std::filesystem::path> all_kernels() {
  std::vector<std::filesystem::path> out;
  for (auto& e : std::filesystem::recursive_directory_iterator(STROBE_BUILD_DIR))
    if (e.path().extension() == ".hsaco") out.push_back(e.path());
  return out;
}

TEST(DisasmCli, EveryBuiltKernelMatchesObjdumpLineForLine) {
  auto files = all_kernels();
  ASSERT_FALSE(files.empty());
  size_t checked = 0;
  for (const auto& f : files) {
    auto ref = objdump_lines(f.string());
    auto r = run_strobe("disasm '" + f.string() + "'");
    ASSERT_EQ(r.rc, 0) << f << ": " << r.err;
    std::istringstream in(r.out);
    std::string line;
    static const std::regex addr(R"(// ([0-9A-F]{12}): )");
    static const std::regex label(R"(^<[A-Za-z_][A-Za-z0-9_.]*>:$)");
    std::smatch m;
    size_t kernels = 0;
    while (std::getline(in, line)) {
      if (std::regex_match(line, label)) { ++kernels; continue; }
      ASSERT_TRUE(std::regex_search(line, m, addr)) << f << ": unexpected line '" << line << "'";
      uint64_t a = std::stoull(m[1], nullptr, 16);
      ASSERT_TRUE(ref.count(a)) << f << ": objdump has no instruction at " << m[1];
      ASSERT_EQ(line, ref[a]) << f;
      ++checked;
    }
    EXPECT_GT(kernels, 0u) << f;
  }
  EXPECT_GT(checked, 1000u);
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
