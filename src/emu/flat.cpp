// FLAT, GLOBAL and SCRATCH semantics. A FLAT lane's 64-bit address is routed through the
// apertures to LDS, to this wave's scratch (swizzled exactly like the private segment buffer)
// or to global memory. gfx942's GLOBAL segment always addresses global memory, from a VGPR pair
// or an SGPR base plus a 32-bit VGPR offset; its SCRATCH segment addresses the wave's private
// memory directly. gfx942 adds an immediate offset to all three; gfx803's FLAT has none.
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

/// The wave's private memory base. gfx803 kernels may set FLAT_SCRATCH themselves (from
/// flat_scratch_init), so its offset is read back from the register; gfx942's flat scratch is
/// architected: the hardware's per-wave base, which the kernel cannot change.
inline uint64_t private_wave_base(const Wave& w, const isa::Inst& in, const ExecContext& ctx) {
  if (in.target == isa::Target::Gfx803) return ctx.private_base + (uint64_t(w.s[of::kFlatScrHi]) << 8);
  return w.scratch_base;
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
    case Space::Scratch:
      scratch_xfer<Store>(w, in, ctx, l, private_wave_base(w, in, ctx), uint32_t(addr), buf, n);
      return;
    default: {
      bool ok = Store ? device_store(*ctx.memory, addr, buf, n) : device_load(*ctx.memory, addr, buf, n);
      if (!ok) past_end_access(w, in, ctx, Store ? "flat store" : "flat load", addr, buf, n, l, Store);
    }
  }
}

/// The address space an instruction's segment names (FLAT's depends on the address).
enum class Seg : uint8_t { Flat, Global, Scratch };

/// Per-instruction address generation: every operand resolved once, then one add per lane.
template <Seg S>
struct LaneAddr {
  const uint32_t* lo = nullptr;  ///< VGPR address (low dword), null when the form has none
  const uint32_t* hi = nullptr;  ///< high dword of a 64-bit VGPR address
  uint64_t base = 0;             ///< SGPR base (GLOBAL: 64-bit; SCRATCH: a 32-bit offset)
  int64_t offset = 0;            ///< the instruction's immediate offset

  LaneAddr(Wave& w, const isa::Inst& in) {
    offset = in.target == isa::Target::Gfx803 ? 0 : int64_t(int32_t(in.offset));
    if (in.saddr != of::kNone) base = S == Seg::Global ? w.s64(in.saddr) : w.s[in.saddr];
    if (in.addr != of::kNone) {
      lo = vreg(w, in.addr);
      if (S == Seg::Flat || (S == Seg::Global && in.saddr == of::kNone)) hi = vreg(w, in.addr + 1);
    }
  }
  /// Lane l's address: a device (or FLAT) address, or for SCRATCH a private byte offset.
  uint64_t at(int l) const {
    if constexpr (S == Seg::Flat) return (lo[l] | uint64_t(hi[l]) << 32) + offset;
    else if constexpr (S == Seg::Global) return (hi ? lo[l] | uint64_t(hi[l]) << 32 : base + lo[l]) + offset;
    else return uint32_t(base + (lo ? lo[l] : 0) + offset);
  }
};

/// The memory-info space of a lane's access.
template <Seg S>
inline Space space_of(uint64_t addr) {
  return S == Seg::Flat ? route(addr) : S == Seg::Global ? Space::Global : Space::Scratch;
}

/// Records lane l's access for the timing model (SCRATCH: the swizzled device address).
template <Seg S>
inline void note_lane(Wave& w, ExecContext& ctx, bool& first, int l, uint64_t addr) {
  if (!ctx.mem_info) return;
  if (first) ctx.mem_info->space = space_of<S>(addr), first = false;
  mem_info_lane(ctx, l, S == Seg::Scratch ? w.scratch_base + swizzle_offset(uint32_t(l), addr, 0, 4, 64) : addr);
}

