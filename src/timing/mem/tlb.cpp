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
  stats.add(n + ".lookups", &lookups_count_);
  stats.add(n + ".hits", &hits_);
  stats.add(n + ".misses", &misses_);
  stats.add(n + ".wait_cycles", &wait_cycles_);
}

Tlb::Translation Tlb::translate(uint64_t page, Cycle now) {
  ++lookups_count_;
  const uint64_t at = now.value() + p_.l1_latency;
  TlbEntry* victim = entries_.data();
  for (TlbEntry& e : entries_) {
    if (e.page == page) {
      ++hits_;
      e.last_use = ++stamp_;
      if (e.lookup != kNone) return {at, e.lookup};  // its translation is still being looked up
      return {std::max(at, e.ready), kNone};
    }
    if (e.last_use < victim->last_use) victim = &e;
  }
  ++misses_;
  if (deferred_) {
    lookups_.push_back(Lookup{page, at});
    *victim = TlbEntry{page, 0, ++stamp_, uint32_t(lookups_.size() - 1)};
    return {at, victim->lookup};
  }
  const Cycle ready = shared_.translate(page, Cycle(at));
  *victim = TlbEntry{page, ready.value(), ++stamp_};
  return {ready.value(), kNone};
}

void Tlb::handle(Cycle now, uint32_t kind, uint32_t arg) {
  if (kind != kMemRequest) unhandled(kind);
  const MemReq& q = pool_[arg];
  const uint32_t shift = p_.page_bits - std::min(p_.page_bits, p_.line_bits);
  uint64_t ready = 0;
  uint32_t parked = kNone;
  auto take = [&](uint64_t page) {
    const Translation t = translate(page, now);
    ready = std::max(ready, t.ready);
    if (t.lookup == kNone) return;
    if (parked == kNone) {
      parked = uint32_t(parked_.size());
      parked_.push_back(Parked{arg, now.value(), 0, 0});
    }
    links_.push_back(Link{parked, lookups_[t.lookup].first});
    lookups_[t.lookup].first = uint32_t(links_.size() - 1);
    ++parked_[parked].pending;
  };
  take(q.line >> shift);
  if (q.is_batch()) {
    // The lines come in lane order and mostly share a page: translate each page once.
    const uint64_t* lines = pool_.lines(q.lines);
    uint64_t last = q.line >> shift;
    for (uint32_t i = 1; i < q.count; ++i) {
      const uint64_t page = lines[i] >> shift;
      if (page == last) continue;
      last = page;
      take(page);
    }
  }
  if (parked != kNone) {
    parked_[parked].ready = ready;
    return;
  }
  wait_cycles_ += ready - now.value();
  engine_.schedule(Cycle(ready), next_, kMemRequest, arg);
}

void Tlb::resolve(uint32_t id, Cycle ready) {
  for (TlbEntry& e : entries_)
    if (e.lookup == id) e.ready = ready.value(), e.lookup = kNone;
  for (uint32_t l = lookups_[id].first; l != kNone; l = links_[l].next) {
    Parked& p = parked_[links_[l].parked];
    p.ready = std::max(p.ready, ready.value());
    if (--p.pending) continue;
    wait_cycles_ += p.ready - p.now;
    engine_.schedule(Cycle(p.ready), next_, kMemRequest, p.arg);
  }
}

void Tlb::end_window() {
  lookups_.clear();
  parked_.clear();
  links_.clear();
}

std::string Tlb::describe_state() const {
  return fmt::format("{} lookups, {} misses", lookups_count_, misses_);
}

}  // namespace strobe::timing
