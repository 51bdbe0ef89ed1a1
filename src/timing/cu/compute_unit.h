// One compute unit: wave slots on 4 SIMDs, per-wave instruction buffers fed from the shader
// array's L1I, issue arbitration (one instruction per issue type per cycle, one SIMD's waves
// per cycle in rotation), register scoreboard, s_waitcnt counters, barriers, the LDS with bank
// conflicts and the vector memory unit's coalescer in front of the L1V. Execution-driven: when
// a wave issues, the functional emulator executes the instruction (Executor::step).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "emu/dispatch.h"
#include "emu/executor.h"
#include "timing/cu/cu_params.h"
#include "timing/cu/inst_info.h"
#include "timing/cu/issue_policy.h"
#include "timing/cu/scoreboard.h"
#include "timing/cu/occupancy.h"
#include "timing/engine/engine.h"
#include "timing/gpu/launch_observer.h"
#include "timing/mem/mem_req.h"
#include "timing/stats/stats.h"

namespace strobe::timing {

/// CPI stack categories: every CU cycle of a launch lands in exactly one.
enum class CpiReason : uint8_t { Issue, Dependency, L1, L2, Dram, MshrQueue, DramQueue, Barrier, Fetch, Other, COUNT };
const char* cpi_name(CpiReason r);

/// What every CU shares during one launch.
struct LaunchContext {
  emu::Executor* executor = nullptr;
  const isa::Program* program = nullptr;
  const std::vector<InstInfo>* info = nullptr;
  WorkgroupNeeds needs;
  Component* dispatcher = nullptr;   ///< woken (kind 0) when a work-group finishes
  uint64_t* cus_with_room = nullptr; ///< bit per CU the dispatcher must check; set when a wave retires
  uint64_t* wave_instructions = nullptr;  ///< GPU-wide running count (IPC trace)
  LaunchObserver* observer = nullptr;     ///< sampling layer watching the launch (usually none)
  /// With an observer: per instruction index, the summed and counted cycles from a wave issuing
  /// it to the same wave issuing its next instruction (or retiring), i.e. its interval.
  uint64_t* interval_sum = nullptr;
  uint32_t* interval_count = nullptr;
  /// Work-groups an observer predicted whose retirement is still scheduled: progress the
  /// watchdog must wait for, however long the prediction.
  mutable uint64_t predicted_outstanding = 0;
};

class ComputeUnit : public Component {
 public:
  enum Kind : uint32_t { kTick = 1, kOpDone = 2, kExpDone = 3, kPredictedDone = 4 };

  ComputeUnit(std::string name, uint32_t index, const CuParams& p, Engine& engine, RequestPool& pool,
              StatsRegistry& stats, Component* l1v, Component* scache, Component* l1i);
  ~ComputeUnit() override;

  void begin_launch(const LaunchContext* lc);
  /// True if a work-group with the launch's needs fits now.
  bool can_accept() const;
  /// Makes work-group `linear_id` resident (can_accept() must be true).
  void launch_workgroup(Cycle now, uint64_t linear_id);
  /// Closes the launch's CPI accounting at `end`; the CU must be idle.
  void end_launch(Cycle end);
  bool idle() const { return resident_wgs_ == 0; }
  uint32_t resident_waves() const { return resident_waves_; }
  uint32_t peak_resident_waves() const { return peak_waves_; }
  const emu::DispatchStats& functional_stats() const { return fstats_; }
  /// Drops every resident wave (after a fault aborted the launch).
  void abort_launch();

  void handle(Cycle now, uint32_t kind, uint32_t arg) override;
  std::string describe_state() const override;

  struct Counters {
    uint64_t wave_instructions = 0, thread_instructions = 0;
    std::array<uint64_t, size_t(IssueType::COUNT)> issued{};
    std::array<uint64_t, size_t(IssueType::COUNT)> busy{};
    std::array<uint64_t, size_t(CpiReason::COUNT)> cpi{};
    uint64_t workgroups = 0, waves = 0, fetches = 0, lds_conflict_cycles = 0, vmem_lines = 0;
  };
  const Counters& counters() const { return c_; }

 private:
  static constexpr uint32_t kMaxVm = 15, kMaxLgkm = 15, kMaxExp = 7, kFifo = 16;
  struct MemOp {
    uint32_t slot = 0;
    uint16_t pending = 0;
    uint8_t stage = 0;
    bool done = false, in_vm = false, counts_lgkm = false;
  };
  // Hot fields first: an evaluation reads the first cache line (plus the instruction's
  // InstInfo and, when a result is still in flight, the scoreboard).
  struct WaveState {
    bool active = false;
    bool halted = false, at_barrier = false;  // copies of the emulator's flags, refreshed at issue
    bool fetching = false;
    uint8_t simd = 0;
    uint8_t vm = 0, lgkm = 0, exp = 0;
    CpiReason ready_reason = CpiReason::Other;
    CpiReason reason = CpiReason::Other;
    uint8_t vm_head = 0, vm_count = 0;
    uint32_t pc = 0;                  // copy of the emulator's PC, refreshed at issue
    uint32_t reason_op = UINT32_MAX;  // memory op whose progress the reason reflects
    uint32_t last_smem_op = UINT32_MAX;
    uint32_t wg = 0;
    uint32_t epoch = 0;
    uint64_t ib_lo = 0, ib_hi = 0;  // buffered program bytes [lo, hi)
    Cycle ready_at{0};
    emu::Wave* w = nullptr;
    std::array<uint32_t, kFifo> vm_fifo{};
    Scoreboard sb;
    // Observation for a LaunchObserver (cold: touched only when one is installed).
    uint32_t bb_start = 0, bb_insts = 0, last_pc = UINT32_MAX;
    bool bb_ended = false;
    Cycle bb_issue{0}, last_issue{0};
  };
  struct WgState {
    bool active = false;
    bool predicted = false;             // resources held for a duration the observer predicted
    uint32_t live_waves = 0;
    uint64_t dispatched = 0;            // cycle the group was dispatched
    uint64_t id = 0;                    // linear work-group id
    std::vector<uint32_t> slots;
    std::vector<uint8_t> simds;         // predicted: the SIMD each wave's resources were taken from
    std::unique_ptr<emu::WorkGroup> wg;
  };