/// Moves n bytes for lane l at `addr` (a FLAT/GLOBAL address or a SCRATCH offset).
template <Seg S, bool Store>
inline void xfer(Wave& w, const isa::Inst& in, ExecContext& ctx, int l, uint64_t addr, void* buf, uint32_t n) {
  if constexpr (S == Seg::Scratch) {
    scratch_xfer<Store>(w, in, ctx, l, w.scratch_base, uint32_t(addr), buf, n);
  } else if constexpr (S == Seg::Global) {
    bool ok = Store ? device_store(*ctx.memory, addr, buf, n) : device_load(*ctx.memory, addr, buf, n);
    if (!ok) past_end_access(w, in, ctx, Store ? "global store" : "global load", addr, buf, n, l, Store);
  } else {
    flat_xfer<Store>(w, in, ctx, l, addr, buf, n);
  }
}

// Global memory is the common case: one table lookup, no aperture switch.
template <Seg S>
[[gnu::always_inline]] inline uint8_t* global_fast(ExecContext& ctx, uint64_t addr, uint32_t n) {
  if constexpr (S == Seg::Scratch) return nullptr;
  else return S == Seg::Global || route(addr) == Space::Global ? ctx.memory->translate(addr, n) : nullptr;
}

template <Seg S, unsigned Bytes, bool Signed>
void flat_load(Wave& w, const isa::Inst& in, ExecContext& ctx) {
  const uint64_t exec = w.exec();
  constexpr unsigned kDw = Bytes < 4 ? 1 : Bytes / 4;
  uint32_t* d[kDw];
  for (unsigned i = 0; i < kDw; ++i) d[i] = vreg(w, in.dst + i);
  const LaneAddr<S> a(w, in);
  mem_info_begin(ctx, space_of<S>(0), Bytes, false, false);
  bool first = true;
  for (uint64_t m = exec; m; m &= m - 1) {
    const int l = std::countr_zero(m);
    const uint64_t addr = a.at(l);
    note_lane<S>(w, ctx, first, l, addr);
    uint32_t v[kDw] = {};
    if (const uint8_t* p = global_fast<S>(ctx, addr, Bytes)) [[likely]] std::memcpy(v, p, Bytes);
    else xfer<S, false>(w, in, ctx, l, addr, v, Bytes);
    if constexpr (Bytes == 1) v[0] = Signed ? uint32_t(int32_t(int8_t(v[0]))) : v[0];
    if constexpr (Bytes == 2) v[0] = Signed ? uint32_t(int32_t(int16_t(v[0]))) : v[0];
    for (unsigned i = 0; i < kDw; ++i) d[i][l] = v[i];
  }
}

/// The D16 loads: Bytes (1 or 2, sign- or zero-extended to 16 bits) into the low or (Hi) high
/// half of the destination, which keeps its other half.
template <Seg S, unsigned Bytes, bool Signed, bool Hi>
void flat_load_d16(Wave& w, const isa::Inst& in, ExecContext& ctx) {
  uint32_t* d = vreg(w, in.dst);
  const LaneAddr<S> a(w, in);
  mem_info_begin(ctx, space_of<S>(0), Bytes, false, false);
  bool first = true;
  for (uint64_t m = w.exec(); m; m &= m - 1) {
    const int l = std::countr_zero(m);
    const uint64_t addr = a.at(l);
    note_lane<S>(w, ctx, first, l, addr);
    uint32_t v = 0;
    if (const uint8_t* p = global_fast<S>(ctx, addr, Bytes)) [[likely]] std::memcpy(&v, p, Bytes);
    else xfer<S, false>(w, in, ctx, l, addr, &v, Bytes);
    if constexpr (Bytes == 1) v = (Signed ? uint32_t(int32_t(int8_t(v))) : v) & 0xFFFF;
    d[l] = Hi ? (d[l] & 0xFFFF) | v << 16 : (d[l] & 0xFFFF0000u) | v;
  }
}

