// GPUMech's resource contention model.
#include "sampling/gpumech/contention.h"

#include <algorithm>
#include <cmath>

namespace strobe::sampling::gpumech {

IntervalDemand interval_demand(const WaveTrace& wave, const Interval& interval, const ModelParams& params) {
  IntervalDemand d;
  const size_t end = std::min<size_t>(wave.insts.size(), size_t{interval.first} + interval.insts);
  for (size_t k = interval.first; k < end; ++k) {
    const TraceInst& inst = wave.insts[k];
    if (inst.requests == 0) continue;
    if (inst.cls == InstClass::VectorMemory) {
      if (params.mshr_demand == MshrDemand::AllRequests) {
        d.mshr_reqs += inst.requests;
        d.mshr_insts += 1;
      } else if (inst.access == MemAccess::Read && inst.miss.l1_miss() > 0) {
        // "Write requests do not allocate MSHR entries", and an L1 hit never waits for one.
        d.mshr_reqs += inst.requests * inst.miss.l1_miss();
        d.mshr_insts += 1;
      }
    }
    if (params.dram_demand == DramDemand::DramRequests &&
        (inst.cls == InstClass::VectorMemory || inst.cls == InstClass::ScalarMemory)) {
      d.dram_reqs += inst.requests * inst.miss.l2_miss;
    }
  }
  if (params.dram_demand == DramDemand::SameAsMshr) d.dram_reqs = d.mshr_reqs;
  return d;
}

double mshr_queue_delay(double core_reqs, int mshrs, double miss_latency) {
  if (mshrs <= 0 || core_reqs <= mshrs) return 0;  // Eq. 29's first case
  const double m = mshrs;
  const double q = std::floor(core_reqs / m);
  const double rest = core_reqs - q * m;
  const double sum_ceil = m * q * (q + 1) / 2 + rest * (q + 1);  // Σ_{j=1..n} ceil(j/m)
  return miss_latency * sum_ceil / core_reqs - miss_latency;     // Eq. 28
}

double md1_queue_delay(double core_reqs, int cores, double interval_slots, double service_slots) {
  const double arrivals = core_reqs * cores;
  if (arrivals <= 0 || interval_slots <= 0) return 0;
  const double lambda = arrivals / interval_slots;  // Eq. 32
  const double rho = lambda * service_slots;         // Eq. 31
  const double cap = service_slots * arrivals / 2;
  if (rho >= 1) return cap;  // the queue would grow without bound
  return std::min(lambda * service_slots * service_slots / (2 * (1 - rho)), cap);  // Eq. 30
}

Contention contention(const WaveTrace& wave, std::span<const Interval> intervals, double miss_latency_cycles,
                      const ModelParams& params) {
  Contention c;
  c.miss_latency_slots = miss_latency_cycles / params.cycles_per_slot;
  c.service_slots = params.dram_service_slots();
  const double waves_cu = params.waves_per_cu;  // MSHRs and DRAM requests gather per CU (§2.9.2)
  c.intervals.reserve(intervals.size());
  for (const Interval& i : intervals) {
    IntervalContention ic;
    ic.demand = interval_demand(wave, i, params);
    ic.core_reqs = ic.demand.mshr_reqs * waves_cu;  // Eq. 27
    ic.exp_queue_delay = mshr_queue_delay(ic.core_reqs, params.mshrs_per_cu, c.miss_latency_slots);
    ic.mshr_delay = ic.core_reqs > params.mshrs_per_cu ? ic.exp_queue_delay * ic.demand.mshr_insts : 0;  // Eq. 29
    ic.dram_core_reqs = ic.demand.dram_reqs * waves_cu;
    const double slots = i.insts / params.issue_rate + i.stall;
    if (slots > 0) {
      ic.lambda = ic.dram_core_reqs * params.cus / slots;
      ic.rho = ic.lambda * c.service_slots;
    }
    ic.bandwidth_delay = md1_queue_delay(ic.dram_core_reqs, params.cus, slots, c.service_slots);
    ic.capped = ic.dram_core_reqs > 0 &&
                (ic.rho >= 1 || ic.bandwidth_delay >= c.service_slots * ic.dram_core_reqs * params.cus / 2);
    c.mshr_delay += ic.mshr_delay;
    c.bandwidth_delay += ic.bandwidth_delay;
    c.intervals.push_back(ic);
  }
  // Eq. 26 as written divides by one wave's instructions, while Eq. 16 divides CPI_MT by W x
  // instructions; PerW reads the delays as shared by the W waves of a SIMD.
  const double per = params.rc_normalisation == RcNormalisation::PerW ? params.waves_per_simd() : 1.0;
  const double insts = static_cast<double>(total_insts(intervals)) * per;
  if (insts > 0) {
    c.cpi_mshr = c.mshr_delay / insts;
    c.cpi_queue = c.bandwidth_delay / insts;
  }
  return c;
}

}  // namespace strobe::sampling::gpumech
