// A set-associative cache with a replacement plug-in (LRU, tree-PLRU, random), MSHRs that merge misses to the same line, a
// lookup port with finite throughput and either write-back/write-allocate (L2) or
// write-through/no-write-allocate (L1V) stores. One class serves L1V, L1I, scalar cache and
// each L2 bank; the parameters differ. A request may carry a batch of lines (one vector memory
// instruction's coalesced lines): they are looked up one after another exactly as separate
// requests would be, and the read hits among them answer with one response.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "timing/engine/engine.h"
#include "timing/mem/mem_req.h"
#include "timing/mem/replacement.h"
#include "timing/stats/stats.h"

namespace strobe::timing {

struct CacheParams {
  uint32_t sets = 64, ways = 4;
  uint32_t index_divisor = 1;   ///< line / divisor selects the set (removes bank-interleave bits)
  uint32_t hit_latency = 1;     ///< lookup to response on a hit
  uint32_t miss_latency = 0;    ///< lookup to the request leaving for the lower level
  uint32_t fill_latency = 0;    ///< fill arrival to response for the waiting requests
  uint32_t mshrs = 16;
  uint32_t lookup_fp = 256;     ///< port occupancy of a read lookup, 1/256 cycles
  uint32_t write_in_fp = 256;   ///< port occupancy of a write (it carries a line of data), 1/256 cycles
  uint32_t data_out_fp = 256;   ///< response port occupancy of a line of data, 1/256 cycles
  uint32_t atomic_cycles = 0;   ///< extra latency of an atomic performed here
  uint16_t lower_latency = 0;   ///< one-way latency to and from the lower level
  bool write_back = false;      ///< true: write-back + write-allocate; false: write-through, no allocate
  bool atomics_here = false;    ///< true: perform atomics (L2); false: forward them (L1)
  MemStage stage = MemStage::L1;///< CPI stage of requests waiting on this level
  std::string replacement = "lru"; ///< replacement policy (replacement.h registry name)
  uint64_t seed = 0;            ///< this cache's seed for randomised replacement
};

class Cache : public Component {
 public:
  Cache(std::string name, const CacheParams& p, Engine& engine, RequestPool& pool, StatsRegistry& stats);

  /// Lower level(s): a line goes to lowers[line % lowers.size()] (address-interleaved banks).
  void set_lower(std::vector<Component*> lowers);
  void handle(Cycle now, uint32_t kind, uint32_t arg) override;
  std::string describe_state() const override;

  /// True if `line` is present (tests).
  bool contains(uint64_t line) const;
  /// True if `line` is present and dirty (tests).
  bool is_dirty(uint64_t line) const;
  uint32_t mshrs_in_use() const { return mshr_used_; }

  struct Counters {
    uint64_t reads = 0, read_hits = 0, read_misses = 0, mshr_merges = 0, mshr_full = 0;
    uint64_t writes = 0, write_hits = 0, write_misses = 0, atomics = 0, writebacks = 0, evictions = 0;
  };
  const Counters& counters() const { return c_; }

 private:
  struct Mshr {
    uint64_t line = 0;
    uint32_t head = RequestPool::kNil, tail = RequestPool::kNil;  // waiting requests
    uint32_t next_in_set = RequestPool::kNil;                     // the set's next busy MSHR
  };
  static constexpr uint64_t kDirty = uint64_t{1} << 63;  // tag bit: the line is dirty
  void request(Cycle now, uint32_t r, bool replay = false);
  /// A batch request: every line in order; read hits answer together with one response.
  void request_batch(Cycle now, uint32_t b);
  /// Lookup port: the cycle a lookup arriving at `now` starts.
  Cycle reserve_port(Cycle now, ReqKind kind);
  /// The rest of a lookup that started at `start`: `way` is the line's way in `set` or -1.
  void serve(Cycle start, uint32_t r, uint32_t set, int way, bool replay);
  /// Allocates an MSHR (or queues `r` for one) for a read or atomic miss in `set`.
  void miss(Cycle start, uint32_t r, uint32_t set, bool replay);
  /// Data-out port: when a line of data leaving at `when` has left.
  Cycle data_out(Cycle when);
  /// The line MSHR `mi` fetched has arrived.
  void fill(Cycle now, uint32_t mi);
  void respond(Cycle when, uint32_t r, bool data);
  /// Way index holding `line` in its set, or -1.
  int find(uint64_t line, uint32_t set) const;
  /// Installs `line`, evicting (and writing back) the LRU way if needed; returns the slot.
  uint32_t install(Cycle now, uint64_t line, uint32_t set);
  void send_lower(Cycle when, uint32_t r);
  uint32_t set_of(uint64_t line) const {
    const uint64_t index = index_shift_ != UINT32_MAX ? line >> index_shift_ : line / p_.index_divisor;
    return uint32_t(index & (p_.sets - 1));
  }
  Component* lower_of(uint64_t line) const {
    return lowers_[lower_pow2_ ? line & lower_mask_ : line % lowers_.size()];
  }

  CacheParams p_;
  Engine& engine_;
  RequestPool& pool_;
  std::vector<Component*> lowers_;
  uint64_t lower_mask_ = 0;  // lowers_.size() - 1
  bool lower_pow2_ = true;
  std::unique_ptr<ReplacementPolicy> repl_;
  std::vector<uint64_t> tag_;    // line + 1 per slot (| kDirty), 0 = invalid
  uint32_t index_shift_ = UINT32_MAX;  // log2(index_divisor) when a power of two
  std::vector<Mshr> mshr_;
  std::vector<uint32_t> free_mshrs_;  // stack of free MSHR indices
  std::vector<uint32_t> set_mshrs_;   // per set: chain of the MSHRs fetching its lines (few)
  uint32_t mshr_used_ = 0;
  std::vector<uint32_t> blocked_;  // requests waiting for a free MSHR, FIFO
  size_t blocked_head_ = 0;
  uint64_t port_free_fp_ = 0, out_free_fp_ = 0;  // 1/256 cycles
  Counters c_;
};

}  // namespace strobe::timing
