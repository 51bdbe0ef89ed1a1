// The timed cache: a CacheTags array (tags, replacement, hit/miss/evict) behind a lookup port
// with finite throughput, MSHRs that merge misses to the same line, and either
// write-back/write-allocate (L2) or write-through/no-write-allocate (L1V) stores. One class serves L1V, L1I, scalar cache and
// each L2 bank; the parameters differ. A request may carry a batch of lines (one vector memory
// instruction's coalesced lines): they are looked up one after another exactly as separate
// requests would be, and the read hits among them answer with one response.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "timing/engine/engine.h"
#include "timing/mem/cache_tags.h"
#include "timing/mem/mem_req.h"
#include "timing/stats/stats.h"

namespace strobe::timing {

struct GpuConfig;

/// The cache levels of the GPU (each reads its own keys of the configuration).
enum class CacheLevel : uint8_t { L1V, Scalar, L1I, L2 };

/// Everything one cache instance is built from.
struct CacheParams {
  CacheGeometry geometry;
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

  /// The parameters of cache `name` ("l1v.3", "l2.0": it seeds the replacement stream) at
  /// `level`, read from the configuration; an L2 instance is one of `l2.banks` banks.
  static CacheParams from_config(const GpuConfig& c, CacheLevel level, const std::string& name);
};

/// A cache level's timing around its CacheTags (see the file comment).

class Cache : public Component {
 public:
  Cache(std::string name, const CacheParams& p, Engine& engine, RequestPool& pool, StatsRegistry& stats);

  /// Lower level(s): a line goes to lowers[line % lowers.size()] (address-interleaved banks).
  /// Every lower level must be in one partition, set before this call (requests to another
  /// partition than this cache's pool leave it through RequestPool::cross).
  void set_lower(std::vector<Component*> lowers);
  void handle(Cycle now, uint32_t kind, uint32_t arg) override;
  std::string describe_state() const override;

  /// True if `line` is present (tests).
  bool contains(uint64_t line) const { return tags_.contains(line); }
  /// True if `line` is present and dirty (tests).
  bool is_dirty(uint64_t line) const { return tags_.is_dirty(line); }
  /// The tag array (functional state).
  const CacheTags& tags() const { return tags_; }
  /// Functional warming: applies an access of `line` to the tags exactly as serve() and fill()
  /// would leave them, at once, with no port, MSHR, event or counter. Returns true when the
  /// access continues to the lower level (a read or atomic miss fetches, a write-through cache
  /// forwards writes and atomics). A dirty victim's write-back is dropped; with `writeback`, its
  /// line is stored there (UINT64_MAX when there was none), for a caller that warms DRAM.
  bool warm(uint64_t line, ReqKind kind, uint64_t* writeback = nullptr);
  uint32_t mshrs_in_use() const { return mshr_used_; }
  /// Empties the tag array at once, dropping dirty lines untimed (between frames; no request
  /// may be in flight).
  void invalidate_all() { tags_.invalidate_all(); }

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
  /// Installs `line`, evicting (and writing back a dirty victim) if needed; returns the slot.
  uint32_t install(Cycle now, uint64_t line, uint32_t set);
  void send_lower(Cycle when, uint32_t r);
  Component* lower_of(uint64_t line) const {
    return lowers_[lower_pow2_ ? line & lower_mask_ : line % lowers_.size()];
  }

  CacheParams p_;
  Engine& engine_;
  RequestPool& pool_;
  std::vector<Component*> lowers_;
  uint64_t lower_mask_ = 0;  // lowers_.size() - 1
  uint32_t lower_partition_ = 0;
  bool lower_pow2_ = true;
  CacheTags tags_;
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
