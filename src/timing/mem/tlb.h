// Address translation in front of the L1 caches: a small, fully associative L1 TLB per
// requester (each CU's vector path, each shader array's scalar and instruction paths) over one
// set-associative L2 TLB the whole GPU shares, and a page walker with a bounded number of walks
// in flight. This is the structure of MGPUSim's validated R9 Nano (docs/notes-mgpusim-r9nano.md).
//
// A TLB is a delay stage: it forwards each request to its cache, unchanged, once every page the
// request's lines touch is translated. Translation state is computed when a request arrives (in
// the engine's deterministic event order): an entry records the cycle its translation becomes
// usable, so a request for a page whose walk is still in flight waits for that walk instead of
// starting another (misses to one page merge), and a walk starts when a walker is free.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "timing/engine/engine.h"
#include "timing/mem/mem_req.h"
#include "timing/stats/stats.h"

namespace strobe::timing {

struct GpuConfig;

/// The translation parameters (the `tlb.*` keys).
struct TlbParams {
  bool enabled = false;
  uint32_t page_bits = 12;       ///< log2 of the page size
  uint32_t line_bits = 6;        ///< log2 of the cache line size (requests carry line addresses)
  uint32_t l1_entries = 64;      ///< per L1 TLB, fully associative, LRU
  uint32_t l1_latency = 4;       ///< lookup latency of an L1 TLB, hit or miss
  uint32_t l2_sets = 16384, l2_ways = 64;
  uint32_t l2_latency = 10;      ///< lookup latency of the L2 TLB (after an L1 TLB miss)
  uint32_t walk_latency = 100;   ///< one page walk, from start to the translation
  uint32_t walkers = 16;         ///< page walks in flight at once

  /// Reads the `tlb.*` keys and the line size.
  static TlbParams from_config(const GpuConfig& c);
};

/// A translation held by a TLB: its page, the cycle it becomes usable (a walk may still be in
/// flight), and its LRU stamp.
struct TlbEntry {
  uint64_t page = UINT64_MAX;
  uint64_t ready = 0;
  uint64_t last_use = 0;
  uint32_t lookup = UINT32_MAX;  ///< an L1 entry whose translation is still being looked up (Tlb)
};

/// The GPU's shared L2 TLB and its page walker (see the file comment).
class SharedTlb {
 public:
  SharedTlb(const TlbParams& p, StatsRegistry& stats);
  /// The cycle page `page`'s translation is usable, for a lookup starting at `now`: an L2 hit
  /// (or a walk already under way), or a new walk when a walker is free.
  Cycle translate(uint64_t page, Cycle now);
 private:
  TlbParams p_;
  std::vector<TlbEntry> entries_;       // sets x ways
  std::vector<uint64_t> walker_free_;   // per walker: the cycle it is free
  uint64_t stamp_ = 0;
  uint64_t hits_ = 0, misses_ = 0, walk_wait_cycles_ = 0;
};

/// One L1 TLB in front of `next` (a cache): forwards each request once its pages are
/// translated (see the file comment).
///
/// Under the quantum runner the L1 TLBs of every shader array share the L2 TLB, which no
/// partition may touch inside a window. A deferred L1 TLB therefore only notes its misses; when
/// the window ends, the GPU looks them all up in the L2 TLB in the order of their cycles
/// (then partition, TLB and order: lookups()) and hands each translation back (resolve()), and
/// the requests that waited for it go on. A window no longer than the L1 and L2 TLB latencies
/// together makes every translation due in a later window, so the result is the exact engine's
/// up to lookups of one cycle from different shader arrays.
class Tlb : public Component {
 public:
  Tlb(std::string name, const TlbParams& p, SharedTlb& shared, Component* next, Engine& engine, RequestPool& pool,
      StatsRegistry& stats);
  void handle(Cycle now, uint32_t kind, uint32_t arg) override;
  std::string describe_state() const override;

  /// A miss waiting for the L2 TLB: its page, and the cycle its lookup there starts.
  struct Lookup {
    uint64_t page;
    uint64_t at;
    uint32_t first = UINT32_MAX;  ///< the first of its waiters (links_)
  };
  /// Defers misses to the window's end (see the class comment).
  void set_deferred(bool on) { deferred_ = on; }
  /// The misses of the window so far, in order.
  const std::vector<Lookup>& lookups() const { return lookups_; }
  /// Lookup `id` translated at `ready`: the entry takes it, and requests waiting only for it go on.
  void resolve(uint32_t id, Cycle ready);
  /// Forgets the window's lookups once every one is resolved.
  void end_window();

 private:
  /// A page's translation for a lookup at `now`: the cycle it is usable, or a lookup still to be
  /// made at the window's end (`lookup`, then `ready` is the earliest the request may go on).
  struct Translation {
    uint64_t ready;
    uint32_t lookup;
  };
  Translation translate(uint64_t page, Cycle now);
  /// A request waiting for `pending` lookups; it goes on at `ready` (the latest of its pages).
  struct Parked {
    uint32_t arg;
    uint64_t now, ready;
    uint32_t pending;
  };
  struct Link {
    uint32_t parked, next;
  };
  static constexpr uint32_t kNone = UINT32_MAX;
  bool deferred_ = false;
  std::vector<Lookup> lookups_;
  std::vector<Parked> parked_;
  std::vector<Link> links_;
  TlbParams p_;
  SharedTlb& shared_;
  Component* next_;
  Engine& engine_;
  RequestPool& pool_;
  std::vector<TlbEntry> entries_;
  uint64_t stamp_ = 0;
  uint64_t lookups_count_ = 0, hits_ = 0, misses_ = 0, wait_cycles_ = 0;
};

}  // namespace strobe::timing
