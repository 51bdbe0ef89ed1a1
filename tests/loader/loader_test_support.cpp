// Implementation of the loader test helpers.
#include "loader/loader_test_support.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace strobe::loader::testing {

namespace fs = std::filesystem;

std::vector<fs::path> all_code_objects() {
  std::vector<fs::path> out;
  for (const auto& dir : fs::directory_iterator(STROBE_BUILD_DIR)) {
    if (!dir.is_directory() || !dir.path().filename().string().starts_with("kernels")) continue;
    for (const auto& f : fs::recursive_directory_iterator(dir.path()))
      if (f.is_regular_file() && f.path().extension() == ".hsaco") out.push_back(f.path());
  }
  for (const auto& f : fs::directory_iterator(fs::path(STROBE_SOURCE_DIR) / "tests/loader/data"))
    if (f.path().extension() == ".hsaco") out.push_back(f.path());
  std::sort(out.begin(), out.end());
  return out;
}

fs::path fixture(const std::string& name) { return fs::path(STROBE_SOURCE_DIR) / "tests/loader/data" / name; }

fs::path build_object(const std::string& relative) { return fs::path(STROBE_BUILD_DIR) / relative; }

bool have_clang19_objects() {
  const fs::path dir = fs::path(STROBE_BUILD_DIR) / "kernels-clang19";
  if (!fs::is_directory(dir)) return false;
  for (const auto& f : fs::recursive_directory_iterator(dir))
    if (f.path().extension() == ".hsaco") return true;
  return false;
}

std::vector<uint8_t> read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string run_command(const std::string& cmd) {
  std::string out;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) {
    ADD_FAILURE() << "cannot run: " << cmd;
    return out;
  }
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) out.append(buf.data(), n);
  const int status = pclose(pipe);
  EXPECT_EQ(status, 0) << "command failed: " << cmd;
  return out;
}

std::string llvm_tool(const std::string& tool) {
  for (const std::string& candidate : {tool + "-19", tool + "-18", tool + "-17", tool})
    if (std::system(("command -v " + candidate + " >/dev/null 2>&1").c_str()) == 0) return candidate;
  return tool;
}

std::map<uint64_t, std::vector<uint8_t>> objdump_section(const fs::path& p, const std::string& section) {
  std::istringstream text(run_command(llvm_tool("llvm-objdump") + " -s -j " + section + " '" + p.string() + "'"));
  std::map<uint64_t, std::vector<uint8_t>> out;
  std::string line;
  uint64_t start = 0, next = 0;
  bool in_section = false;
  while (std::getline(text, line)) {
    if (line.starts_with("Contents of section")) { in_section = true; continue; }
    if (!in_section || line.size() < 2 || line[0] != ' ') continue;
    // " 1b00 01000000 02000000 01000800 00000300  ................": address, up to 4 hex words, ASCII.
    std::istringstream fields(line.substr(0, std::min<size_t>(line.size(), 1 + 16 + 4 * 9)));
    std::string addr_text;
    fields >> addr_text;
    const uint64_t addr = std::stoull(addr_text, nullptr, 16);
    if (out.empty() || addr != next) { start = addr; out[start]; }
    std::vector<uint8_t>& bytes = out[start];
    std::string word;
    while (fields >> word) {
      if (word.size() % 2 != 0 || word.find_first_not_of("0123456789abcdef") != std::string::npos) break;
      for (size_t i = 0; i < word.size(); i += 2) bytes.push_back(static_cast<uint8_t>(std::stoul(word.substr(i, 2), nullptr, 16)));
    }
    next = start + bytes.size();
  }
  return out;
}

std::vector<ReadelfSymbol> readelf_symbols(const fs::path& p) {
  std::istringstream text(run_command(llvm_tool("llvm-readelf") + " -s '" + p.string() + "'"));
  std::vector<ReadelfSymbol> out;
  std::string line;
  while (std::getline(text, line)) {
    // "     1: 0000000000001b00   432 AMDGPU_HSA_KERNEL GLOBAL PROTECTED   6 vecadd"
    std::istringstream f(line);
    std::string num, value, size, type, bind, vis, ndx, name;
    if (!(f >> num >> value >> size >> type >> bind >> vis >> ndx) || num.back() != ':') continue;
    if (value.find_first_not_of("0123456789abcdef") != std::string::npos) continue;  // the header row
    f >> name;
    if (name.empty() || ndx == "UND") continue;
    ReadelfSymbol s;
    s.value = std::stoull(value, nullptr, 16);
    s.size = std::stoull(size, nullptr, 0);
    s.type = type;
    s.name = name;
    out.push_back(s);
  }
  return out;
}

std::string readelf_metadata_yaml(const fs::path& p) {
  std::istringstream text(run_command(llvm_tool("llvm-readelf") + " --notes '" + p.string() + "'"));
  std::string line, yaml;
  bool in_doc = false;
  while (std::getline(text, line)) {
    // The document starts after an indented "---" and ends at "...".
    const std::string trimmed = line.substr(std::min(line.size(), line.find_first_not_of(' ')));
    if (!in_doc && trimmed == "---") { in_doc = true; continue; }
    if (in_doc && trimmed == "...") break;
    if (in_doc) yaml += line + "\n";
  }
  return yaml;
}

}  // namespace strobe::loader::testing
