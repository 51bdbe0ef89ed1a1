// Latencies of memory instructions from their miss-event distributions [D §4.5.2, Eq. 28].
#pragma once

#include <span>

#include "sampling/gpumech/model_params.h"
#include "sampling/gpumech/trace.h"

namespace strobe::sampling::gpumech {

/// A memory PC's latency in cycles: the AMAT Σ P(event) x latency(event) over L1 hit, L2 hit and
/// L2 miss [D §4.5.2]. What a collector writes into TraceInst::latency.
double amat(const MissEvents& miss, const ModelParams& params);

/// avg_miss_latency of Eq. 28 in cycles: the mean latency of the requests that leave the L1,
/// weighted by how likely each dynamic vector memory instruction is to leave it, over every
/// wave's trace. 0 when no instruction misses the L1.
double avg_miss_latency(std::span<const WaveTrace> waves, const ModelParams& params);

}  // namespace strobe::sampling::gpumech
