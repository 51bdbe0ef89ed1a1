// DRAM: address-interleaved channels, banks with a row buffer (open or closed page policy),
// activation/column/precharge latencies, a per-channel data bus with finite bandwidth and a
// read/write turnaround, and a memory controller that queues requests per bank and lets a
// scheduler plug-in (FCFS, FR-FCFS) choose which issues when the bank is ready.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "timing/engine/engine.h"
#include "timing/mem/dram_scheduler.h"
#include "timing/mem/mem_req.h"
#include "timing/stats/stats.h"

namespace strobe::timing {

struct GpuConfig;

/// The DRAM's geometry, timings (in core cycles) and controller policy.
struct DramParams {
  uint32_t channels = 8, banks = 8;
  uint32_t line_bytes = 64, row_bytes = 2048, interleave_bytes = 256;
  uint32_t tcl = 14, trcd = 14, trp = 14, tccd = 4;  ///< core cycles (converted from DRAM cycles)
  uint32_t turnaround = 0;                           ///< core cycles of bus turnaround read <-> write
  uint32_t controller_latency = 100;                 ///< core cycles, request + response
  uint64_t burst_fp = 4 << 8;                        ///< bus occupancy of one line, 1/256 cycles
  bool open_page = true;
  std::string scheduler = "frfcfs";
  DramSchedulerParams sched;

  /// Reads the `dram.*` keys, converting DRAM-clock timings and the bandwidth to core cycles.
  static DramParams from_config(const GpuConfig& c);
};

/// Main memory: channels of banks behind a scheduling memory controller (see the file comment).

class Dram : public Component {
 public:
  Dram(std::string name, const DramParams& p, Engine& engine, RequestPool& pool, StatsRegistry& stats);
  void handle(Cycle now, uint32_t kind, uint32_t arg) override;
  std::string describe_state() const override;

  struct Location { uint32_t channel, bank; uint64_t row; };
  Location locate(uint64_t line) const;
  /// Functional warming: `line` was read or written with no time passing, so under the open-page
  /// policy its bank now holds its row open (no timing, queue or counter changes).
  void warm(uint64_t line);

  struct Counters {
    uint64_t reads = 0, writes = 0, bytes = 0, row_hits = 0, row_misses = 0, row_conflicts = 0;
    uint64_t queue_cycles = 0;  ///< summed waiting for a busy bank or bus
    uint64_t bypasses = 0;      ///< requests issued ahead of an older request of their bank
  };
  const Counters& counters() const { return c_; }

 private:
  struct Bank {
    Cycle ready{0};                 // earliest cycle the bank accepts its next command
    Cycle next = Cycle::never();    // max(ready, oldest arrival): when it can issue; never if idle
    uint64_t open_row = UINT64_MAX;
    std::vector<DramQueued> queue;  // arrival order
    void update_next() { next = queue.empty() ? Cycle::never() : max(ready, Cycle(queue.front().arrive)); }
  };
  struct Channel {
    uint64_t bus_free_fp = 0;       // 1/256 cycles
    Cycle decide_at = Cycle::never();
    bool last_write = false, used = false;
  };
  struct Pick {
    uint32_t bank, index;
    bool hit;
  };
  void arrive(Cycle now, uint32_t r);
  /// Issues, for every ready bank of `channel` with an arrived request, the scheduler's choice.
  void decide(Cycle now, uint32_t channel);
  void issue(Cycle now, uint32_t channel, const Pick& pick);
  /// Makes sure `channel` decides again no later than `at`.
  void decide_by(uint32_t channel, Cycle at);

  DramParams p_;
  Engine& engine_;
  RequestPool& pool_;
  std::unique_ptr<DramScheduler> sched_;
  std::vector<Bank> banks_;        // channel * banks + bank
  std::vector<Channel> channels_;
  std::vector<Pick> picks_;        // scratch for decide()
  uint64_t seq_ = 0;
  bool pow2_ = false;  // every geometry parameter a power of two: locate() shifts
  uint32_t line_shift_ = 0, interleave_shift_ = 0, channel_shift_ = 0, row_shift_ = 0, bank_shift_ = 0;
  Counters c_;
};

}  // namespace strobe::timing
