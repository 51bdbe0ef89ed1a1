// Latencies of memory instructions from their miss-event distributions.
#include "sampling/gpumech/latency.h"

namespace strobe::sampling::gpumech {

double amat(const MissEvents& miss, const ModelParams& params) {
  return miss.l1_hit * params.l1_latency + miss.l2_hit * params.l2_latency + miss.l2_miss * params.dram_latency;
}

void MissLatency::add(const WaveTrace& wave, const ModelParams& params) {
  // The MSHR holds a request from its L1 miss until L2 or DRAM answers, so the service time the
  // queueing of Eq. 28 needs is the latency of the misses, not the AMAT with L1 hits averaged in.
  for (const TraceInst& inst : wave.insts) {
    if (inst.cls != InstClass::VectorMemory) continue;
    weighted_ += inst.miss.l2_hit * params.l2_latency + inst.miss.l2_miss * params.dram_latency;
    weight_ += inst.miss.l1_miss();
  }
}

double avg_miss_latency(std::span<const WaveTrace> waves, const ModelParams& params) {
  MissLatency m;
  for (const WaveTrace& wave : waves) m.add(wave, params);
  return m.value();
}

}  // namespace strobe::sampling::gpumech
