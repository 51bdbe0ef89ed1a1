// GPUMech's multithreading model.
#include "sampling/gpumech/multithreading.h"

#include <algorithm>

namespace strobe::sampling::gpumech {

double nonoverlapped_rr(const Interval& interval, double issue_prob, double waves) {
  // Every other wave is scheduled once between two of the representative's instructions; it
  // issues with issue_prob, and whatever issues there fills no stall (Fig. 24a).
  const double waiting_slots = interval.insts > 0 ? interval.insts - 1.0 : 0.0;  // Eq. 19
  return issue_prob * (waves - 1) * waiting_slots;                                // Eq. 20
}

double nonoverlapped_gto(const Interval& interval, double issue_prob, double avg_interval_insts, double waves,
                         double issue_rate) {
  const double prob_in_stall = std::min(issue_prob * interval.stall, 1.0);        // Eq. 24
  const double warps_in_stall = prob_in_stall * (waves - 1);                       // Eq. 23
  const double insts_in_stall = avg_interval_insts * warps_in_stall;               // Eq. 21
  // What the other waves issue beyond the stall keeps the representative waiting (Fig. 24b).
  return std::max(insts_in_stall - interval.stall * issue_rate, 0.0);             // Eq. 25
}

Multithreading multithreading(std::span<const Interval> intervals, double waves, Policy policy, double issue_rate) {
  Multithreading m;
  const auto insts = static_cast<double>(total_insts(intervals));
  if (insts == 0) return m;
  m.total_slots = total_slots(intervals, issue_rate);
  m.issue_prob = insts / m.total_slots;                                    // Eq. 18
  m.avg_interval_insts = insts / static_cast<double>(intervals.size());    // Eq. 22
  m.nonoverlapped.reserve(intervals.size());
  for (const Interval& i : intervals) {
    const double n = policy == Policy::RoundRobin
                         ? nonoverlapped_rr(i, m.issue_prob, waves)
                         : nonoverlapped_gto(i, m.issue_prob, m.avg_interval_insts, waves, issue_rate);
    m.nonoverlapped.push_back(n);
    m.total_nonoverlapped += n;                                            // Eq. 17
  }
  m.cpi = (m.total_slots + m.total_nonoverlapped / issue_rate) / (waves * insts);  // Eq. 16
  return m;
}

double naive_cpi(std::span<const Interval> intervals, double waves, double issue_rate) {
  const auto insts = static_cast<double>(total_insts(intervals));
  return insts > 0 ? total_slots(intervals, issue_rate) / (waves * insts) : 0;
}

}  // namespace strobe::sampling::gpumech
