// Text rendering of run reports and where their JSON goes.
#include "cli/report.h"

#include <fmt/core.h>

#include "common/atomic_file.h"

namespace strobe::cli {

void emit_report(const RunReport& r, const std::string& json_target) {
  if (json_target == "-") {
    fmt::print("{}\n", to_json(r).dump(2));
    return;
  }
  if (!json_target.empty()) write_file_atomic(json_target, to_json(r).dump(2) + "\n");
  uint64_t wave = 0, cycles = 0;
  double kernel_wall = 0, sim_seconds = 0;
  for (const auto& l : r.launches) {
    wave += l.result.stats.wave_instructions;
    kernel_wall += l.result.wall_seconds;
    std::string timing;
    if (const auto& t = l.result.timing) {
      cycles += t->cycles;
      sim_seconds += t->sim_seconds;
      timing = fmt::format("  {} cycles  IPC {:.2f}", t->cycles, t->ipc);
    }
    fmt::print("{:<24} grid {}x{}x{} local {}x{}x{}  {} waves  {} wave instructions{}\n", l.result.kernel, l.grid[0],
               l.grid[1], l.grid[2], l.local[0], l.local[1], l.local[2], l.result.stats.wavefronts,
               l.result.stats.wave_instructions, timing);
  }
  if (cycles) fmt::print("simulated: {} cycles, {:.6f} ms\n", cycles, sim_seconds * 1e3);
  double rate = kernel_wall > 0 ? double(wave) / kernel_wall : 0;
  fmt::print("{}: {} mode, {} launch{}, {} wave instructions, {:.3f} s wall ({:.2f} M wave instructions/s)\n",
             r.benchmark, r.mode, r.launches.size(), r.launches.size() == 1 ? "" : "es", wave, r.wall_seconds,
             rate / 1e6);
}

}  // namespace strobe::cli
