// The timing model's entry point: a GPU built from a configuration, running dispatches
// execution-driven (the functional emulator supplies values, the model decides when each wave
// issues). Cache and DRAM state persist across launches, as on hardware.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "emu/dispatch.h"
#include "timing/config/gpu_config.h"
#include "timing/cu/cu_params.h"
#include "timing/cu/inst_info.h"
#include "timing/cu/occupancy.h"
#include "timing/engine/cycle.h"
#include "timing/gfx/frame_work.h"
#include "timing/gpu/launch_observer.h"
#include "timing/gpu/timeline.h"
#include "timing/gpu/warmer.h"
#include "timing/stats/stats.h"

namespace strobe::emu {
class Executor;
class GlobalMemory;
}  // namespace strobe::emu

namespace strobe::timing {

/// The timing of one launch.
struct LaunchTiming {
  std::string kernel;
  uint64_t cycles = 0;               ///< from the launch to the last work-group's retirement
  double sim_seconds = 0;            ///< cycles at the core clock
  uint64_t wave_instructions = 0;
  uint64_t thread_instructions = 0;
  /// Wave instructions the model issued itself (the rest ran in work-groups an observer took
  /// out of detailed simulation).
  uint64_t detailed_wave_instructions = 0;
  double ipc = 0;                    ///< wave instructions per cycle, whole GPU
  Occupancy occupancy;               ///< steady-state occupancy of this kernel
  uint32_t peak_waves_per_cu = 0;    ///< most waves resident on any CU at once
  emu::DispatchStats functional;     ///< the emulator's counters for the dispatch
  StatsSnapshot stats;               ///< every counter, this launch only (difference of snapshots)
  Timeline timeline;                 ///< activity over time, at a bounded resolution
  // Reports render this through report/timing_json.h: the model counts, it does not format.

  /// Sets the launch's cycles and instruction counts and what follows from them: sim_seconds
  /// at `clock_mhz` and ipc (wave instructions per cycle, 0 for no cycles). Used by the model
  /// at the end of a launch and by sampling methods that replace its cycles with an estimate.
  void set_totals(uint64_t cycles, uint64_t wave_instructions, uint64_t thread_instructions, double clock_mhz);
};

/// The timing of a launch whose cycles a sampling method predicted without simulating it:
/// the given totals (set_totals), the emulator's counters `functional` (empty when the launch
/// was not emulated) and no model counters.
LaunchTiming predicted_launch_timing(std::string kernel, uint64_t cycles, uint64_t wave_instructions,
                                     uint64_t thread_instructions, const emu::DispatchStats& functional,
                                     double clock_mhz);

/// The timing of one graphics frame on the tile-based pipeline (timing/gfx).
struct FrameTiming {
  uint64_t frame = 0;
  uint64_t cycles = 0;               ///< from the frame's start to its last tile's store
  double sim_seconds = 0;            ///< cycles at the core clock
  uint64_t wave_instructions = 0;    ///< vertex and pixel shader instructions issued
  uint64_t thread_instructions = 0;
  /// Cycles from the frame's start at which each phase of each pass ended: geometry, tiles,
  /// geometry, tiles, ...
  std::vector<uint64_t> phase_ends;
  StatsSnapshot stats;               ///< every counter, this frame only (gfx.*, CUs, caches, DRAM)
};

class Gpu {
 public:
  /// Builds the GPU. Throws InputError if the configuration is invalid.
  explicit Gpu(const GpuConfig& cfg);
  ~Gpu();
  Gpu(const Gpu&) = delete;
  Gpu& operator=(const Gpu&) = delete;

  /// Runs one dispatch to completion in detailed timing mode; the memory image is updated as
  /// the functional emulator would. Throws InputError for a bad launch and FaultError for a
  /// kernel fault or a launch that stops making progress (with every component's state).
  /// An `observer` (the sampling layer) watches the launch and may take work-groups out of
  /// detailed simulation.
  LaunchTiming run(const emu::Dispatch& d, emu::GlobalMemory& mem, LaunchObserver* observer = nullptr);

  /// Times graphics frame `f` (its shader waves on the CUs, the fixed-function stages around
  /// them). Caches and DRAM keep their state from earlier frames and launches unless
  /// gfx.frame_caches says otherwise. Throws FaultError for a shader fault or a frame that stops
  /// making progress, InputError for work that cannot run on this GPU.
  FrameTiming run_frame(const FrameWork& f);

  /// Runs dispatch `d` functionally (the memory image is updated as emu::run_dispatch would)
  /// and warms the caches with its accesses (warmer.h): work-groups in dispatch order, each on
  /// the CU the dispatcher's round-robin rule gives it (placement.h) when every group takes as
  /// long as the others, so the oldest resident group retires first. No simulated time passes.
  /// With host_threads() > 1 the groups run on threads, each recording its accesses, and the
  /// caches replay them in dispatch order: memory, counters and cache state are those of one
  /// thread (emu/workgroup_threads.h says when one thread runs anyway). Returns the emulator's
  /// counters.
  emu::DispatchStats run_functional(const emu::Dispatch& d, emu::GlobalMemory& mem);
  /// Host threads functional work may use: run_functional() here, and the functional launches
  /// of sampling methods (emu::run_dispatch). Results never depend on it. Default 1.
  void set_host_threads(uint32_t n) { host_threads_ = std::max(n, 1u); }
  /// The threads set_host_threads() allowed.
  uint32_t host_threads() const { return host_threads_; }
  /// Functional warming of this GPU's caches, for work-groups a sampling method runs
  /// functionally inside a detailed launch (valid until the next launch faults).
  Warmer& warmer();
  /// Makes warmer() warm DRAM's open rows too (Warmer::set_dram), or stops it.
  void warm_dram(bool on);
  /// Called at the start of every detailed run(), before anything of the launch happens (null:
  /// nothing): a replayed capture rebuilds the caches there for the launches since the last one
  /// simulated, whichever launches a sampling method chooses to simulate.
  void set_before_run(std::function<void()> fn) { before_run_ = std::move(fn); }

  /// The steady-state occupancy dispatch `d` would get on this GPU (as run() computes it):
  /// resident waves and work-groups per CU and what limits them.
  Occupancy occupancy_of(const emu::Dispatch& d) const;

  const GpuConfig& config() const;
  /// The effective configuration as JSON (write it next to every result).
  nlohmann::json config_json() const;
  /// Every counter since construction (subtract two snapshots for a window).
  StatsSnapshot snapshot() const;
  /// Simulated cycles since construction (all launches).
  Cycle now() const;

 private:
  /// run_functional() of `ex`'s launch on host_threads() threads, group i on CU `cu_of[i]`.
  emu::DispatchStats run_functional_threads(emu::Executor& ex, const std::vector<uint32_t>& cu_of);

  /// Runs `run`; on any exception the machine, whose in-flight state is then inconsistent, is
  /// replaced by a fresh one of the same configuration before the exception goes on.
  template <class F>
  void recovering(F&& run);

  struct Impl;
  std::unique_ptr<Impl> impl_;
  uint32_t host_threads_ = 1;  // kept apart from Impl, which a fault replaces
  std::function<void()> before_run_;
};

}  // namespace strobe::timing
