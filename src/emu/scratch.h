// Swizzled buffer addressing (GCN3 ISA 8.1.3) and per-lane private (scratch) access built on it.
#pragma once

#include <cstdint>

#include "emu/mem_access.h"

namespace strobe::emu {

/// Byte offset of (index, offset) in a swizzled buffer with the given stride, element size and
/// index stride: (index/is*stride + offset/es*es)*is + index%is*es + offset%es.
inline uint64_t swizzle_offset(uint32_t index, uint64_t offset, uint32_t stride, uint32_t es, uint32_t is) {
  return (uint64_t(index / is) * stride + offset / es * es) * is + uint64_t(index % is) * es + offset % es;
}

/// Moves `n` bytes of lane `l`'s private segment at per-lane offset `off` (wave slice at
/// `wave_base`, element size 4, index stride 64). An offset past the per-lane size faults:
/// it would silently land in another lane's private memory.
template <bool Store>
void scratch_xfer(const Wave& w, const isa::Inst& in, ExecContext& ctx, int l, uint64_t wave_base, uint32_t off,
                  void* buf, uint32_t n) {
  if (uint64_t(off) + n > w.scratch_bytes_per_lane)
    fault(w, in, ctx, fmt::format("private (scratch) access of {} bytes at offset 0x{:x} (lane {}) exceeds the {} "
                                  "bytes of private memory per work-item", n, off, l, w.scratch_bytes_per_lane));
  auto* b = static_cast<uint8_t*>(buf);
  // Dword-aligned pieces stay inside one 4-byte element; anything else goes byte by byte.
  const uint32_t step = (off % 4 == 0 && n % 4 == 0) ? 4 : 1;
  for (uint32_t i = 0; i < n; i += step) {
    const uint64_t a = wave_base + swizzle_offset(uint32_t(l), off + i, 0, 4, 64);
    bool ok = Store ? device_store(*ctx.memory, a, b + i, step) : device_load(*ctx.memory, a, b + i, step);
    if (!ok) memory_fault(w, in, ctx, Store ? "scratch store" : "scratch load", a, step, l);
  }
}

}  // namespace strobe::emu