/// Stores Bytes per lane; Hi stores the data's high 16 bits (the *_d16_hi forms).
template <Seg S, unsigned Bytes, bool Hi = false>
void flat_store(Wave& w, const isa::Inst& in, ExecContext& ctx) {
  const uint64_t exec = w.exec();
  constexpr unsigned kDw = Bytes < 4 ? 1 : Bytes / 4;
  const uint32_t* s[kDw];
  for (unsigned i = 0; i < kDw; ++i) s[i] = vreg(w, in.data0 + i);
  const LaneAddr<S> a(w, in);
  mem_info_begin(ctx, space_of<S>(0), Bytes, true, false);
  bool first = true;
  for (uint64_t m = exec; m; m &= m - 1) {
    const int l = std::countr_zero(m);
    const uint64_t addr = a.at(l);
    note_lane<S>(w, ctx, first, l, addr);
    uint32_t v[kDw];
    for (unsigned i = 0; i < kDw; ++i) v[i] = s[i][l];
    if constexpr (Hi) v[0] >>= 16;
    if (uint8_t* p = global_fast<S>(ctx, addr, Bytes)) [[likely]] std::memcpy(p, v, Bytes);
    else xfer<S, true>(w, in, ctx, l, addr, v, Bytes);
  }
}

template <typename U>
U read_lane(Wave& w, uint16_t code, int l) {
  if constexpr (sizeof(U) == 4) return vreg(w, code)[l];
  else return vreg(w, code)[l] | uint64_t(vreg(w, code + 1)[l]) << 32;
}

// Atomics: data in vdata (for cmpswap: new value, then compare value); the pre-op value is
// returned to vdst when GLC (gfx942: sc0) is set.
template <Seg S, typename U, AtomicOp A>
void flat_atomic(Wave& w, const isa::Inst& in, ExecContext& ctx) {
  const uint64_t exec = w.exec();
  constexpr unsigned kDw = sizeof(U) / 4;
  bool first = true;
  const LaneAddr<S> la(w, in);
  mem_info_begin(ctx, space_of<S>(0), sizeof(U), true, true);
  for (int l = 0; l < kWaveSize; ++l) {
    if (!lane_on(exec, l)) continue;
    const uint64_t addr = la.at(l);
    note_lane<S>(w, ctx, first, l, addr);
    if (addr % sizeof(U)) fault(w, in, ctx, fmt::format("misaligned atomic at address 0x{:x} (lane {})", addr, l));
    const U data = read_lane<U>(w, in.data0, l);
    const U cmp = A == AtomicOp::CmpSwap ? read_lane<U>(w, in.data0 + kDw, l) : U{0};
    U old;
    if (space_of<S>(addr) == Space::Global) {
      // One translation for the read-modify-write, so an access past the end counts once.
      uint8_t* p = atomic_ptr(w, in, ctx, S == Seg::Global ? "global atomic" : "flat atomic", addr, sizeof(U), l);
      std::memcpy(&old, p, sizeof(U));
      const U nv = atomic_apply<U>(A, old, data, cmp);
      std::memcpy(p, &nv, sizeof(U));
    } else {
      xfer<S, false>(w, in, ctx, l, addr, &old, sizeof(U));
      U nv = atomic_apply<U>(A, old, data, cmp);
      xfer<S, true>(w, in, ctx, l, addr, &nv, sizeof(U));
    }
    if (in.glc && in.dst != of::kNone) {
      vreg(w, in.dst)[l] = uint32_t(old);
      if constexpr (kDw == 2) vreg(w, in.dst + 1)[l] = uint32_t(old >> 32);
    }
  }
}

