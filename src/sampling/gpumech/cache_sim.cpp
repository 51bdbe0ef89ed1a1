#include "sampling/gpumech/cache_sim.h"

#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "common/error.h"
#include "timing/gpu/placement.h"
#include "timing/mem/cache.h"
#include "timing/mem/cache_tags.h"

namespace strobe::sampling::gpumech {

namespace {

enum Event : uint8_t { kL1Hit, kL2Hit, kL2Miss };

/// The detailed model's cache instances as tag arrays: one L1V per CU, the L2's banks.
class Caches {
 public:
  explicit Caches(const timing::GpuConfig& cfg) {
    for (int64_t i = 0; i < cfg.num_cus; ++i) {
      const std::string name = fmt::format("l1v.{}", i);
      l1_.emplace_back(timing::CacheParams::from_config(cfg, timing::CacheLevel::L1V, name).geometry);
    }
    for (int64_t b = 0; b < cfg.l2_banks; ++b) {
      const std::string name = fmt::format("l2.{}", b);
      l2_.emplace_back(timing::CacheParams::from_config(cfg, timing::CacheLevel::L2, name).geometry);
    }
  }

  /// One line of an access from CU `cu`: where it was served.
  Event access(uint32_t cu, uint64_t line, MemAccess a) {
    timing::CacheTags& l1 = l1_[cu];
    timing::CacheTags& l2 = l2_[line % l2_.size()];  // banks interleave on the line, as Cache::lower_of
    if (a == MemAccess::Read) {
      if (l1.access(line, false, false).hit) return kL1Hit;
      return l2.access(line, false, true).hit ? kL2Hit : kL2Miss;
    }
    if (a == MemAccess::Atomic) {
      const uint32_t set = l1.set_of(line);
      const int way = l1.find(line, set);
      if (way >= 0) l1.invalidate(l1.slot(set, uint32_t(way)));
    } else {
      l1.access(line, true, false);  // write-through: a present line is used, none allocated
    }
    return l2.access(line, true, true).hit ? kL2Hit : kL2Miss;
  }

 private:
  std::vector<timing::CacheTags> l1_, l2_;
};

/// A resident wave's position in its trace.
struct Cursor {
  const CollectedWave* wave;
  size_t next = 0;  // next instruction to look at
  LineStream::Reader lines;
  uint64_t group;
};

}  // namespace

MissEvents PcEvents::distribution() const {
  const uint64_t n = total();
  if (n == 0) return {};
  return MissEvents{double(l1_hit) / double(n), double(l2_hit) / double(n), double(l2_miss) / double(n)};
}

CacheSimResult simulate_caches(const LaunchTrace& trace, const std::vector<StaticInst>& statics,
                               const timing::GpuConfig& cfg, uint32_t groups_per_cu) {
  if (int64_t(trace.line_bytes) != cfg.line_bytes)
    throw InputError(fmt::format("gpumech: the trace's lines are {} bytes but the configuration's caches use {}",
                                 trace.line_bytes, cfg.line_bytes));
  CacheSimResult r;
  r.per_pc.assign(statics.size(), PcEvents{});
  r.cu_of_group.assign(trace.workgroups, 0);
  // Each group's waves in the trace (groups are contiguous, in dispatch order).
  std::vector<size_t> first(trace.workgroups + 1, trace.waves.size());
  for (size_t w = trace.waves.size(); w-- > 0;) first[trace.waves[w].workgroup] = w;
  for (uint64_t g = trace.workgroups; g-- > 0;) first[g] = std::min(first[g], first[g + 1]);

  const uint32_t cus = uint32_t(cfg.num_cus);
  Caches caches(cfg);
  timing::Placement place(cus, groups_per_cu, trace.workgroups);
  std::vector<std::vector<Cursor>> resident(cus);
  std::vector<size_t> turn(cus, 0);
  std::vector<uint32_t> live_waves(trace.workgroups, 0);
  uint64_t retired = 0;
  std::vector<uint64_t> lines;
  while (retired < trace.workgroups) {
    // Dispatch: every group that fits now, in the dispatcher's order.
    while (auto cu = place.place_next()) {
      const uint64_t g = place.next_group() - 1;
      r.cu_of_group[g] = *cu;
      for (size_t w = first[g]; w < first[g + 1]; ++w)
        resident[*cu].push_back(Cursor{&trace.waves[w], 0, LineStream::Reader(trace.waves[w].lines), g});
      live_waves[g] = uint32_t(first[g + 1] - first[g]);
      if (live_waves[g] == 0) place.retire(*cu), ++retired;
    }
    // One memory instruction per CU, from its next wave that has one left.
    for (uint32_t c = 0; c < cus; ++c) {
      std::vector<Cursor>& waves = resident[c];
      while (!waves.empty()) {
        size_t& t = turn[c];
        if (t >= waves.size()) t = 0;
        Cursor& k = waves[t];
        bool fed = false;
        while (!fed && k.next < k.wave->size()) {
          const uint32_t pc = k.wave->pc[k.next++];
          const StaticInst& s = statics[pc];
          if (s.cls != InstClass::VectorMemory) continue;
          k.lines.next(lines);
          if (lines.empty() || s.access == MemAccess::None) continue;  // cache control moves no line
          Event worst = kL1Hit;
          for (uint64_t line : lines) {
            const Event e = caches.access(c, line, s.access);
            worst = std::max(worst, e);
            ++(e == kL1Hit ? r.l1_hits : e == kL2Hit ? r.l2_hits : r.l2_misses);
          }
          PcEvents& pe = r.per_pc[pc];
          ++(worst == kL1Hit ? pe.l1_hit : worst == kL2Hit ? pe.l2_hit : pe.l2_miss);
          ++r.instructions;
          r.requests += lines.size();
          fed = true;
        }
        if (fed) {
          ++t;
          break;
        }
        // The wave has no memory instruction left: it leaves, and its group with its last wave.
        const uint64_t g = k.group;
        waves.erase(waves.begin() + ptrdiff_t(t));
        if (--live_waves[g] == 0) place.retire(c), ++retired;
      }
    }
  }
  return r;
}

}  // namespace strobe::sampling::gpumech
