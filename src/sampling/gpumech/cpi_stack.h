// GPUMech's CPI stack [D §4.7, Table 9, METHODS.md §2.6]: the representative wave's cycles by
// cause, shrunk to the multithreaded CPI, plus the two queueing categories.
#pragma once

#include <array>
#include <span>
#include <utility>

#include "sampling/gpumech/interval.h"
#include "sampling/gpumech/trace.h"

namespace strobe::sampling::gpumech {

/// CPI by category (Table 9), in the caller's time unit per wave instruction.
struct CpiStack {
  double base = 0;   ///< BASE: issuing the instructions
  double dep = 0;    ///< DEP: waiting for fixed-latency (compute, LDS) results
  double l1 = 0;     ///< L1: memory stalls of L1 hits
  double l2 = 0;     ///< L2: memory stalls of L2 hits
  double dram = 0;   ///< DRAM: memory stalls of L2 misses, without queueing
  double mshr = 0;   ///< MSHR: MSHR queueing (Eq. 29)
  double queue = 0;  ///< QUEUE: DRAM bandwidth queueing (Eq. 30)

  /// Sum of every category.
  [[nodiscard]] double total() const { return base + dep + l1 + l2 + dram + mshr + queue; }
  /// Every category multiplied by `f`.
  [[nodiscard]] CpiStack scaled(double f) const {
    return {base * f, dep * f, l1 * f, l2 * f, dram * f, mshr * f, queue * f};
  }
};

/// Every category of `s` with its Table 9 name (BASE, DEP, L1, L2, DRAM, MSHR, QUEUE), in that order.
std::array<std::pair<const char*, double>, 7> named_categories(const CpiStack& s);

/// The representative's own stack, in slots per instruction: BASE = insts / r; each interval's
/// stall goes to DEP when its cause has no miss distribution, or is split over L1, L2 and DRAM
/// by the cause's miss-event probabilities (normalised to sum to 1). Divided by the wave's
/// instructions it sums to total_slots / insts, the wave's CPI alone. Zero for an empty profile.
CpiStack representative_stack(const WaveTrace& wave, std::span<const Interval> intervals, double issue_rate);

/// The final stack: `rep` shrunk by cpi_multithreading / cpi_rep (the relative weight of each
/// category is kept), then MSHR and QUEUE set to the contention model's CPIs; it sums to
/// cpi_multithreading + cpi_mshr + cpi_queue.
CpiStack final_stack(const CpiStack& rep, double cpi_multithreading, double cpi_mshr, double cpi_queue);

}  // namespace strobe::sampling::gpumech
