// GPUMech's multithreading model [D §4.4.1, Eqs. 10, 16-25, METHODS.md §2.4]: how much of the
// representative wave's stall the other W - 1 waves of its SIMD fill, under RR or GTO.
#pragma once

#include <span>
#include <vector>

#include "sampling/gpumech/interval.h"
#include "sampling/gpumech/model_params.h"

namespace strobe::sampling::gpumech {

/// The multithreading model's quantities for one representative profile.
struct Multithreading {
  double total_slots = 0;               ///< total_cycles: Σ (insts / r + stall)
  double issue_prob = 0;                ///< Eq. 18
  double avg_interval_insts = 0;        ///< Eq. 22
  std::vector<double> nonoverlapped;    ///< Eq. 20 (RR) or Eq. 25 (GTO) per interval
  double total_nonoverlapped = 0;       ///< Eq. 17
  double cpi = 0;                       ///< CPI_multithreading of Eq. 16, in slots per wave instruction
};

/// Non-overlapped instructions of one interval under round-robin (Eqs. 19-20):
/// issue_prob x (W - 1) x (insts - 1).
double nonoverlapped_rr(const Interval& interval, double issue_prob, double waves);

/// Non-overlapped instructions of one interval under greedy-then-oldest (Eqs. 21-25):
/// max(avg_interval_insts x min(issue_prob x stall, 1) x (W - 1) - stall x r, 0).
double nonoverlapped_gto(const Interval& interval, double issue_prob, double avg_interval_insts, double waves,
                         double issue_rate);

/// Eqs. 16-25 for `waves` (W) waves sharing the issue slots, under `policy`. An empty profile
/// gives all zeros. RR may give a CPI below 1 / r: the paper does not clamp it, nor does this.
Multithreading multithreading(std::span<const Interval> intervals, double waves, Policy policy, double issue_rate);

/// Eq. 10's naive CPI: the single wave's CPI divided by W, total_cycles / (W x Σ insts), in slots.
/// 0 for an empty profile.
double naive_cpi(std::span<const Interval> intervals, double waves, double issue_rate);

}  // namespace strobe::sampling::gpumech
