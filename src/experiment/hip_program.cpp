// HIP program detection (see hip_program.h).
#include "experiment/hip_program.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string_view>

#include <fmt/format.h>

#include "common/error.h"
#include "loader/elf_reader.h"
#include "loader/gfx_target.h"

namespace strobe::experiment {

namespace fs = std::filesystem;

namespace {

fs::path resolve(const std::string& command) {
  if (command.find('/') != std::string::npos) return command;
  const char* path = std::getenv("PATH");
  std::string_view dirs = path ? path : "";
  while (!dirs.empty()) {
    const size_t colon = dirs.find(':');
    fs::path candidate = fs::path(std::string(dirs.substr(0, colon))) / command;
    std::error_code ec;
    if (fs::is_regular_file(candidate, ec)) return candidate;
    if (colon == std::string_view::npos) break;
    dirs.remove_prefix(colon + 1);
  }
  return command;
}

/// Processors named by the clang offload bundles in a .hip_fatbin section. A bundle is
/// "__CLANG_OFFLOAD_BUNDLE__", a u64 entry count, then per entry u64 offset, u64 size, u64
/// triple length and the triple ("hipv4-amdgcn-amd-amdhsa--gfx803"); one per translation unit.
std::vector<std::string> bundle_targets(std::span<const uint8_t> fatbin) {
  static constexpr std::string_view kMagic = "__CLANG_OFFLOAD_BUNDLE__";
  std::vector<std::string> out;
  auto u64 = [&](size_t at, uint64_t* v) {
    if (at + 8 > fatbin.size()) return false;
    std::memcpy(v, fatbin.data() + at, 8);
    return true;
  };
  const std::string_view text(reinterpret_cast<const char*>(fatbin.data()), fatbin.size());
  for (size_t at = text.find(kMagic); at != std::string_view::npos; at = text.find(kMagic, at + 1)) {
    size_t p = at + kMagic.size();
    uint64_t entries = 0;
    if (!u64(p, &entries) || entries > 1024) continue;
    p += 8;
    for (uint64_t i = 0; i < entries; ++i) {
      uint64_t offset, size, len;
      if (!u64(p, &offset) || !u64(p + 8, &size) || !u64(p + 16, &len) || p + 24 + len > fatbin.size()) break;
      const std::string triple(text.substr(p + 24, len));
      p += 24 + len;
      const size_t dash = triple.find('-');
      if (!triple.starts_with("hip") || dash == std::string::npos) continue;  // the host entry
      std::string processor;
      try {
        processor = loader::processor_from_target(triple.substr(dash + 1));
      } catch (const std::exception&) {
        processor = triple;
      }
      if (std::find(out.begin(), out.end(), processor) == out.end()) out.push_back(processor);
    }
  }
  return out;
}

}  // namespace

HipProgram inspect_hip_program(const std::string& command) {
  HipProgram p;
  std::ifstream in(resolve(command), std::ios::binary);
  if (!in) return p;
  std::vector<uint8_t> image((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  try {
    const loader::ElfHeader h = loader::read_elf_header(image);
    const loader::ElfFile f(image, h);
    for (const auto& s : f.sections()) {
      if (s.name == ".hip_fatbin") {
        p.is_hip = true;
        p.targets = bundle_targets(s.bytes);
      } else if (s.name == ".dynstr") {
        const std::string_view strings(reinterpret_cast<const char*>(s.bytes.data()), s.bytes.size());
        if (strings.find("libamdhip64.so") != std::string_view::npos) p.is_hip = true;
      }
    }
  } catch (const std::exception&) {
    return HipProgram{};  // not an ELF file we can read (a script, say): not HIP
  }
  return p;
}

void check_hip_targets(const HipProgram& p, const std::string& command) {
  if (p.targets.empty() || std::find(p.targets.begin(), p.targets.end(), loader::kSupportedProcessor) != p.targets.end())
    return;
  std::string list;
  for (const auto& t : p.targets) list += (list.empty() ? "" : ", ") + t;
  throw InputError(fmt::format("{}: its HIP device code is built for {} only; strobe simulates {} (rebuild with "
                               "hipcc --offload-arch={})",
                               command, list, loader::kSupportedProcessor, loader::kSupportedProcessor));
}

std::string hsakmt_dir() {
  std::error_code ec;
  std::vector<fs::path> candidates;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) candidates.push_back(exe.parent_path() / "hsakmt");
#ifdef STROBE_HSAKMT_DIR
  candidates.emplace_back(STROBE_HSAKMT_DIR);
#endif
  for (const auto& dir : candidates)
    if (fs::exists(dir / "libhsakmt.so.1", ec)) return dir.string();
  throw Error(ExitCode::Failure,
              "strobe's KFD thunk is not built: no hsakmt/libhsakmt.so.1 next to this executable (configure with "
              "-DSTROBE_BUILD_HIP=ON and install libhsakmt-dev)");
}

}  // namespace strobe::experiment
