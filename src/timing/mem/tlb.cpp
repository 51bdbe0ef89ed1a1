// Address translation (see tlb.h).
#include "timing/mem/tlb.h"

#include <algorithm>
#include <bit>

#include <fmt/core.h>

#include "timing/config/gpu_config.h"
#include "timing/engine/events.h"

namespace strobe::timing {

TlbParams TlbParams::from_config(const GpuConfig& c) {
  TlbParams p;
  p.enabled = choice<Switch>(c, "tlb.enabled") == Switch::On;
  p.page_bits = uint32_t(std::countr_zero(uint64_t(c.tlb_page_bytes)));
  p.line_bits = uint32_t(std::countr_zero(uint64_t(c.line_bytes)));
  p.l1_entries = uint32_t(c.tlb_l1_entries);
  p.l1_latency = uint32_t(c.tlb_l1_latency);
  p.l2_ways = uint32_t(c.tlb_l2_ways);
  p.l2_sets = uint32_t(std::max<int64_t>(1, c.tlb_l2_entries / c.tlb_l2_ways));
  p.l2_latency = uint32_t(c.tlb_l2_latency);
  p.walk_latency = uint32_t(c.tlb_walk_latency);
  p.walkers = uint32_t(c.tlb_walkers);
  return p;
}

SharedTlb::SharedTlb(const TlbParams& p, StatsRegistry& stats)
    : p_(p), entries_(size_t(p.l2_sets) * p.l2_ways), walker_free_(p.walkers, 0) {
  stats.add("tlb.l2.hits", &hits_);
  stats.add("tlb.l2.misses", &misses_);
  stats.add("tlb.walk_wait_cycles", &walk_wait_cycles_);
}

Cycle SharedTlb::translate(uint64_t page, Cycle now) {
  const uint64_t at = now.value() + p_.l2_latency;
  TlbEntry* set = &entries_[size_t(page % p_.l2_sets) * p_.l2_ways];
  TlbEntry* victim = set;
  for (uint32_t w = 0; w < p_.l2_ways; ++w) {
    if (set[w].page == page) {
      ++hits_;
      set[w].last_use = ++stamp_;
      return Cycle(std::max(at, set[w].ready));  // a walk still in flight: wait for it
    }
    if (set[w].last_use < victim->last_use) victim = &set[w];
  }
  ++misses_;
  // The walk starts when a walker is free: the earliest-free one, lowest index on a tie.
  auto w = std::min_element(walker_free_.begin(), walker_free_.end());
  const uint64_t start = std::max(at, *w);
  walk_wait_cycles_ += start - at;
  *w = start + p_.walk_latency;
  *victim = TlbEntry{page, *w, ++stamp_};
  return Cycle(*w);
}

Tlb::Tlb(std::string name, const TlbParams& p, SharedTlb& shared, Component* next, Engine& engine, RequestPool& pool,
         StatsRegistry& stats)
    : Component(std::move(name)), p_(p), shared_(shared), next_(next), engine_(engine), pool_(pool),
      entries_(p.l1_entries) {
  const std::string& n = this->name();
  stats.add(n + ".lookups", &lookups_);
  stats.add(n + ".hits", &hits_);
  stats.add(n + ".misses", &misses_);
  stats.add(n + ".wait_cycles", &wait_cycles_);
}

Cycle Tlb::translate(uint64_t page, Cycle now) {
  ++lookups_;
  TlbEntry* victim = entries_.data();
  for (TlbEntry& e : entries_) {
    if (e.page == page) {
      ++hits_;
      e.last_use = ++stamp_;
      return Cycle(std::max(now.value() + p_.l1_latency, e.ready));
    }
    if (e.last_use < victim->last_use) victim = &e;
  }
  ++misses_;
  const Cycle ready = shared_.translate(page, now + uint64_t(p_.l1_latency));
  *victim = TlbEntry{page, ready.value(), ++stamp_};
  return ready;
}

void Tlb::handle(Cycle now, uint32_t kind, uint32_t arg) {
  if (kind != kMemRequest) unhandled(kind);
  const MemReq& q = pool_[arg];
  const uint32_t shift = p_.page_bits - std::min(p_.page_bits, p_.line_bits);
  Cycle ready = translate(q.line >> shift, now);
  if (q.is_batch()) {
    // The lines come in lane order and mostly share a page: translate each page once.
    const uint64_t* lines = pool_.lines(q.lines);
    uint64_t last = q.line >> shift;
    for (uint32_t i = 1; i < q.count; ++i) {
      const uint64_t page = lines[i] >> shift;
      if (page == last) continue;
      last = page;
      ready = max(ready, translate(page, now));
    }
  }
  wait_cycles_ += (ready - now).value();
  engine_.schedule(ready, next_, kMemRequest, arg);
}

std::string Tlb::describe_state() const {
  return fmt::format("{} lookups, {} misses", lookups_, misses_);
}

}  // namespace strobe::timing
