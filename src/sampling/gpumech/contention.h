// GPUMech's resource contention model [D §4.4.2, Eqs. 26-32, METHODS.md §2.5, §2.9.2]: MSHR
// queueing per CU and M/D/1 DRAM bandwidth queueing over all CUs, per interval of the
// representative wave, in issue slots.
#pragma once

#include <span>
#include <vector>

#include "sampling/gpumech/interval.h"
#include "sampling/gpumech/model_params.h"
#include "sampling/gpumech/trace.h"

namespace strobe::sampling::gpumech {

/// One wave's memory demand in one interval, as the demand switches count it.
struct IntervalDemand {
  double mshr_reqs = 0;   ///< #warp_mem_reqs_i of Eq. 27 (expected requests under L1MissingReads)
  double mshr_insts = 0;  ///< #warp_mem_insts_i of Eq. 29: the instructions contributing to mshr_reqs
  double dram_reqs = 0;   ///< one wave's requests arriving at DRAM (Eq. 32 before x W x #cores)
};

/// The demand of the instructions of `interval` in `wave`. MSHR demand counts vector memory only
/// (the MSHRs belong to the L1V): under L1MissingReads, reads' requests x P(L1 miss), and the
/// reads that may miss; under AllRequests, every request of every vector memory instruction.
/// DRAM demand under DramRequests is requests x P(L2 miss) of every memory instruction with a
/// miss distribution, writes and atomics included; under SameAsMshr it is mshr_reqs.
IntervalDemand interval_demand(const WaveTrace& wave, const Interval& interval, const ModelParams& params);

/// exp_queuing_delay of Eq. 28 for `core_reqs` concurrent requests on `mshrs` entries: the
/// mean over j of latency x ceil(j / mshrs), minus latency, summed in closed form
/// (m q(q+1)/2 + ρ(q+1), q = floor(n/m), ρ = n - qm), which also interpolates an expected,
/// non-integer n linearly between its neighbouring integers. 0 for core_reqs <= mshrs.
double mshr_queue_delay(double core_reqs, int mshrs, double miss_latency);

/// Bandwidth_delay of Eq. 30: the M/D/1 wait λs² / (2(1 - ρ)) with λ = core_reqs x cores /
/// interval_slots (Eq. 32) and ρ = λs (Eq. 31), capped at s x core_reqs x cores / 2, the wait
/// behind half the interval's requests, which also applies whenever ρ >= 1.
double md1_queue_delay(double core_reqs, int cores, double interval_slots, double service_slots);

/// The contention model's quantities for one interval.
struct IntervalContention {
  IntervalDemand demand;         ///< one wave's demand
  double core_reqs = 0;          ///< Eq. 27: mshr_reqs x waves per CU
  double exp_queue_delay = 0;    ///< Eq. 28, slots per memory instruction
  double mshr_delay = 0;         ///< Eq. 29, slots
  double dram_core_reqs = 0;     ///< dram_reqs x waves per CU (the #core_reqs of Eqs. 30, 32)
  double lambda = 0;             ///< Eq. 32: requests per slot from all CUs
  double rho = 0;                ///< Eq. 31
  double bandwidth_delay = 0;    ///< Eq. 30, slots
  bool capped = false;           ///< Eq. 30's cap was the smaller term (or ρ >= 1)
};

/// The contention model over the representative's intervals.
struct Contention {
  std::vector<IntervalContention> intervals;  ///< per interval of the representative
  double miss_latency_slots = 0;              ///< avg_miss_latency of Eq. 28, in slots
  double service_slots = 0;                   ///< s of Eq. 31, in slots
  double mshr_delay = 0;                      ///< Σ MSHR_delay_i, slots
  double bandwidth_delay = 0;                 ///< Σ Bandwidth_delay_i, slots
  double cpi_mshr = 0;                        ///< Σ MSHR_delay_i / Σ insts (Eq. 26's MSHR part; / W more under PerW)
  double cpi_queue = 0;                       ///< Σ Bandwidth_delay_i / Σ insts (Eq. 26's DRAM part; / W more under PerW)
};

/// Eqs. 26-32 for the representative `wave` and its `intervals`, with avg_miss_latency in cycles.
/// Eq. 26 divides by one wave's instructions while Eq. 16 divides by W x instructions; it is
/// implemented as written (METHODS.md §2.5) unless params.rc_normalisation is PerW.
Contention contention(const WaveTrace& wave, std::span<const Interval> intervals, double miss_latency_cycles,
                      const ModelParams& params);

}  // namespace strobe::sampling::gpumech
