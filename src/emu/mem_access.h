// Checked kernel-side memory access helpers and the shared read-modify-write atomic semantics
// (internal to emu; used by the SMEM, DS, FLAT and MUBUF handlers).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include <fmt/format.h>

#include "emu/memory.h"
#include "emu/semantics.h"

namespace strobe::emu {

/// Copies `n` bytes of device memory at `addr` into `dst`; false if not inside a live allocation
/// (the caller then takes past_end_access()).
inline bool device_load(GlobalMemory& m, uint64_t addr, void* dst, uint32_t n) {
  if (const uint8_t* p = m.translate(addr, n)) [[likely]] {
    std::memcpy(dst, p, n);
    return true;
  }
  return m.copy_kernel(addr, dst, n, false, false);  // straddles a page
}

/// Copies `n` bytes from `src` to device memory at `addr`; false if not inside a live allocation
/// (the caller then takes past_end_access()).
inline bool device_store(GlobalMemory& m, uint64_t addr, const void* src, uint32_t n) {
  if (uint8_t* p = m.translate(addr, n)) [[likely]] {
    std::memcpy(p, src, n);
    return true;
  }
  return m.copy_kernel(addr, const_cast<void*>(src), n, true, false);
}

/// Raises the standard "address outside any allocation" fault.
[[noreturn]] inline void memory_fault(const Wave& w, const isa::Inst& in, const ExecContext& ctx, const char* what,
                                      uint64_t addr, uint32_t n, int lane) {
  fault(w, in, ctx, fmt::format("{} of {} bytes at address 0x{:x} (lane {}) is outside every live allocation",
                                what, n, addr, lane));
}

/// Records an access that succeeded only because it lies inside a mapped page.
inline void note_past_end(const Wave& w, const isa::Inst& in, const ExecContext& ctx, const char* what, uint64_t addr,
                          uint32_t n, int lane) {
  auto detail = [&] {
    return fault_message(w, in, ctx, fmt::format("{} of {} bytes at address 0x{:x} (lane {}) is outside every live "
                                                 "allocation, inside a mapped page", what, n, addr, lane));
  };
  if (ctx.overruns) ctx.overruns->note(detail);
  else ctx.memory->note_overrun(detail);
}

/// The slow path of a load or store that device_load/device_store refused: as the hardware,
/// it succeeds inside the allocation's mapped pages (MemoryCheck::Page) and is recorded as a
/// warning; anywhere else, or under MemoryCheck::Strict, it is the standard fault.
inline void past_end_access(const Wave& w, const isa::Inst& in, const ExecContext& ctx, const char* what,
                            uint64_t addr, void* buf, uint32_t n, int lane, bool store) {
  if (!ctx.memory->copy_kernel(addr, buf, n, store, true)) memory_fault(w, in, ctx, what, addr, n, lane);
  note_past_end(w, in, ctx, what, addr, n, lane);
}

/// Host pointer for an atomic at `addr` (naturally aligned, so it never straddles a page), with
/// the same past-the-end rule as past_end_access().
inline uint8_t* atomic_ptr(const Wave& w, const isa::Inst& in, const ExecContext& ctx, const char* what,
                           uint64_t addr, uint32_t n, int lane) {
  if (uint8_t* p = ctx.memory->translate(addr, n)) [[likely]] return p;
  uint8_t* p = ctx.memory->translate_mapped(addr, n);
  if (!p) memory_fault(w, in, ctx, what, addr, n, lane);
  note_past_end(w, in, ctx, what, addr, n, lane);
  return p;
}

/// Host pointer to `n` bytes of this work-group's LDS at `addr`, or nullptr when the access lies
/// at or beyond `limit` (the M0 clamp: the hardware drops such writes and reads zero). An access
/// beyond the work-group's LDS allocation is a kernel bug and faults.
inline uint8_t* lds_ptr(const Wave& w, const isa::Inst& in, const ExecContext& ctx, uint64_t addr, uint32_t n,
                        int lane, uint64_t limit = ~uint64_t{0}) {
  if (addr + n > limit) return nullptr;
  if (addr + n > ctx.lds.size()) [[unlikely]]
    fault(w, in, ctx, fmt::format("LDS access of {} bytes at offset 0x{:x} (lane {}) is outside the work-group's "
                                  "{} bytes of LDS", n, addr, lane, ctx.lds.size()));
  return ctx.lds.data() + addr;
}

/// Starts a MemAccessInfo record for this instruction when the timing model asked for one.
inline void mem_info_begin(ExecContext& ctx, MemAccessInfo::Space space, uint32_t bytes, bool store, bool atomic) {
  if (MemAccessInfo* mi = ctx.mem_info) {
    mi->lane_mask = 0;
    mi->bytes_per_lane = bytes;
    mi->space = space;
    mi->is_store = store;
    mi->is_atomic = atomic;
  }
}

/// Records lane `lane`'s address in the current MemAccessInfo, if any.
inline void mem_info_lane(ExecContext& ctx, int lane, uint64_t addr) {
  if (MemAccessInfo* mi = ctx.mem_info) {
    mi->lane_addr[lane] = addr;
    mi->lane_mask |= uint64_t{1} << lane;
  }
}

/// Read-modify-write operations shared by DS, FLAT and MUBUF atomics.
enum class AtomicOp : uint8_t {
  Swap, CmpSwap, Add, Sub, Rsub, SMin, UMin, SMax, UMax, And, Or, Xor, Inc, Dec, FMin, FMax, FAdd, Mskor, Wrap,
};

/// New memory value of an atomic on `old`. `data` is the source; `data2` is the compare value for
/// CmpSwap (memory = old == data2 ? data : old), the OR mask for Mskor, the add term for Wrap.
template <typename U>
U atomic_apply(AtomicOp op, U old, U data, U data2) {
  using S = std::make_signed_t<U>;
  using F = std::conditional_t<sizeof(U) == 4, float, double>;
  auto f = [](U x) { F r; std::memcpy(&r, &x, sizeof r); return r; };
  auto u = [](F x) { U r; std::memcpy(&r, &x, sizeof r); return r; };
  switch (op) {
    case AtomicOp::Swap: return data;
    case AtomicOp::CmpSwap: return old == data2 ? data : old;
    case AtomicOp::Add: return old + data;
    case AtomicOp::Sub: return old - data;
    case AtomicOp::Rsub: return data - old;
    case AtomicOp::SMin: return S(data) < S(old) ? data : old;
    case AtomicOp::UMin: return data < old ? data : old;
    case AtomicOp::SMax: return S(data) > S(old) ? data : old;
    case AtomicOp::UMax: return data > old ? data : old;
    case AtomicOp::And: return old & data;
    case AtomicOp::Or: return old | data;
    case AtomicOp::Xor: return old ^ data;
    case AtomicOp::Inc: return old >= data ? 0 : old + 1;
    case AtomicOp::Dec: return (old == 0 || old > data) ? data : old - 1;
    case AtomicOp::FMin: return u(std::fmin(f(old), f(data)));
    case AtomicOp::FMax: return u(std::fmax(f(old), f(data)));
    case AtomicOp::FAdd: return u(f(old) + f(data));
    case AtomicOp::Mskor: return (old & ~data) | data2;
    case AtomicOp::Wrap: return old >= data ? old - data : old + data2;
  }
  return old;
}

}  // namespace strobe::emu
