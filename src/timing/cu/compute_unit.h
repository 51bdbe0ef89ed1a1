// One compute unit: wave slots on 4 SIMDs, per-wave instruction buffers fed from the shader
// array's L1I, issue arbitration (one instruction per issue type per cycle, one SIMD's waves
// per cycle in rotation), register scoreboard, s_waitcnt counters, barriers, the LDS with bank
// conflicts and the vector memory unit's coalescer in front of the L1V. Execution-driven: when
// a wave issues, the functional emulator executes the instruction (Executor::step).
//
// The CU is a composition of parts, each in its own file with its own tests:
//   WaveResources (wave_resources.h)  slots, registers, LDS: fits / take / release
//   InstBuffer    (inst_buffer.h)     a wave's fetched bytes and the FetchTag of its fetches
//   IssueArbiter  (issue_arbiter.h)   which ready wave issues per type, which waves fetch
//   CpiAccountant (cpi_accountant.h)  the CPI stack, awake and asleep
//   CuMemory      (cu_memory.h)       coalescing, LDS, SMEM, fetch requests, vmcnt/lgkmcnt
// and what it owns itself: per-wave evaluation (can this wave issue, and if not, until when),
// the sleep/wake schedule, and work-group lifetime. Work arrives from a WaveSource.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "emu/dispatch.h"
#include "emu/executor.h"
#include "timing/cu/cpi_accountant.h"
#include "timing/cu/cu_memory.h"
#include "timing/cu/cu_params.h"
#include "timing/cu/inst_info.h"
#include "timing/cu/issue_arbiter.h"
#include "timing/cu/occupancy.h"
#include "timing/cu/wave_resources.h"
#include "timing/cu/wave_source.h"
#include "timing/cu/wave_state.h"
#include "timing/engine/engine.h"
#include "timing/gpu/launch_observer.h"
#include "timing/mem/mem_req.h"
#include "timing/stats/stats.h"

namespace strobe::timing {

/// What every CU shares during one launch (work itself arrives through a WaveSource).
struct LaunchContext {
  uint64_t* wave_instructions = nullptr;  ///< GPU-wide running count (IPC trace)
  LaunchObserver* observer = nullptr;     ///< sampling layer watching the launch (usually none)
  /// With an observer: per instruction index, the summed and counted cycles from a wave issuing
  /// it to the same wave issuing its next instruction (or retiring), i.e. its interval.
  uint64_t* interval_sum = nullptr;
  uint32_t* interval_count = nullptr;
  /// Under the quantum runner, a partition's accumulators are added into the launch's at each
  /// window's end: an instruction index whose count leaves zero is noted here (null: not noted).
  std::vector<uint32_t>* interval_touched = nullptr;
  /// Work-groups an observer predicted whose retirement is still scheduled: progress the
  /// watchdog must wait for, however long the prediction. The run owns the count, as it owns
  /// wave_instructions; the CUs only read the context. Required with an observer.
  uint64_t* predicted_outstanding = nullptr;
  /// Where the launch's waves log accesses past an allocation's end: null for the memory's
  /// own log; a partition's log under the quantum runner on threads, merged in order.
  emu::OverrunLog* overruns = nullptr;
};

class ComputeUnit : public Component {
 public:
  using Counters = CuCounters;

  ComputeUnit(std::string name, uint32_t index, const CuParams& p, Engine& engine, RequestPool& pool,
              StatsRegistry& stats, Component* l1v, Component* scache, Component* l1i);
  ~ComputeUnit() override;

  /// Starts a launch: CPI accounting from now, per-launch counters cleared.
  void begin_launch(const LaunchContext* lc);
  /// True if a work-group with needs `n` fits now.
  bool can_accept(const WorkgroupNeeds& n) const { return res_.fits(n); }
  /// Makes a work-group resident (can_accept(launch.needs) must be true): its resources at
  /// once, its waves at `now`, which may lie ahead of the CU's clock (the quantum runner).
  /// False when the launch's observer took the group out of simulation with no duration: it
  /// retires at once and, never really dispatched, costs the dispatcher no time.
  bool launch_workgroup(Cycle now, const WorkgroupLaunch& launch);
  /// Closes the launch's CPI accounting at `end`; the CU must be idle.
  void end_launch(Cycle end) { cpi_.end(end); }
  /// True if no work-group is resident.
  bool idle() const { return res_.groups() == 0; }
  /// Waves resident now.
  uint32_t resident_waves() const { return resident_waves_; }
  /// Most waves resident at once during the launch.
  uint32_t peak_resident_waves() const { return peak_waves_; }
  /// The emulator's counters for the work-groups this CU ran in the launch.
  const emu::DispatchStats& functional_stats() const { return fstats_; }
  /// Drops every resident wave (after a fault aborted the launch).
  void abort_launch();

  void handle(Cycle now, uint32_t kind, uint32_t arg) override;
  std::string describe_state() const override;

  /// Event counters since construction.
  const Counters& counters() const { return c_; }
  /// CPI stack since construction.
  const CpiAccountant::Stack& cpi() const { return cpi_.stack(); }

