// DRAM: address-interleaved channels, banks with a row buffer (open or closed page policy),
// activation/column/precharge latencies and a per-channel data bus with finite bandwidth.
// Requests are served first-come first-served per bank and channel.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "timing/engine/engine.h"
#include "timing/mem/mem_req.h"
#include "timing/stats/stats.h"

namespace strobe::timing {

struct DramParams {
  uint32_t channels = 8, banks = 8;
  uint32_t line_bytes = 64, row_bytes = 2048, interleave_bytes = 256;
  uint32_t tcl = 14, trcd = 14, trp = 14, tccd = 4;  ///< core cycles (converted from DRAM cycles)
  uint32_t controller_latency = 100;                 ///< core cycles, request + response
  uint64_t burst_fp = 4 << 8;                        ///< bus occupancy of one line, 1/256 cycles
  bool open_page = true;
};

class Dram : public Component {
 public:
  Dram(std::string name, const DramParams& p, Engine& engine, RequestPool& pool, StatsRegistry& stats);
  void handle(Cycle now, uint32_t kind, uint32_t arg) override;
  std::string describe_state() const override;

  struct Location { uint32_t channel, bank; uint64_t row; };
  Location locate(uint64_t line) const;

  struct Counters {
    uint64_t reads = 0, writes = 0, bytes = 0, row_hits = 0, row_misses = 0, row_conflicts = 0;
    uint64_t queue_cycles = 0;  ///< summed waiting for a busy bank or bus
  };
  const Counters& counters() const { return c_; }

 private:
  struct Bank { Cycle ready{0}; uint64_t open_row = UINT64_MAX; };
  DramParams p_;
  Engine& engine_;
  RequestPool& pool_;
  std::vector<Bank> banks_;          // channel * banks + bank
  std::vector<uint64_t> bus_free_;   // per channel, 1/256 cycles
  Counters c_;
};

}  // namespace strobe::timing
