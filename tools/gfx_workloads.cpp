// Prints docs/graphics.md's workload table row for each apitrace capture given: frames, calls,
// and per-frame draws, vertices and programs (median, min-max). Usage: gfx_workloads TRACE...
#include <algorithm>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <vector>

#include <fmt/format.h>

#include "gfx/stream/frame_scan.h"

namespace {

template <typename F>
std::string spread(const std::vector<strobe::gfx::FrameCounts>& frames, F field) {
  std::vector<uint64_t> v;
  for (const auto& f : frames) v.push_back(field(f));
  if (v.empty()) return "-";
  std::sort(v.begin(), v.end());
  return fmt::format("{} ({}-{})", v[v.size() / 2], v.front(), v.back());
}

}  // namespace

int main(int argc, char** argv) {
  std::puts("| trace | frames | calls | draws per frame | vertices per frame | programs linked | programs per frame |");
  std::puts("|---|---|---|---|---|---|---|");
  try {
    for (int i = 1; i < argc; ++i) {
      auto r = strobe::gfx::scan_frames(argv[i]);
      std::puts(fmt::format("| {} | {} | {} | {} | {} | {} | {} |", std::filesystem::path(argv[i]).filename().string(),
                            r.frames.size(), r.calls, spread(r.frames, [](const auto& f) { return f.draws; }),
                            spread(r.frames, [](const auto& f) { return f.vertices; }), r.links,
                            spread(r.frames, [](const auto& f) { return uint64_t{f.programs}; }))
                    .c_str());
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gfx_workloads: %s\n", e.what());
    return 2;
  }
  return 0;
}
