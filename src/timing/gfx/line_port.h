// The fixed-function stages' path to memory: requests of whole lines straight to the L2 banks
// over the NoC's latency, answered to the pipeline with the requester's tag. Under the quantum
// runner the banks live in the memory hub's partition, and a request crosses to them.
#pragma once

#include <cstdint>
#include <vector>

#include "timing/engine/engine.h"
#include "timing/engine/events.h"
#include "timing/mem/mem_req.h"

namespace strobe::timing {

/// Sends line requests to the L2 banks for one requester (see the file comment).
class LinePort {
 public:
  /// Responses go to `requester`; lines are `line_bytes` long; each way takes `latency` cycles.
  LinePort(Engine& engine, RequestPool& pool, std::vector<Component*> l2_banks, Component& requester,
           uint32_t line_bytes, uint32_t latency)
      : engine_(engine), pool_(pool), l2_(std::move(l2_banks)), requester_(requester), line_bytes_(line_bytes),
        latency_(latency) {}
  /// Sends one request per line of [addr, addr + bytes), tagged `tag`; returns the lines sent.
  uint32_t send(Cycle now, uint64_t addr, uint64_t bytes, ReqKind kind, uint32_t tag) {
    if (!bytes) return 0;
    const uint64_t first = addr / line_bytes_, last = (addr + bytes - 1) / line_bytes_;
    for (uint64_t line = first; line <= last; ++line) {
      const uint32_t r = pool_.make(line, kind, &requester_, tag);
      pool_[r].return_latency = uint16_t(latency_);
      Component* bank = l2_[line % l2_.size()];
      // Under the quantum runner the banks are the memory hub's: the request crosses.
      if (bank->partition() != pool_.partition())
        pool_.cross(bank->partition(), now, now + uint64_t(latency_), bank, r);
      else
        engine_.schedule(now + uint64_t(latency_), bank, kMemRequest, r);
    }
    return uint32_t(last - first + 1);
  }

 private:
  Engine& engine_;
  RequestPool& pool_;
  std::vector<Component*> l2_;
  Component& requester_;
  uint32_t line_bytes_, latency_;
};

}  // namespace strobe::timing