  void tick(Cycle now);
  /// Decides whether wave `s` can issue now (and with which issue type); updates its cached
  /// reason and wake time.
  bool evaluate(uint32_t s, Cycle now, bool& wants_fetch, IssueType& type);
  void issue(uint32_t s, Cycle now);
  /// Reports basic blocks and instruction intervals of wave `s` to the observer.
  void observe_issue(uint32_t s, uint32_t pc, const InstInfo& in, Cycle now);
  void observe_retire(uint32_t s, Cycle now);
  /// The SIMD with the most free slots that has the registers for one more wave (-1: none).
  int pick_simd() const;
  void retire_predicted(uint32_t gi, Cycle now);
  /// Frees a finished work-group's LDS and slot, and tells the dispatcher.
  void finish_workgroup(WgState& g, Cycle now);
  void start_fetch(uint32_t s, Cycle now);
  void redirect(WaveState& ws);
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
  static CpiReason stage_reason(uint8_t stage);
  void retire_if_done(uint32_t s, Cycle now);
  void release_barrier(WgState& g, Cycle now);
  // Memory paths (cu_memory.cpp).
  void issue_vmem(uint32_t s, const InstInfo& info, Cycle now);
  void issue_smem(uint32_t s, Cycle now);
  void issue_lds(uint32_t s, Cycle now, bool via_flat);
  uint32_t lds_cycles() const;
  uint32_t alloc_op(uint32_t s);
  void complete_op(uint32_t op, Cycle now);
  /// A response to the request tagged `tag`, answering `lines` lines.
  void response(Cycle now, uint32_t tag, uint32_t lines);
  /// Sends a request for one line to `to` at `when`; returns its pool index.
  uint32_t send(Component* to, Cycle when, uint32_t op, uint64_t line, ReqKind kind, uint32_t tag);

  uint32_t index_;
  CuParams p_;
  Engine& engine_;
  RequestPool& pool_;
  Component *l1v_, *scache_, *l1i_;
  const LaunchContext* lc_ = nullptr;
  std::array<std::unique_ptr<IssuePolicy>, size_t(IssueType::COUNT)> policy_;

  // Per-tick state lives inline in the object (fixed arrays sized to the configuration limits
  // validate() enforces), so a tick of a CU whose state went cold misses on few cache lines.
  static constexpr uint32_t kMaxSimds = 16, kMaxSlots = 64;
  uint32_t slots_ = 0;            // wave slots in use by the configuration
  bool tick_pending_ = false;
  CpiReason last_reason_ = CpiReason::Other;
  CpiReason last_charged_ = CpiReason::Other;  // category of the cycle the last tick charged
  uint32_t last_reason_op_ = UINT32_MAX;
  uint32_t simd_wake_dirty_ = 0;  // SIMDs whose simd_wake_ must be recomputed
  uint32_t oldest_ = UINT32_MAX;  // active slot with the smallest age
  Cycle tick_at_{0}, acct_until_{0};
  Cycle last_tick_ = Cycle::never();  // cycle of the last tick (its SIMD has had its turn)
  uint64_t fetch_retry_ = 0;      // waves that wanted a fetch and lost the fetch arbitration
  std::array<uint64_t, kMaxSimds> simd_mask_{};  // active slots per SIMD
  std::array<Cycle, kMaxSimds> simd_wake_{};     // per SIMD: earliest wake_ of its slots (exact unless dirty)
  std::array<Cycle, kMaxSimds> valu_free_{};
  std::array<Cycle, size_t(IssueType::COUNT)> unit_free_{};
  std::array<Cycle, kMaxSlots> wake_{};    // earliest cycle the wave's evaluation could change; never when free
  std::array<uint64_t, kMaxSlots> age_{};  // dispatch order; UINT64_MAX when the slot is free

  std::vector<WaveState> waves_;
  std::vector<WgState> wgs_;
  std::vector<MemOp> ops_;
  std::vector<uint32_t> free_ops_;
  std::vector<uint32_t> vgprs_used_, sgprs_used_, slots_used_;
  uint32_t lds_used_ = 0, resident_wgs_ = 0, resident_waves_ = 0, peak_waves_ = 0;
  Cycle lds_free_{0};
  uint64_t next_age_ = 0;
  emu::MemAccessInfo mi_;
  emu::DispatchStats fstats_;
  Counters c_;
};

}  // namespace strobe::timing
