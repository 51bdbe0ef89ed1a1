// Builds GPUMech wave traces for the model's tests, one instruction per call.
#pragma once

#include <cstdint>
#include <initializer_list>

#include "sampling/gpumech/model_params.h"
#include "sampling/gpumech/trace.h"

namespace strobe::sampling::gpumech::testing {

/// Appends instructions to a trace and returns each one's index, so producers read as names.
class TraceBuilder {
 public:
  /// A fixed-latency instruction reading the results of `producers`.
  uint32_t compute(double latency, std::initializer_list<uint32_t> producers = {}) {
    TraceInst i;
    i.latency = latency;
    i.producers = producers;
    return push(i);
  }
  /// A vector memory instruction with its AMAT, requests and miss distribution.
  uint32_t vmem(MemAccess access, double latency, uint32_t requests, MissEvents miss,
                std::initializer_list<uint32_t> producers = {}) {
    TraceInst i;
    i.cls = InstClass::VectorMemory;
    i.access = access;
    i.latency = latency;
    i.requests = requests;
    i.miss = miss;
    i.producers = producers;
    return push(i);
  }
  /// An LDS or scalar-memory instruction (counted by lgkmcnt) with a fixed latency.
  uint32_t lgkm(InstClass cls, double latency) {
    TraceInst i;
    i.cls = cls;
    i.access = MemAccess::Read;
    i.latency = latency;
    return push(i);
  }
  /// An s_waitcnt with the given thresholds (kNoWait leaves a counter alone).
  uint32_t waitcnt(uint8_t vmcnt, uint8_t lgkmcnt = kNoWait) {
    TraceInst i;
    i.cls = InstClass::Waitcnt;
    i.wait = {vmcnt, lgkmcnt};
    return push(i);
  }
  /// The trace built so far.
  [[nodiscard]] const WaveTrace& trace() const { return trace_; }

 private:
  uint32_t push(TraceInst i) {
    trace_.insts.push_back(std::move(i));
    return static_cast<uint32_t>(trace_.insts.size() - 1);
  }
  WaveTrace trace_;
};

/// Parameters in the paper's own time unit: one core issuing one instruction per cycle, so the
/// dissertation's worked values apply unchanged.
inline ModelParams paper_units(double warps) {
  ModelParams p;
  p.cycles_per_slot = 1;
  p.simds_per_cu = 1;
  p.waves_per_cu = warps;
  return p;
}

}  // namespace strobe::sampling::gpumech::testing
