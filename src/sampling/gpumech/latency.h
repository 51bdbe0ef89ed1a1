// Latencies of memory instructions from their miss-event distributions [D §4.5.2, Eq. 28].
#pragma once

#include <span>

#include "sampling/gpumech/model_params.h"
#include "sampling/gpumech/trace.h"

namespace strobe::sampling::gpumech {

/// A memory PC's latency in cycles: the AMAT Σ P(event) x latency(event) over L1 hit, L2 hit and
/// L2 miss [D §4.5.2]. What a collector writes into TraceInst::latency.
double amat(const MissEvents& miss, const ModelParams& params);

/// Eq. 28's avg_miss_latency gathered one wave at a time, so a launch's waves need not be held
/// together.
class MissLatency {
 public:
  /// Adds every dynamic vector memory instruction of `wave`.
  void add(const WaveTrace& wave, const ModelParams& params);
  /// The weighted mean so far, in cycles; 0 when no instruction misses the L1.
  [[nodiscard]] double value() const { return weight_ > 0 ? weighted_ / weight_ : 0; }

 private:
  double weighted_ = 0;  ///< Σ P(L1 miss)-weighted latency of the L1-leaving requests
  double weight_ = 0;    ///< Σ P(L1 miss)
};

/// avg_miss_latency of Eq. 28 in cycles: the mean latency of the requests that leave the L1,
/// weighted by how likely each dynamic vector memory instruction is to leave it, over every
/// wave's trace. 0 when no instruction misses the L1.
double avg_miss_latency(std::span<const WaveTrace> waves, const ModelParams& params);

}  // namespace strobe::sampling::gpumech
