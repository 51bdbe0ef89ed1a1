// GPUMech's single-wave model: the interval algorithm (Eq. 13) and the interval profile (Eq. 11)
// [D §4.3.2, METHODS.md §2.2], with s_waitcnt dependencies as GCN3 needs them (§2.9.3).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "sampling/gpumech/model_params.h"
#include "sampling/gpumech/trace.h"

namespace strobe::sampling::gpumech {

/// One interval of a wave (an entry of Eq. 11), in issue slots.
struct Interval {
  uint32_t first = 0;  ///< trace index of its first instruction (0 for a profile given by hand)
  uint32_t insts = 0;  ///< #interval_insts: the run of instructions issued back to back
  double stall = 0;    ///< stall_cycles: slots after its last instruction with nothing issued
  int64_t cause = -1;  ///< trace index of the producer the stall waited for; -1 with no stall
};

/// A wave's interval profile and the in-order schedule it came from.
struct IntervalProfile {
  std::vector<Interval> intervals;  ///< in program order; every instruction is in exactly one
  std::vector<double> issue;        ///< issue slot of each trace instruction (the first at 0)
  std::vector<double> done;         ///< slot at which each instruction's result is done
};

/// Runs Eq. 13 over the trace in slots (latency / cycles_per_slot, issue spacing 1 / issue_rate):
/// issue[k+1] = max(issue[k] + 1/r, done[p] + 1/r) over k+1's producers p, and for an s_waitcnt
/// over the vector-memory (vmcnt) or LDS and scalar-memory (lgkmcnt) operations older than the
/// N most recent, which GCN3 retires in order. An instruction that issues late starts a new
/// interval; the previous one closes the current interval with stall = the gap minus 1/r. The
/// trailing interval stalls 0 slots, or until its last result is done with include_drain.
/// Throws std::invalid_argument for a producer index that is not earlier than its consumer.
IntervalProfile interval_profile(const WaveTrace& wave, const ModelParams& params);
/// The same into `out`, reusing its storage (the model profiles every wave of a launch in turn).
void interval_profile(const WaveTrace& wave, const ModelParams& params, IntervalProfile& out);

/// Σ #interval_insts.
uint64_t total_insts(std::span<const Interval> intervals);

/// total_cycles of §2.4 in slots: Σ (#interval_insts / r + stall_cycles).
double total_slots(std::span<const Interval> intervals, double issue_rate);

/// warp_perf of Eq. 14 (= issue_prob of Eq. 18): instructions per slot of the wave running alone.
/// 0 for an empty profile.
double wave_perf(std::span<const Interval> intervals, double issue_rate);

}  // namespace strobe::sampling::gpumech
