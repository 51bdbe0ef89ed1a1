// GPUMech for one kernel launch, end to end: trace it functionally, run the cache-only
// simulation, fill the model's inputs from the configuration and predict. What the later
// sampling method calls per launch; it registers nothing itself.
#pragma once

#include <cstdint>
#include <string>

#include "emu/dispatch.h"
#include "emu/memory.h"
#include "sampling/gpumech/cache_sim.h"
#include "sampling/gpumech/model_inputs.h"
#include "sampling/gpumech/predict.h"
#include "sampling/gpumech/saved_trace.h"
#include "sampling/gpumech/trace_collector.h"
#include "timing/config/gpu_config.h"
#include "timing/cu/occupancy.h"

namespace strobe::sampling::gpumech {

/// How a launch is modelled.
struct LaunchModelOptions {
  Policy policy = Policy::RoundRobin;  ///< the multithreading policy (policy_of(cu.scheduler) where it has one)
  Level level = Level::MtMshrBand;     ///< how far up the ablation chain
  uint64_t max_instructions = kDefaultMaxInstructions;  ///< the trace cap
  MshrDemand mshr_demand = MshrDemand::L1MissingReads;  ///< requests counted by Eq. 27
  DramDemand dram_demand = DramDemand::DramRequests;    ///< requests counted by Eq. 32
  RcNormalisation rc_normalisation = RcNormalisation::AsWritten;  ///< Eq. 26's divisor
};

/// A modelled launch: the prediction and what it was computed from.
struct LaunchModel {
  Prediction prediction;
  ModelParams params;
  timing::Occupancy occupancy;
  CacheSimResult cache;
  PcLatencies pcs;
  emu::DispatchStats stats;     ///< the functional run's counters
  uint64_t instructions = 0;    ///< wave instructions traced
  uint64_t workgroups = 0;      ///< the launch's work-groups
  uint64_t trace_bytes = 0;     ///< bytes the compact trace held
  double trace_seconds = 0;     ///< functional run with the collector
  double cache_seconds = 0;     ///< cache-only simulation
  double model_seconds = 0;     ///< inputs and predict()
};

/// A modelled launch's cycles with strobe's two bounds (neither is the paper's): the balanced
/// estimate, but at least the time DRAM takes to move the lines the cache-only simulation sent
/// it at the configured peak bandwidth (`dram`), and at least the slowest wave alone (`tail`).
struct BoundedCycles {
  double balanced = 0;  ///< the paper's estimate (Prediction::cycles)
  double dram = 0;      ///< L2-missing lines x line size / peak bytes per cycle
  double tail = 0;      ///< Prediction::tail_cycles
  double cycles = 0;    ///< the largest of those the options enable
  const char* bound = "balanced";  ///< which one set `cycles`: balanced, dram or tail
};

/// The bounds of `m` on `cfg`, applied as `dram` and `tail` say.
BoundedCycles bounded_cycles(const LaunchModel& m, const timing::GpuConfig& cfg, bool dram, bool tail);

/// GPUMech's options when its per-launch prediction stands in for a launch's time inside another
/// method (SimProf's proxy, STEM's signature): the configured scheduler's policy where GPUMech
/// models it, else GTO, the closest to strobe's oldest-first; Eq. 26 per W, its better-measured
/// reading (docs/gpumech.md).
LaunchModelOptions proxy_options(const timing::GpuConfig& cfg);

/// Runs `d` functionally (its results land in `mem`), tracing it on up to `threads` host threads,
/// and predicts its CPI on `cfg`.
LaunchModel model_launch(const emu::Dispatch& d, emu::GlobalMemory& mem, const timing::GpuConfig& cfg,
                         const LaunchModelOptions& o, uint32_t threads = 1);

/// Predicts `d` on `cfg` from a trace saved earlier (§2.7): the cache-only simulation runs
/// again for `cfg`, and of the waves only the saved representative is profiled; nothing is
/// executed (the caller runs the launch functionally if its results are wanted). InputError
/// when the trace does not fit `d`'s program or `cfg`'s line size.
LaunchModel model_saved_launch(const emu::Dispatch& d, const SavedTrace& saved, const timing::GpuConfig& cfg,
                               const LaunchModelOptions& o, const std::string& where);

/// Traces `d` functionally (its results land in `mem`) and chooses its representative wave on
/// `cfg`: what `strobe profile --gpumech` stores for each launch. With `columns`, the same run
/// fills the functional profile's columns (and with `ranges`, cuts the launch into ranges).
SavedTrace trace_for_profile(const emu::Dispatch& d, emu::GlobalMemory& mem, const timing::GpuConfig& cfg,
                             uint64_t max_instructions, emu::DispatchStats& stats,
                             profile::LaunchRecord* columns = nullptr, profile::RangeCutter* ranges = nullptr,
                             uint32_t threads = 1);

/// A launch's collected `trace` made a saved trace: its representative wave chosen on `cfg` (what
/// trace_for_profile() does after its run; a workload capture collects the trace in its own).
SavedTrace saved_from_trace(const emu::Dispatch& d, LaunchTrace trace, const std::vector<StaticInst>& statics,
                            const timing::GpuConfig& cfg);

/// A profile::LaunchProfiler for `strobe profile --gpumech`: the functional columns and, in the
/// same run, the launch's saved trace as its "gpumech" blob, its representative chosen on `cfg`
/// (whose line size must be the profile's).
profile::LaunchProfiler gpumech_launch_profiler(const timing::GpuConfig& cfg, uint64_t max_instructions);

}  // namespace strobe::sampling::gpumech
