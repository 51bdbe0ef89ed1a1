// The suite's kernels built for gfx942 (build/gfx942-kernels, where clang-19 is installed), which
// the loader, decoder and emulator tests read.
#pragma once

#include <algorithm>
#include <filesystem>
#include <vector>

namespace strobe::testing {

/// Every gfx942 code object of the build, sorted; empty in a build without clang-19.
inline std::vector<std::filesystem::path> gfx942_code_objects() {
  namespace fs = std::filesystem;
  std::vector<fs::path> out;
  const fs::path dir = fs::path(STROBE_BUILD_DIR) / "gfx942-kernels";
  if (fs::is_directory(dir))
    for (const auto& f : fs::recursive_directory_iterator(dir))
      if (f.path().extension() == ".hsaco") out.push_back(f.path());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace strobe::testing
