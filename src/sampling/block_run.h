// Functional execution of a work-group at full emulation speed, reporting each basic block a
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
  struct Sink {
    OnBlock* fn;
    uint32_t wave;
  } sink{&on_block, 0};
  const auto call = [](void* c, uint32_t start, uint32_t n) {
    auto* s = static_cast<Sink*>(c);
    (*s->fn)(s->wave, start, n);
  };
  do {
    for (sink.wave = 0; sink.wave < uint32_t(wg.waves.size()); ++sink.wave)
      ex.run_wave_blocks(wg.waves[sink.wave], wg, stats, ends.data(), call, &sink);
  } while (emu::Executor::try_release_barrier(wg));
  stats.wavefronts += wg.waves.size();
  ++stats.workgroups;
}

}  // namespace strobe::sampling
