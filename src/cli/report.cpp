// JSON and text rendering of run reports.
#include "cli/report.h"

#include <fmt/core.h>

#include "common/atomic_file.h"

namespace strobe::cli {

nlohmann::json to_json(const RunReport& r) {
  nlohmann::json j;
  j["benchmark"] = r.benchmark;
  j["mode"] = r.mode;
  j["arch"] = r.arch;
  j["sampling"] = r.sampling;
  j["verified"] = r.verified;
  j["wall_seconds"] = r.wall_seconds;
  if (!r.params.is_null()) j["params"] = r.params;
  uint64_t wave = 0, thread = 0;
  auto kernels = nlohmann::json::array();
  for (size_t i = 0; i < r.launches.size(); ++i) {
    const auto& l = r.launches[i];
    const auto& s = l.result.stats;
    wave += s.wave_instructions;
    thread += s.thread_instructions;
    kernels.push_back({{"name", l.result.kernel},
                       {"launch", i},
                       {"grid", l.grid},
                       {"local", l.local},
                       {"workgroups", s.workgroups},
                       {"wavefronts", s.wavefronts},
                       {"wave_instructions", s.wave_instructions},
                       {"thread_instructions", s.thread_instructions},
                       {"vector_memory_instructions", s.vector_memory_instructions},
                       {"scalar_memory_instructions", s.scalar_memory_instructions},
                       {"lds_instructions", s.lds_instructions},
                       {"wall_seconds", l.result.wall_seconds}});
  }
  j["wave_instructions"] = wave;
  j["thread_instructions"] = thread;
  j["kernels"] = std::move(kernels);
  return j;
}

void emit_report(const RunReport& r, const std::string& json_target) {
  if (json_target == "-") {
    fmt::print("{}\n", to_json(r).dump(2));
    return;
  }
  if (!json_target.empty()) write_file_atomic(json_target, to_json(r).dump(2) + "\n");
  uint64_t wave = 0;
  double kernel_wall = 0;
  for (const auto& l : r.launches) {
    wave += l.result.stats.wave_instructions;
    kernel_wall += l.result.wall_seconds;
    fmt::print("{:<24} grid {}x{}x{} local {}x{}x{}  {} waves  {} wave instructions\n", l.result.kernel, l.grid[0],
               l.grid[1], l.grid[2], l.local[0], l.local[1], l.local[2], l.result.stats.wavefronts,
               l.result.stats.wave_instructions);
  }
  double rate = kernel_wall > 0 ? double(wave) / kernel_wall : 0;
  fmt::print("{}: {} mode, {} launch{}, {} wave instructions, {:.3f} s wall ({:.2f} M wave instructions/s)\n",
             r.benchmark, r.mode, r.launches.size(), r.launches.size() == 1 ? "" : "es", wave, r.wall_seconds,
             rate / 1e6);
}

}  // namespace strobe::cli
