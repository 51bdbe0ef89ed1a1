#include "timing/gpu/warmer.h"

#include <algorithm>
#include <bit>

#include "timing/mem/cache.h"
#include "timing/mem/dram.h"

namespace strobe::timing {

Warmer::Warmer(std::vector<Cache*> l1v, std::vector<Cache*> scache, std::vector<Cache*> l1i, std::vector<Cache*> l2,
               uint32_t cus_per_array, uint32_t line_bytes)
    : l1v_(std::move(l1v)),
      scache_(std::move(scache)),
      l1i_(std::move(l1i)),
      l2_(std::move(l2)),
      cus_per_array_(std::max(1u, cus_per_array)),
      walk_(line_bytes) {
  l2_pow2_ = std::has_single_bit(l2_.size());
  l2_mask_ = l2_.size() - 1;
}

void Warmer::access(Cache& l1, uint64_t line, ReqKind kind) {
  // The L1 fetched or forwarded the line: the L2 sees a read for a fill, else the write or atomic.
  if (l1.warm(line, kind)) l2_access(line, kind);
}

void Warmer::l2_access(uint64_t line, ReqKind kind) {
  Cache& l2 = *l2_[l2_pow2_ ? line & l2_mask_ : line % l2_.size()];
  if (!dram_) {
    l2.warm(line, kind);
    return;
  }
  uint64_t writeback = UINT64_MAX;
  if (l2.warm(line, kind, &writeback)) dram_->warm(line);  // the fetch, then the victim's write-back
  if (writeback != UINT64_MAX) dram_->warm(writeback);
}

void Warmer::apply(const WarmAccess& a) {
  if (a.path == WarmAccess::L2) {
    l2_access(a.line, a.kind);
    return;
  }
  Cache* l1 = a.path == WarmAccess::L1v      ? l1v_[a.unit]
              : a.path == WarmAccess::Scalar ? scache_[a.unit / cus_per_array_]
                                             : l1i_[a.unit / cus_per_array_];
  access(*l1, a.line, a.kind);
}

void Warmer::vector_access(uint32_t cu, const emu::MemAccessInfo& mi) {
  if (mi.space == emu::MemAccessInfo::Space::Scalar) return;
  walk_.emit_accesses(cu, mi, [this](const WarmAccess& a) { apply(a); });
}

void Warmer::scalar_access(uint32_t cu, const emu::MemAccessInfo& mi) {
  if (mi.space != emu::MemAccessInfo::Space::Scalar) return;
  walk_.emit_accesses(cu, mi, [this](const WarmAccess& a) { apply(a); });
}

void Warmer::instruction_line(uint32_t cu, uint64_t line) { access(*l1i_[cu / cus_per_array_], line, ReqKind::Read); }

void Warmer::run_wave(uint32_t cu, const emu::Executor& ex, emu::Wave& w, emu::WorkGroup& wg,
                      emu::DispatchStats& stats, const uint8_t* ends, emu::Executor::BlockFn fn, void* ctx) {
  walk_.walk_wave(cu, ex, w, wg, stats, mi_, [this](const WarmAccess& a) { apply(a); }, ends, fn, ctx);
}

void Warmer::run_workgroup(uint32_t cu, const emu::Executor& ex, emu::WorkGroup& wg, emu::DispatchStats& stats) {
  walk_.walk_workgroup(cu, ex, wg, stats, mi_, [this](const WarmAccess& a) { apply(a); });
}

void Warmer::record_workgroup(uint32_t cu, const emu::Executor& ex, emu::WorkGroup& wg, emu::DispatchStats& stats,
                              emu::MemAccessInfo& mi, std::vector<WarmAccess>& log) const {
  walk_.walk_workgroup(cu, ex, wg, stats, mi, [&log](const WarmAccess& a) { log.push_back(a); });
}

void Warmer::replay(const std::vector<WarmAccess>& log) {
  for (const WarmAccess& a : log) apply(a);
}

}  // namespace strobe::timing
