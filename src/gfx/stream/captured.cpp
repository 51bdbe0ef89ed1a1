#include "gfx/stream/captured.h"

#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>

#include "common/error.h"

namespace strobe::gfx {

namespace fs = std::filesystem;

const std::vector<CapturedWorkload>& captured_workloads() {
  static const std::vector<CapturedWorkload> all = {
      {"glmark2-small", "glmark2: 3 scenes x 4 frames at 160x120 (horse model, mipmapped texture, phong)"},
      {"glmark2", "glmark2: 10 scenes x 2 s at 400x300 (models, textures, shading, bump, effects, ideas)"},
      {"openarena", "OpenArena (ioquake3, GLSL renderer): the demo088-test1 timedemo at 640x480"},
  };
  return all;
}

std::string traces_dir() {
  if (const char* env = std::getenv("STROBE_GFX_TRACES"); env && *env) return env;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("gfx-traces") : (exe.parent_path() / "gfx-traces").string();
}

std::string resolve_trace(const std::string& workload) {
  const std::string prefix = "gfx:";
  if (workload.rfind(prefix, 0) != 0) throw InputError(fmt::format("'{}' is not a gfx: workload", workload));
  const std::string rest = workload.substr(prefix.size());
  if (rest.empty()) throw InputError("gfx: names no trace (gfx:NAME or gfx:PATH)");
  for (const auto& w : captured_workloads()) {
    if (rest != w.name) continue;
    const std::string path = traces_dir() + "/" + w.name + ".trace";
    if (!fs::exists(path))
      throw InputError(fmt::format("{}: no trace at {}; capture it with `scripts/capture-gfx {} {}`", workload, path,
                                   w.name, traces_dir()));
    return path;
  }
  if (!fs::exists(rest))
    throw InputError(fmt::format("{}: no such trace file, and not a named capture ({})", workload, [] {
      std::string names;
      for (const auto& w : captured_workloads()) names += (names.empty() ? "" : ", ") + std::string(w.name);
      return names;
    }()));
  return rest;
}

}  // namespace strobe::gfx