/// Registers one segment's loads, stores and atomics (PREFIX: FLAT, GLOBAL or SCRATCH).
#define MEMORY_OPS(PREFIX, S)                                              \
  t.set(Op::PREFIX##_LOAD_UBYTE, flat_load<S, 1, false>);                  \
  t.set(Op::PREFIX##_LOAD_SBYTE, flat_load<S, 1, true>);                   \
  t.set(Op::PREFIX##_LOAD_USHORT, flat_load<S, 2, false>);                 \
  t.set(Op::PREFIX##_LOAD_SSHORT, flat_load<S, 2, true>);                  \
  t.set(Op::PREFIX##_LOAD_DWORD, flat_load<S, 4, false>);                  \
  t.set(Op::PREFIX##_LOAD_DWORDX2, flat_load<S, 8, false>);                \
  t.set(Op::PREFIX##_LOAD_DWORDX3, flat_load<S, 12, false>);               \
  t.set(Op::PREFIX##_LOAD_DWORDX4, flat_load<S, 16, false>);               \
  t.set(Op::PREFIX##_STORE_BYTE, flat_store<S, 1>);                        \
  t.set(Op::PREFIX##_STORE_SHORT, flat_store<S, 2>);                       \
  t.set(Op::PREFIX##_STORE_DWORD, flat_store<S, 4>);                       \
  t.set(Op::PREFIX##_STORE_DWORDX2, flat_store<S, 8>);                     \
  t.set(Op::PREFIX##_STORE_DWORDX3, flat_store<S, 12>);                    \
  t.set(Op::PREFIX##_STORE_DWORDX4, flat_store<S, 16>);                   \
  t.set(Op::PREFIX##_STORE_BYTE_D16_HI, flat_store<S, 1, true>);           \
  t.set(Op::PREFIX##_STORE_SHORT_D16_HI, flat_store<S, 2, true>);          \
  t.set(Op::PREFIX##_LOAD_UBYTE_D16, flat_load_d16<S, 1, false, false>);   \
  t.set(Op::PREFIX##_LOAD_UBYTE_D16_HI, flat_load_d16<S, 1, false, true>); \
  t.set(Op::PREFIX##_LOAD_SBYTE_D16, flat_load_d16<S, 1, true, false>);    \
  t.set(Op::PREFIX##_LOAD_SBYTE_D16_HI, flat_load_d16<S, 1, true, true>);  \
  t.set(Op::PREFIX##_LOAD_SHORT_D16, flat_load_d16<S, 2, false, false>);   \
  t.set(Op::PREFIX##_LOAD_SHORT_D16_HI, flat_load_d16<S, 2, false, true>);

#define ATOMIC(PREFIX, S, NAME, A)                                          \
  t.set(Op::PREFIX##_ATOMIC_##NAME, flat_atomic<S, uint32_t, A>);           \
  t.set(Op::PREFIX##_ATOMIC_##NAME##_X2, flat_atomic<S, uint64_t, A>);
#define ATOMICS(PREFIX, S)                      \
  ATOMIC(PREFIX, S, SWAP, AtomicOp::Swap)       \
  ATOMIC(PREFIX, S, CMPSWAP, AtomicOp::CmpSwap) \
  ATOMIC(PREFIX, S, ADD, AtomicOp::Add)         \
  ATOMIC(PREFIX, S, SUB, AtomicOp::Sub)         \
  ATOMIC(PREFIX, S, SMIN, AtomicOp::SMin)       \
  ATOMIC(PREFIX, S, UMIN, AtomicOp::UMin)       \
  ATOMIC(PREFIX, S, SMAX, AtomicOp::SMax)       \
  ATOMIC(PREFIX, S, UMAX, AtomicOp::UMax)       \
  ATOMIC(PREFIX, S, AND, AtomicOp::And)         \
  ATOMIC(PREFIX, S, OR, AtomicOp::Or)           \
  ATOMIC(PREFIX, S, XOR, AtomicOp::Xor)         \
  ATOMIC(PREFIX, S, INC, AtomicOp::Inc)         \
  ATOMIC(PREFIX, S, DEC, AtomicOp::Dec)
/// gfx942's floating-point atomics (the packed f16/bf16 adds are not executed).
#define FLOAT_ATOMICS(PREFIX, S)                                                     \
  t.set(Op::PREFIX##_ATOMIC_ADD_F32, flat_atomic<S, uint32_t, AtomicOp::FAdd>);      \
  t.set(Op::PREFIX##_ATOMIC_ADD_F64, flat_atomic<S, uint64_t, AtomicOp::FAdd>);      \
  t.set(Op::PREFIX##_ATOMIC_MIN_F64, flat_atomic<S, uint64_t, AtomicOp::FMin>);      \
  t.set(Op::PREFIX##_ATOMIC_MAX_F64, flat_atomic<S, uint64_t, AtomicOp::FMax>);
}  // namespace

void register_flat(HandlerTable& t) {
  MEMORY_OPS(FLAT, Seg::Flat)
  MEMORY_OPS(GLOBAL, Seg::Global)
  MEMORY_OPS(SCRATCH, Seg::Scratch)
  ATOMICS(FLAT, Seg::Flat)
  ATOMICS(GLOBAL, Seg::Global)
  FLOAT_ATOMICS(FLAT, Seg::Flat)
  FLOAT_ATOMICS(GLOBAL, Seg::Global)
}

}  // namespace strobe::emu
