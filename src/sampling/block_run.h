// Functional execution of a work-group one instruction at a time, reporting each basic block a
// wave completes (the timing model's definition: straight-line code up to a branch, s_barrier or
// s_endpgm). The sampling methods' analyses and predictions run work through this.
#pragma once

#include <cstdint>
#include <vector>

#include "emu/executor.h"

namespace strobe::sampling {

/// Runs every wave of `wg` to completion, honouring barriers, counting into `stats`, and calls
/// `on_block(wave_index, start_pc, instructions)` for each basic block; `ends` is
/// timing::basic_block_ends() of the dispatch's program.
template <class OnBlock>
void run_workgroup_blocks(const emu::Executor& ex, emu::WorkGroup& wg, emu::DispatchStats& stats,
                          const std::vector<uint8_t>& ends, OnBlock&& on_block) {
  do {
    for (uint32_t i = 0; i < uint32_t(wg.waves.size()); ++i) {
      emu::Wave& w = wg.waves[i];
      uint32_t start = w.pc, n = 0;
      while (!w.halted && !w.at_barrier) {
        const uint32_t pc = w.pc;
        if (n == 0) start = pc;
        ex.step(w, wg, stats);  // faults (FaultError) on a PC outside the program first
        ++n;
        if (ends[pc]) {
          on_block(i, start, n);
          n = 0;
        }
      }
      if (n) on_block(i, start, n);
    }
  } while (emu::Executor::try_release_barrier(wg));
  stats.wavefronts += wg.waves.size();
  ++stats.workgroups;
}

}  // namespace strobe::sampling
