// GPUMech's CPI stack.
#include "sampling/gpumech/cpi_stack.h"

namespace strobe::sampling::gpumech {

std::array<std::pair<const char*, double>, 7> named_categories(const CpiStack& s) {
  return {{{"BASE", s.base}, {"DEP", s.dep}, {"L1", s.l1}, {"L2", s.l2}, {"DRAM", s.dram}, {"MSHR", s.mshr},
           {"QUEUE", s.queue}}};
}

CpiStack representative_stack(const WaveTrace& wave, std::span<const Interval> intervals, double issue_rate) {
  CpiStack s;
  const auto insts = static_cast<double>(total_insts(intervals));
  if (insts == 0) return s;
  s.base = insts / issue_rate;
  for (const Interval& i : intervals) {
    if (i.stall <= 0) continue;
    const bool known = i.cause >= 0 && static_cast<size_t>(i.cause) < wave.insts.size();
    const MissEvents m = known ? wave.insts[static_cast<size_t>(i.cause)].miss : MissEvents{};
    if (!m.any()) {
      s.dep += i.stall;
      continue;
    }
    const double sum = m.l1_hit + m.l2_hit + m.l2_miss;
    s.l1 += i.stall * m.l1_hit / sum;
    s.l2 += i.stall * m.l2_hit / sum;
    s.dram += i.stall * m.l2_miss / sum;
  }
  return s.scaled(1 / insts);
}

CpiStack final_stack(const CpiStack& rep, double cpi_multithreading, double cpi_mshr, double cpi_queue) {
  const double cpi_rep = rep.total();
  CpiStack s = cpi_rep > 0 ? rep.scaled(cpi_multithreading / cpi_rep) : CpiStack{};
  s.mshr = cpi_mshr;
  s.queue = cpi_queue;
  return s;
}

}  // namespace strobe::sampling::gpumech
