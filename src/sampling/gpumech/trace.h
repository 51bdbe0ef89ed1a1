// GPUMech's input: one wave's dynamic instruction trace with dependencies and latencies
// [D §4.5, METHODS.md §2.1, §2.9.3-4], as a trace collector and a cache-only simulation fill it.
#pragma once

#include <cstdint>
#include <vector>

namespace strobe::sampling::gpumech {

/// What an instruction is, for waitcnt counters, MSHR and DRAM demand, and the CPI stack.
enum class InstClass : uint8_t {
  Compute,       ///< fixed latency from the configuration: VALU, SALU, branch, s_nop, barrier, ...
  VectorMemory,  ///< FLAT/MUBUF through the L1V: counted by vmcnt, may allocate MSHRs
  ScalarMemory,  ///< SMEM: counted by lgkmcnt
  Lds,           ///< DS: counted by lgkmcnt; a fixed latency (base plus bank-conflict serialisation)
  Waitcnt,       ///< s_waitcnt: waits for the counters in TraceInst::wait
};

/// Direction of a memory access: only reads allocate L1 MSHRs in the default demand reading (§2.5).
enum class MemAccess : uint8_t { None, Read, Write, Atomic };

/// Probabilities of a memory instruction's miss event, aggregated per PC by the cache-only
/// simulation; a divergent instruction takes its longest request's event [D §4.5.2]. All zero for
/// a fixed-latency instruction, which the CPI stack then charges to DEP.
struct MissEvents {
  double l1_hit = 0;   ///< served by the L1 (vector L1 or scalar cache)
  double l2_hit = 0;   ///< missed L1, hit L2
  double l2_miss = 0;  ///< missed L2: served by DRAM

  /// Whether the instruction has a miss distribution at all (a latency class other than fixed).
  [[nodiscard]] bool any() const { return l1_hit + l2_hit + l2_miss > 0; }
  /// Probability that a request leaves the L1.
  [[nodiscard]] double l1_miss() const { return l2_hit + l2_miss; }
};

/// s_waitcnt operand value meaning "this counter is not waited on".
inline constexpr uint8_t kNoWait = 0xff;

/// Counter thresholds of an s_waitcnt: wait until at most N operations of the kind are outstanding.
struct WaitCounts {
  uint8_t vmcnt = kNoWait;    ///< vector memory (loads, stores and atomics)
  uint8_t lgkmcnt = kNoWait;  ///< LDS and scalar memory
};

/// One dynamic wave instruction.
struct TraceInst {
  uint32_t pc = 0;                 ///< static instruction (for reports; the model does not key on it)
  InstClass cls = InstClass::Compute;
  MemAccess access = MemAccess::None;
  /// Cycles from issue until the result is done (Eq. 13's latency(PC)); a memory instruction's
  /// is its PC's AMAT (see amat()). A dependent issues one slot after done, so a latency the
  /// issue cadence already hides (VALU to VALU on GCN3) is 0.
  double latency = 0;
  uint32_t requests = 0;           ///< coalesced cache-line requests of a memory instruction
  MissEvents miss;                 ///< miss-event distribution of a memory instruction
  WaitCounts wait;                 ///< thresholds of an s_waitcnt (cls == Waitcnt)
  std::vector<uint32_t> producers; ///< trace indices (all earlier) of the latest producers of its sources
};

/// One wave's trace in program order.
struct WaveTrace {
  std::vector<TraceInst> insts;  ///< dynamic instructions as the wave issued them
};

}  // namespace strobe::sampling::gpumech