 private:
  struct WgState {
    bool active = false;
    bool predicted = false;             // resources held for a duration the observer predicted
    uint32_t live_waves = 0;
    uint64_t dispatched = 0;            // cycle the group was dispatched
    WorkgroupLaunch launch;             // where it came from, what it runs and needs
    std::vector<uint32_t> slots;
    std::vector<uint8_t> simds;         // the SIMD each wave's resources were taken from
    std::unique_ptr<emu::WorkGroup> wg;
  };

  // Stages of a tick (compute_unit.cpp).
  void tick(Cycle now);
  /// Evaluates the waves in `candidates` whose state may have changed; sets their bits in
  /// `ready` by issue type and returns those that want an instruction fetch.
  uint64_t evaluate_waves(uint64_t candidates, Cycle now, IssueArbiter::ReadyMasks& ready);
  /// Decides whether wave `s` can issue now (and with which issue type); updates its cached
  /// reason and wake time.
  bool evaluate(uint32_t s, Cycle now, bool& wants_fetch, IssueType& type);
  void issue(uint32_t s, Cycle now);
  /// Charges cycle `now` to the CPI stack: an issue, or what holds up the oldest wave.
  void charge_cycle(Cycle now, bool issued);
  /// Schedules the next tick for the earliest cycle a wave could make progress.
  void sleep(Cycle now);

  // Wave and work-group lifetime (cu_waves.cpp).
  /// Starts the waves of launched group `gi` on the SIMDs it took.
  void start_waves(uint32_t gi, Cycle now);
  void retire_predicted(uint32_t gi, Cycle now);
  /// Frees a finished work-group's LDS and slot, and tells its source.
  void finish_workgroup(WgState& g, Cycle now);
  void retire_if_done(uint32_t s, Cycle now);
  void release_barrier(WgState& g, Cycle now);
  /// Reports basic blocks and instruction intervals of wave `s` to the observer.
  void observe_issue(uint32_t s, uint32_t pc, const InstInfo& in, Cycle now);
  void observe_retire(uint32_t s, Cycle now);
  /// Closes wave `s`'s open instruction interval at `now` (the observer's per-pc intervals).
  void close_interval(WaveState& ws, Cycle now);

  // Fetch and memory completions.
  void start_fetch(uint32_t s, Cycle now);
  void redirect(WaveState& ws);
  /// Memory op `op` has no outstanding lines.
  void op_done(uint32_t op, Cycle now);
  /// A response to the request tagged `tag`, answering `lines` lines.
  void response(Cycle now, uint32_t tag, uint32_t lines);

  // Sleep and wake.
  void wake_wave(uint32_t s, Cycle now);
  /// Sets slot `s`'s wake time, keeping its SIMD's earliest wake exact.
  void set_wake(uint32_t s, Cycle t);
  /// Refreshes the wave's copies of the emulator's PC and flags.
  void sync(WaveState& ws) const;
  void find_oldest();
  void wake_at(Cycle t);
  /// The first cycle at or after `t` that is `simd`'s issue turn.
  Cycle aligned(Cycle t, uint32_t simd) const;
  /// The SIMD whose issue turn cycle `t` is.
  uint32_t simd_of(Cycle t) const;
  CpiReason memory_reason(WaveState& ws, bool vm_wait);

  uint32_t index_;
  CuParams p_;
  Engine& engine_;
  const LaunchContext* lc_ = nullptr;
  IssueArbiter arbiter_;

  // Per-tick state lives inline in the object (fixed arrays sized to the configuration limits
  // validate() enforces), so a tick of a CU whose state went cold misses on few cache lines.
  static constexpr uint32_t kMaxSimds = WaveResources::kMaxSimds, kMaxSlots = 64;
  uint32_t slots_ = 0;            // wave slots in use by the configuration
  bool tick_pending_ = false;
  uint32_t simd_wake_dirty_ = 0;  // SIMDs whose simd_wake_ must be recomputed
  uint32_t oldest_ = UINT32_MAX;  // active slot with the smallest age
  Cycle tick_at_{0};
  Cycle last_tick_ = Cycle::never();  // cycle of the last tick (its SIMD has had its turn)
  uint64_t fetch_retry_ = 0;      // waves that wanted a fetch and lost the fetch arbitration
  std::array<uint64_t, kMaxSimds> simd_mask_{};  // active slots per SIMD
  std::array<Cycle, kMaxSimds> simd_wake_{};     // per SIMD: earliest wake_ of its slots (exact unless dirty)
  std::array<Cycle, kMaxSimds> valu_free_{};
  std::array<Cycle, kMaxSimds> matrix_free_{};  // per SIMD: when its matrix core takes the next MFMA
  std::array<Cycle, size_t(IssueType::COUNT)> unit_free_{};
  std::array<Cycle, kMaxSlots> wake_{};    // earliest cycle the wave's evaluation could change; never when free
  std::array<uint64_t, kMaxSlots> age_{};  // dispatch order; UINT64_MAX when the slot is free
  CpiAccountant cpi_;

  std::vector<WaveState> waves_;
  std::vector<WgState> wgs_;
  WaveResources res_;
  uint32_t resident_waves_ = 0, peak_waves_ = 0;
  uint64_t next_age_ = 0;
  emu::DispatchStats fstats_;
  Counters c_;
  CuMemory mem_;
};

}  // namespace strobe::timing
