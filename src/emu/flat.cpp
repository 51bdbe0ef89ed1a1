// FLAT semantics: each lane's 64-bit address is routed through the apertures to LDS, to this
// wave's scratch (swizzled exactly like the private segment buffer) or to global memory.
#include <bit>
#include <cstring>

#include "emu/dispatch_abi.h"
#include "emu/mem_access.h"
#include "emu/operands.h"
#include "emu/scratch.h"

namespace strobe::emu {

namespace {
using isa::Op;
using Space = MemAccessInfo::Space;
namespace of = isa::opcode_field;

inline uint32_t* vreg(Wave& w, uint16_t code) { return w.vrow(vgpr_index(code)); }

inline Space route(uint64_t addr) {
  const uint32_t hi = uint32_t(addr >> 32);
  return hi == kSharedApertureHi ? Space::Lds : hi == kPrivateApertureHi ? Space::Scratch : Space::Global;
}

// Moves n bytes between `buf` and the memory lane `l`'s flat address names.
template <bool Store>
void flat_xfer(Wave& w, const isa::Inst& in, ExecContext& ctx, int l, uint64_t addr, void* buf, uint32_t n) {
  switch (route(addr)) {
    case Space::Lds: {
      uint8_t* p = lds_ptr(w, in, ctx, uint32_t(addr), n, l);
      if (Store) std::memcpy(p, buf, n);
      else std::memcpy(buf, p, n);
      return;
    }
    case Space::Scratch: {
      const uint64_t wave_base = ctx.private_base + (uint64_t(w.s[of::kFlatScrHi]) << 8);
      scratch_xfer<Store>(w, in, ctx, l, wave_base, uint32_t(addr), buf, n);
      return;
    }
    default: {
      bool ok = Store ? device_store(*ctx.memory, addr, buf, n) : device_load(*ctx.memory, addr, buf, n);
      if (!ok) past_end_access(w, in, ctx, Store ? "flat store" : "flat load", addr, buf, n, l, Store);
    }
  }
}

inline uint64_t lane_addr(Wave& w, const isa::Inst& in, int l) {
  return vreg(w, in.addr)[l] | uint64_t(vreg(w, in.addr + 1)[l]) << 32;
}

// Global memory is the common case: one table lookup, no aperture switch.
[[gnu::always_inline]] inline uint8_t* global_fast(ExecContext& ctx, uint64_t addr, uint32_t n) {
  return route(addr) == Space::Global ? ctx.memory->translate(addr, n) : nullptr;
}

template <unsigned Bytes, bool Signed>
void flat_load(Wave& w, const isa::Inst& in, ExecContext& ctx) {
  const uint64_t exec = w.exec();
  constexpr unsigned kDw = Bytes < 4 ? 1 : Bytes / 4;
  uint32_t* d[kDw];
  for (unsigned i = 0; i < kDw; ++i) d[i] = vreg(w, in.dst + i);
  const uint32_t* lo = vreg(w, in.addr);
  const uint32_t* hi = vreg(w, in.addr + 1);
  mem_info_begin(ctx, Space::Global, Bytes, false, false);
  bool first = true;
  for (uint64_t m = exec; m; m &= m - 1) {
    const int l = std::countr_zero(m);
    const uint64_t addr = lo[l] | uint64_t(hi[l]) << 32;
    if (ctx.mem_info) {
      if (first) ctx.mem_info->space = route(addr), first = false;
      mem_info_lane(ctx, l, addr);
    }
    uint32_t v[kDw] = {};
    if (const uint8_t* p = global_fast(ctx, addr, Bytes)) [[likely]] std::memcpy(v, p, Bytes);
    else flat_xfer<false>(w, in, ctx, l, addr, v, Bytes);
    if constexpr (Bytes == 1) v[0] = Signed ? uint32_t(int32_t(int8_t(v[0]))) : v[0];
    if constexpr (Bytes == 2) v[0] = Signed ? uint32_t(int32_t(int16_t(v[0]))) : v[0];
    for (unsigned i = 0; i < kDw; ++i) d[i][l] = v[i];
  }
}

template <unsigned Bytes>
void flat_store(Wave& w, const isa::Inst& in, ExecContext& ctx) {
  const uint64_t exec = w.exec();
  constexpr unsigned kDw = Bytes < 4 ? 1 : Bytes / 4;
  const uint32_t* s[kDw];
  for (unsigned i = 0; i < kDw; ++i) s[i] = vreg(w, in.data0 + i);
  const uint32_t* lo = vreg(w, in.addr);
  const uint32_t* hi = vreg(w, in.addr + 1);
  mem_info_begin(ctx, Space::Global, Bytes, true, false);
  bool first = true;
  for (uint64_t m = exec; m; m &= m - 1) {
    const int l = std::countr_zero(m);
    const uint64_t addr = lo[l] | uint64_t(hi[l]) << 32;
    if (ctx.mem_info) {
      if (first) ctx.mem_info->space = route(addr), first = false;
      mem_info_lane(ctx, l, addr);
    }
    uint32_t v[kDw];
    for (unsigned i = 0; i < kDw; ++i) v[i] = s[i][l];
    if (uint8_t* p = global_fast(ctx, addr, Bytes)) [[likely]] std::memcpy(p, v, Bytes);
    else flat_xfer<true>(w, in, ctx, l, addr, v, Bytes);
  }
}

template <typename U>
U read_lane(Wave& w, uint16_t code, int l) {
  if constexpr (sizeof(U) == 4) return vreg(w, code)[l];
  else return vreg(w, code)[l] | uint64_t(vreg(w, code + 1)[l]) << 32;
}

// Atomics: data in vdata (for cmpswap: new value, then compare value); the pre-op value is
// returned to vdst when GLC is set.
template <typename U, AtomicOp A>
void flat_atomic(Wave& w, const isa::Inst& in, ExecContext& ctx) {
  const uint64_t exec = w.exec();
  constexpr unsigned kDw = sizeof(U) / 4;
  bool first = true;
  mem_info_begin(ctx, Space::Global, sizeof(U), true, true);
  for (int l = 0; l < kWaveSize; ++l) {
    if (!lane_on(exec, l)) continue;
    const uint64_t addr = lane_addr(w, in, l);
    if (first && ctx.mem_info) ctx.mem_info->space = route(addr), first = false;
    mem_info_lane(ctx, l, addr);
    if (addr % sizeof(U)) fault(w, in, ctx, fmt::format("misaligned atomic at address 0x{:x} (lane {})", addr, l));
    const U data = read_lane<U>(w, in.data0, l);
    const U cmp = A == AtomicOp::CmpSwap ? read_lane<U>(w, in.data0 + kDw, l) : U{0};
    U old;
    if (route(addr) == Space::Global) {
      // One translation for the read-modify-write, so an access past the end counts once.
      uint8_t* p = atomic_ptr(w, in, ctx, "flat atomic", addr, sizeof(U), l);
      std::memcpy(&old, p, sizeof(U));
      const U nv = atomic_apply<U>(A, old, data, cmp);
      std::memcpy(p, &nv, sizeof(U));
    } else {
      flat_xfer<false>(w, in, ctx, l, addr, &old, sizeof(U));
      U nv = atomic_apply<U>(A, old, data, cmp);
      flat_xfer<true>(w, in, ctx, l, addr, &nv, sizeof(U));
    }
    if (in.glc && in.dst != of::kNone) {
      vreg(w, in.dst)[l] = uint32_t(old);
      if constexpr (kDw == 2) vreg(w, in.dst + 1)[l] = uint32_t(old >> 32);
    }
  }
}

#define ATOMIC(NAME, A)                                          \
  t.set(Op::FLAT_ATOMIC_##NAME, flat_atomic<uint32_t, A>);       \
  t.set(Op::FLAT_ATOMIC_##NAME##_X2, flat_atomic<uint64_t, A>);
}  // namespace

void register_flat(HandlerTable& t) {
  t.set(Op::FLAT_LOAD_UBYTE, flat_load<1, false>);
  t.set(Op::FLAT_LOAD_SBYTE, flat_load<1, true>);
  t.set(Op::FLAT_LOAD_USHORT, flat_load<2, false>);
  t.set(Op::FLAT_LOAD_SSHORT, flat_load<2, true>);
  t.set(Op::FLAT_LOAD_DWORD, flat_load<4, false>);
  t.set(Op::FLAT_LOAD_DWORDX2, flat_load<8, false>);
  t.set(Op::FLAT_LOAD_DWORDX3, flat_load<12, false>);
  t.set(Op::FLAT_LOAD_DWORDX4, flat_load<16, false>);
  t.set(Op::FLAT_STORE_BYTE, flat_store<1>);
  t.set(Op::FLAT_STORE_SHORT, flat_store<2>);
  t.set(Op::FLAT_STORE_DWORD, flat_store<4>);
  t.set(Op::FLAT_STORE_DWORDX2, flat_store<8>);
  t.set(Op::FLAT_STORE_DWORDX3, flat_store<12>);
  t.set(Op::FLAT_STORE_DWORDX4, flat_store<16>);
  ATOMIC(SWAP, AtomicOp::Swap)
  ATOMIC(CMPSWAP, AtomicOp::CmpSwap)
  ATOMIC(ADD, AtomicOp::Add)
  ATOMIC(SUB, AtomicOp::Sub)
  ATOMIC(SMIN, AtomicOp::SMin)
  ATOMIC(UMIN, AtomicOp::UMin)
  ATOMIC(SMAX, AtomicOp::SMax)
  ATOMIC(UMAX, AtomicOp::UMax)
  ATOMIC(AND, AtomicOp::And)
  ATOMIC(OR, AtomicOp::Or)
  ATOMIC(XOR, AtomicOp::Xor)
  ATOMIC(INC, AtomicOp::Inc)
  ATOMIC(DEC, AtomicOp::Dec)
}

}  // namespace strobe::emu
