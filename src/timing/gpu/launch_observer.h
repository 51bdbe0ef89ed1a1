// The narrow interface through which an orchestration layer above the model (sampled
// simulation) watches and steers one detailed launch. The model calls it at a few points and
// never knows which method, if any, is behind it.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

namespace strobe::emu {
class Executor;
struct WorkGroup;
struct DispatchStats;
}  // namespace strobe::emu

namespace strobe::timing {

/// A resident wave's identity during one launch: cu * slots_per_cu + slot.
using WaveKey = uint32_t;

/// Watches a detailed launch and may take work-groups out of detailed simulation.
class LaunchObserver {
 public:
  virtual ~LaunchObserver() = default;
  /// Wave `w` became resident at `cycle`.
  virtual void wave_begin(WaveKey w, uint64_t cycle) = 0;
  /// Wave `w` ran a basic block (straight-line code up to a branch, s_barrier or s_endpgm)
  /// starting at instruction index `start_pc`, `insts` instructions long, whose first
  /// instruction issued at `issue` and whose successor issued (or the wave retired) at `end`.
  virtual void basic_block(WaveKey w, uint32_t start_pc, uint32_t insts, uint64_t issue, uint64_t end) = 0;
  /// Wave `w` retired at `cycle`.
  virtual void wave_end(WaveKey w, uint64_t cycle) = 0;
  /// Work-group `id` (linear, in dispatch order), simulated in detail and dispatched at
  /// `dispatched`, retired its last wave at `cycle` (its resources are free from then on).
  virtual void workgroup_end(uint64_t id, uint64_t dispatched, uint64_t cycle) {}
  /// Asked for every work-group as it is dispatched to CU `cu` at `cycle` (initialised, not yet
  /// run). Returning a duration makes the model hold the group's resources that many cycles
  /// without simulating it; the observer then runs it functionally itself (through `ex`,
  /// counting into `stats`, warming CU `cu`'s caches if it warms) or not at all. nullopt:
  /// simulate the group in detail.
  virtual std::optional<uint64_t> predict_workgroup(const emu::Executor& ex, emu::WorkGroup& wg,
                                                    emu::DispatchStats& stats, uint64_t cycle, uint32_t cu) = 0;
  /// Hands the observer the launch's per-instruction interval accumulators (one element per
  /// instruction of the launch's program; valid until the launch returns): the cycles from a
  /// wave issuing the instruction to the same wave issuing its next one, or retiring, summed and
  /// counted.
  virtual void intervals(std::span<const uint64_t> sum, std::span<const uint32_t> count) {}
  /// Hands the observer the model's running count of wave instructions it issued in detail
  /// (over the GPU's life, not this launch; valid until the launch returns): read at any
  /// callback, differences give the instructions issued GPU-wide in between.
  virtual void issue_counter(const uint64_t* issued) {}
  /// The launch, begun at cycle `start`, ended at `end` (the clock the other callbacks read).
  virtual void launch_end(uint64_t start, uint64_t end) {}
  /// Cycles between calls of poll() (0: never polled).
  virtual uint64_t poll_interval() const { return 0; }
  /// Called every poll_interval() cycles with the wave instructions simulated in detail so far
  /// in this launch.
  virtual void poll(uint64_t cycle, uint64_t detailed_wave_instructions) {}
};

}  // namespace strobe::timing
