// Per-wave timing state of a resident wave and the CU's counters: the data the CU's parts
// (evaluation, instruction buffer, memory pipeline) share.
#pragma once

#include <array>
#include <cstdint>

#include "timing/cu/cpi_accountant.h"
#include "timing/cu/inst_buffer.h"
#include "timing/cu/inst_info.h"
#include "timing/cu/scoreboard.h"
#include "timing/cu/wave_resources.h"
#include "timing/engine/cycle.h"

namespace strobe::emu { struct Wave; struct WorkGroup; class Executor; }
namespace strobe::isa { struct Program; }

namespace strobe::timing {

/// Hardware limits of the wait counters and the in-order vmcnt FIFO.
inline constexpr uint32_t kMaxVm = 15, kMaxLgkm = 15, kMaxExp = 7, kVmFifo = 16;

/// The code a wave runs: its program and the timing model's view of each instruction. A wave
/// carries its own, so waves of different programs (kernels, graphics shader stages) can share
/// a CU.
struct WaveCode {
  const InstInfo* info = nullptr;  ///< one per instruction of `program`
  uint32_t size = 0;               ///< instructions
  const isa::Program* program = nullptr;
};

// Hot fields first: an evaluation reads only the first cache line (plus the instruction's
// InstInfo and, when a result is still in flight, the scoreboard).
/// A resident wave's timing state.
struct alignas(64) WaveState {
  bool active = false;
  bool halted = false, at_barrier = false;  // copies of the emulator's flags, refreshed at issue
  uint8_t simd = 0;
  uint8_t vm = 0, lgkm = 0, exp = 0;  // outstanding vmcnt / lgkmcnt / expcnt
  CpiReason ready_reason = CpiReason::Other;
  CpiReason reason = CpiReason::Other;
  uint8_t vm_head = 0, vm_count = 0;
  uint32_t pc = 0;                  // copy of the emulator's PC, refreshed at issue
  uint32_t reason_op = UINT32_MAX;  // memory op whose progress the reason reflects
  uint32_t last_smem_op = UINT32_MAX;
  InstBuffer ib;
  Cycle ready_at{0};
  WaveCode code;                    // info and size end the first cache line
  uint32_t wg = 0;
  // What issuing executes, next to each other so an issue touches one more line, not the
  // work-group's state as well.
  emu::Wave* w = nullptr;
  emu::Executor* executor = nullptr;  // the group's (WorkgroupLaunch::executor)
  emu::WorkGroup* group = nullptr;    // the group the wave belongs to
  std::array<uint32_t, kVmFifo> vm_fifo{};  // vmcnt ops in issue order (ring)
  Scoreboard sb;
  // Observation for a LaunchObserver (cold: touched only when one is installed).
  uint32_t bb_start = 0, bb_insts = 0, last_pc = UINT32_MAX;
  bool bb_ended = false;
  Cycle bb_issue{0}, last_issue{0};
};

/// A CU's event counters (registered as statistics).
struct CuCounters {
  uint64_t wave_instructions = 0, thread_instructions = 0;
  std::array<uint64_t, size_t(IssueType::COUNT)> issued{};
  std::array<uint64_t, size_t(IssueType::COUNT)> busy{};
  uint64_t workgroups = 0, waves = 0, fetches = 0, lds_conflict_cycles = 0, vmem_lines = 0;
  uint64_t matrix_busy = 0;  ///< cycles the SIMDs' matrix cores were busy, summed over SIMDs
  // Per SIMD, for utilisation maps: instructions its waves issued, and cycles its VALU was busy.
  std::array<uint64_t, WaveResources::kMaxSimds> simd_issued{}, simd_valu_busy{};
};

}  // namespace strobe::timing
