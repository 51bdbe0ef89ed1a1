// DS (LDS) semantics: loads, stores, two-address forms, atomics and the cross-lane permutes.
// Addresses are VGPR + offset in 32-bit arithmetic (compilers fold a negative base into the
// offset and rely on the wrap); accesses at or beyond M0 are dropped (reads give zero) as on
// gfx8, and accesses beyond the work-group's LDS allocation fault.
#include <algorithm>
#include <bit>
#include <cstring>

#include "emu/mem_access.h"
#include "emu/operands.h"

namespace strobe::emu {

namespace {
using isa::Op;
using Space = MemAccessInfo::Space;

inline uint32_t* vreg(Wave& w, uint16_t code) { return w.vrow(vgpr_index(code)); }

// The GDS bit routes an access to the global data share, which strobe does not model.
inline void reject_gds(const Wave& w, const isa::Inst& in, const ExecContext& ctx) {
  if (in.gds) [[unlikely]] fault(w, in, ctx, "not implemented: GDS access (gds bit set)");
}

// Calls f(lane) for every lane set in `exec` (all 64 without bit scanning when EXEC is full).
template <typename F>
[[gnu::always_inline]] inline void for_each_lane(uint64_t exec, F&& f) {
  if (exec == ~uint64_t{0}) {
    for (int l = 0; l < kWaveSize; ++l) f(l);
  } else {
    for (; exec; exec &= exec - 1) f(std::countr_zero(exec));
  }
}

// The M0 clamp: gfx803 drops LDS accesses at or beyond M0; gfx9 and later no longer use M0
// to bound LDS (only the allocation bounds it), and their kernels leave M0 unset.
inline uint64_t m0_limit(const Wave& w, const isa::Inst& in) {
  return in.target == isa::Target::Gfx803 ? w.m0() : ~uint64_t{0};
}

// LDS pointer for the common case (below both M0 and the allocation), else the checked path:
// nullptr beyond M0, a fault beyond the allocation.
[[gnu::always_inline]] inline uint8_t* lds_fast(const Wave& w, const isa::Inst& in, const ExecContext& ctx,
                                                uint64_t limit, uint32_t addr, uint32_t n, int l) {
  if (uint64_t(addr) + n <= limit) [[likely]] return ctx.lds.data() + addr;
  return lds_ptr(w, in, ctx, addr, n, l, m0_limit(w, in));
}

// True when EXEC is full and every lane's (32-bit wrapped) address is in bounds: the caller may
// then run a check-free loop the compiler can unroll.
inline bool whole_wave_in_bounds(uint64_t exec, const uint32_t* a, uint32_t off, uint32_t n, uint64_t limit) {
  if (exec != ~uint64_t{0}) return false;
  uint32_t hi = 0;
  for (int l = 0; l < kWaveSize; ++l) hi = std::max(hi, uint32_t(a[l] + off));
  return uint64_t(hi) + n <= limit;
}

// Records the first address of each active lane for the timing model.
inline void record_lanes(ExecContext& ctx, uint64_t exec, const uint32_t* a, uint32_t off) {
  if (!ctx.mem_info) return;
  for_each_lane(exec, [&](int l) { mem_info_lane(ctx, l, uint32_t(a[l] + off)); });
}

// Reads of 1..16 bytes, zero/sign-extending sub-dword sizes into one VGPR.
template <unsigned Bytes, bool Signed>
void ds_read(Wave& w, const isa::Inst& in, ExecContext& ctx) {
  reject_gds(w, in, ctx);
  const uint64_t exec = w.exec(), limit = std::min<uint64_t>(m0_limit(w, in), ctx.lds.size());
  const uint32_t* a = vreg(w, in.addr);
  const uint32_t off = in.offset;
  constexpr unsigned kDw = Bytes < 4 ? 1 : Bytes / 4;
  uint32_t* d[kDw];
  for (unsigned i = 0; i < kDw; ++i) d[i] = vreg(w, in.dst + i);
  mem_info_begin(ctx, Space::Lds, Bytes, false, false);
  record_lanes(ctx, exec, a, off);
  if (Bytes == 4 && whole_wave_in_bounds(exec, a, off, 4, limit)) {
    const uint8_t* lds = ctx.lds.data();
    for (int l = 0; l < kWaveSize; ++l) std::memcpy(&d[0][l], lds + uint32_t(a[l] + off), 4);
    return;
  }
  for_each_lane(exec, [&](int l) {
    const uint8_t* p = lds_fast(w, in, ctx, limit, uint32_t(a[l] + off), Bytes, l);
    uint32_t v[kDw] = {};
    if (p) {
      if constexpr (Bytes == 1) v[0] = Signed ? uint32_t(int32_t(int8_t(*p))) : *p;
      else if constexpr (Bytes == 2) {
        uint16_t h;
        std::memcpy(&h, p, 2);
        v[0] = Signed ? uint32_t(int32_t(int16_t(h))) : h;
      } else std::memcpy(v, p, Bytes);
    }
    for (unsigned i = 0; i < kDw; ++i) d[i][l] = v[i];
  });
}

template <unsigned Bytes>
void ds_write(Wave& w, const isa::Inst& in, ExecContext& ctx) {
  reject_gds(w, in, ctx);
  const uint64_t exec = w.exec(), limit = std::min<uint64_t>(m0_limit(w, in), ctx.lds.size());
  const uint32_t* a = vreg(w, in.addr);
  const uint32_t off = in.offset;
  constexpr unsigned kDw = Bytes < 4 ? 1 : Bytes / 4;
  const uint32_t* s[kDw];
  for (unsigned i = 0; i < kDw; ++i) s[i] = vreg(w, in.data0 + i);
  mem_info_begin(ctx, Space::Lds, Bytes, true, false);
  record_lanes(ctx, exec, a, off);
  for_each_lane(exec, [&](int l) {
    uint32_t v[kDw];
    for (unsigned i = 0; i < kDw; ++i) v[i] = s[i][l];
    if (uint8_t* p = lds_fast(w, in, ctx, limit, uint32_t(a[l] + off), Bytes, l)) std::memcpy(p, v, Bytes);
  });
}

// read2/write2: two independent elements at base + offset{0,1} * element size (* 64 for st64).
template <unsigned Dw, unsigned Stride>
void ds_read2(Wave& w, const isa::Inst& in, ExecContext& ctx) {
  reject_gds(w, in, ctx);
  const uint64_t exec = w.exec(), limit = std::min<uint64_t>(m0_limit(w, in), ctx.lds.size());
  const uint32_t* a = vreg(w, in.addr);
  const uint32_t off[2] = {uint32_t(in.offset & 0xFF) * Dw * 4 * Stride, uint32_t(in.offset1) * Dw * 4 * Stride};
  uint32_t* d[2 * Dw];
  for (unsigned i = 0; i < 2 * Dw; ++i) d[i] = vreg(w, in.dst + i);
  mem_info_begin(ctx, Space::Lds, Dw * 4, false, false);
  record_lanes(ctx, exec, a, off[0]);
  // Both elements of a lane are read before any destination register is written: the
  // destination may be the address register itself.
  if (whole_wave_in_bounds(exec, a, off[0], Dw * 4, limit) && whole_wave_in_bounds(exec, a, off[1], Dw * 4, limit)) {
    const uint8_t* lds = ctx.lds.data();
    for (int l = 0; l < kWaveSize; ++l) {
      const uint32_t base = a[l];
      uint32_t v[2 * Dw];
      std::memcpy(v, lds + uint32_t(base + off[0]), Dw * 4);
      std::memcpy(v + Dw, lds + uint32_t(base + off[1]), Dw * 4);
      for (unsigned i = 0; i < 2 * Dw; ++i) d[i][l] = v[i];
    }
    return;
  }
  for_each_lane(exec, [&](int l) {
    const uint32_t base = a[l];
    uint32_t v[2 * Dw] = {};
    for (int k = 0; k < 2; ++k)
      if (const uint8_t* p = lds_fast(w, in, ctx, limit, uint32_t(base + off[k]), Dw * 4, l)) std::memcpy(v + k * Dw, p, Dw * 4);
    for (unsigned i = 0; i < 2 * Dw; ++i) d[i][l] = v[i];
  });
}

template <unsigned Dw, unsigned Stride>
void ds_write2(Wave& w, const isa::Inst& in, ExecContext& ctx) {
  reject_gds(w, in, ctx);
  const uint64_t exec = w.exec(), limit = std::min<uint64_t>(m0_limit(w, in), ctx.lds.size());
  const uint32_t* a = vreg(w, in.addr);
  const uint32_t off[2] = {uint32_t(in.offset & 0xFF) * Dw * 4 * Stride, uint32_t(in.offset1) * Dw * 4 * Stride};
  const uint32_t* s[2 * Dw];
  for (unsigned i = 0; i < Dw; ++i) s[i] = vreg(w, in.data0 + i), s[Dw + i] = vreg(w, in.data1 + i);
  mem_info_begin(ctx, Space::Lds, Dw * 4, true, false);
  record_lanes(ctx, exec, a, off[0]);
  for_each_lane(exec, [&](int l) {
    for (int k = 0; k < 2; ++k) {
      uint32_t v[Dw];
      for (unsigned i = 0; i < Dw; ++i) v[i] = s[k * Dw + i][l];
      if (uint8_t* p = lds_fast(w, in, ctx, limit, uint32_t(a[l] + off[k]), Dw * 4, l)) std::memcpy(p, v, Dw * 4);
    }
  });
}

template <typename U>
U lane_value(Wave& w, uint16_t code, int l) {
  if constexpr (sizeof(U) == 4) return vreg(w, code)[l];
  else return vreg(w, code)[l] | uint64_t(vreg(w, code + 1)[l]) << 32;
}
template <typename U>
void set_lane_value(Wave& w, uint16_t code, int l, U v) {
  vreg(w, code)[l] = uint32_t(v);
  if constexpr (sizeof(U) == 8) vreg(w, code + 1)[l] = uint32_t(v >> 32);
}

// Atomics, lanes in ascending order. For cmpst, data0 is the compare value and data1 the new one.
template <typename U, AtomicOp A, bool Rtn>
void ds_atomic(Wave& w, const isa::Inst& in, ExecContext& ctx) {
  reject_gds(w, in, ctx);
  const uint64_t exec = w.exec(), m0 = m0_limit(w, in);
  const uint32_t* a = vreg(w, in.addr);
  constexpr bool kTwoData = A == AtomicOp::CmpSwap || A == AtomicOp::Mskor || A == AtomicOp::Wrap;
  mem_info_begin(ctx, Space::Lds, sizeof(U), true, true);
  for (int l = 0; l < kWaveSize; ++l) {
    if (!lane_on(exec, l)) continue;
    const uint64_t addr = uint32_t(a[l] + in.offset);
    mem_info_lane(ctx, l, addr);
    U d0 = lane_value<U>(w, in.data0, l), d1 = kTwoData ? lane_value<U>(w, in.data1, l) : U{0};
    if (A == AtomicOp::CmpSwap) std::swap(d0, d1);  // atomic_apply wants (new, compare)
    U old = 0;
    if (uint8_t* p = lds_ptr(w, in, ctx, addr, sizeof(U), l, m0)) {
      std::memcpy(&old, p, sizeof(U));
      const U nv = atomic_apply<U>(A, old, d0, d1);
      std::memcpy(p, &nv, sizeof(U));
    }
    if (Rtn) set_lane_value<U>(w, in.dst, l, old);
  }
}

// wrxchg2: swap data0/data1 into two addresses, returning both old values.
template <typename U, unsigned Stride>
void ds_wrxchg2(Wave& w, const isa::Inst& in, ExecContext& ctx) {
  reject_gds(w, in, ctx);
  const uint64_t exec = w.exec(), m0 = m0_limit(w, in);
  const uint32_t* a = vreg(w, in.addr);
  const uint32_t off[2] = {uint32_t((in.offset & 0xFF) * sizeof(U) * Stride), uint32_t(in.offset1 * sizeof(U) * Stride)};
  const uint16_t data[2] = {in.data0, in.data1};
  constexpr unsigned kDw = sizeof(U) / 4;
  mem_info_begin(ctx, Space::Lds, sizeof(U), true, true);
  for (int l = 0; l < kWaveSize; ++l) {
    if (!lane_on(exec, l)) continue;
    mem_info_lane(ctx, l, uint32_t(a[l] + off[0]));
    for (int k = 0; k < 2; ++k) {
      U old = 0, nv = lane_value<U>(w, data[k], l);
      if (uint8_t* p = lds_ptr(w, in, ctx, uint32_t(a[l] + off[k]), sizeof(U), l, m0)) {
        std::memcpy(&old, p, sizeof(U));
        std::memcpy(p, &nv, sizeof(U));
      }
      set_lane_value<U>(w, in.dst + k * kDw, l, old);
    }
  }
}

// ds_swizzle_b32: offset[15] selects quad-permute mode, else the 32-lane and/or/xor mask mode.
// The data comes from the ADDR field (the instruction has no data operand).
void ds_swizzle_b32(Wave& w, const isa::Inst& in, ExecContext& ctx) {
  const uint64_t exec = w.exec();
  const uint32_t* src = vreg(w, in.addr);
  uint32_t out[kWaveSize];
  const uint32_t pat = in.offset & 0xFFFF;
  for (int l = 0; l < kWaveSize; ++l) {
    int from;
    if (pat & 0x8000) {
      from = (l & ~3) | ((pat >> (2 * (l & 3))) & 3);
    } else {
      const int and_m = pat & 0x1F, or_m = (pat >> 5) & 0x1F, xor_m = (pat >> 10) & 0x1F;
      from = (l & 0x20) | ((((l & 0x1F) & and_m) | or_m) ^ xor_m);
    }
    out[l] = lane_on(exec, from) ? src[from] : 0;
  }
  uint32_t* d = vreg(w, in.dst);
  for (int l = 0; l < kWaveSize; ++l)
    if (lane_on(exec, l)) d[l] = out[l];
}

// ds_permute_b32 pushes data0 to lane (addr+offset)/4; ds_bpermute_b32 pulls from it. Inactive
// source lanes contribute zero. Neither touches LDS memory.
template <bool Backward>
void ds_permute(Wave& w, const isa::Inst& in, ExecContext& ctx) {
  const uint64_t exec = w.exec();
  const uint32_t* a = vreg(w, in.addr);
  const uint32_t* src = vreg(w, in.data0);
  uint32_t out[kWaveSize] = {};
  for (int l = 0; l < kWaveSize; ++l) {
    if (!lane_on(exec, l)) continue;
    const int other = int(((a[l] + in.offset) >> 2) & 63);
    if (Backward) out[l] = lane_on(exec, other) ? src[other] : 0;
    else out[other] = src[l];
  }
  uint32_t* d = vreg(w, in.dst);
  for (int l = 0; l < kWaveSize; ++l)
    if (lane_on(exec, l)) d[l] = out[l];
}

void ds_nop(Wave&, const isa::Inst&, ExecContext&) {}

#define ATOMIC_32(OP_, RTN_, A)                     \
  t.set(Op::DS_##OP_, ds_atomic<uint32_t, A, false>); \
  t.set(Op::DS_##RTN_, ds_atomic<uint32_t, A, true>);
#define ATOMIC_64(OP_, RTN_, A)                     \
  t.set(Op::DS_##OP_, ds_atomic<uint64_t, A, false>); \
  t.set(Op::DS_##RTN_, ds_atomic<uint64_t, A, true>);
}  // namespace

void register_ds(HandlerTable& t) {
  t.set(Op::DS_NOP, ds_nop);
  t.set(Op::DS_READ_U8, ds_read<1, false>);
  t.set(Op::DS_READ_I8, ds_read<1, true>);
  t.set(Op::DS_READ_U16, ds_read<2, false>);
  t.set(Op::DS_READ_I16, ds_read<2, true>);
  t.set(Op::DS_READ_B32, ds_read<4, false>);
  t.set(Op::DS_READ_B64, ds_read<8, false>);
  t.set(Op::DS_READ_B96, ds_read<12, false>);
  t.set(Op::DS_READ_B128, ds_read<16, false>);
  t.set(Op::DS_WRITE_B8, ds_write<1>);
  t.set(Op::DS_WRITE_B16, ds_write<2>);
  t.set(Op::DS_WRITE_B32, ds_write<4>);
  t.set(Op::DS_WRITE_B64, ds_write<8>);
  t.set(Op::DS_WRITE_B96, ds_write<12>);
  t.set(Op::DS_WRITE_B128, ds_write<16>);
  t.set(Op::DS_READ2_B32, ds_read2<1, 1>);
  t.set(Op::DS_READ2ST64_B32, ds_read2<1, 64>);
  t.set(Op::DS_READ2_B64, ds_read2<2, 1>);
  t.set(Op::DS_READ2ST64_B64, ds_read2<2, 64>);
  t.set(Op::DS_WRITE2_B32, ds_write2<1, 1>);
  t.set(Op::DS_WRITE2ST64_B32, ds_write2<1, 64>);
  t.set(Op::DS_WRITE2_B64, ds_write2<2, 1>);
  t.set(Op::DS_WRITE2ST64_B64, ds_write2<2, 64>);
  ATOMIC_32(ADD_U32, ADD_RTN_U32, AtomicOp::Add)
  ATOMIC_32(SUB_U32, SUB_RTN_U32, AtomicOp::Sub)
  ATOMIC_32(RSUB_U32, RSUB_RTN_U32, AtomicOp::Rsub)
  ATOMIC_32(INC_U32, INC_RTN_U32, AtomicOp::Inc)
  ATOMIC_32(DEC_U32, DEC_RTN_U32, AtomicOp::Dec)
  ATOMIC_32(MIN_I32, MIN_RTN_I32, AtomicOp::SMin)
  ATOMIC_32(MAX_I32, MAX_RTN_I32, AtomicOp::SMax)
  ATOMIC_32(MIN_U32, MIN_RTN_U32, AtomicOp::UMin)
  ATOMIC_32(MAX_U32, MAX_RTN_U32, AtomicOp::UMax)
  ATOMIC_32(AND_B32, AND_RTN_B32, AtomicOp::And)
  ATOMIC_32(OR_B32, OR_RTN_B32, AtomicOp::Or)
  ATOMIC_32(XOR_B32, XOR_RTN_B32, AtomicOp::Xor)
  ATOMIC_32(MSKOR_B32, MSKOR_RTN_B32, AtomicOp::Mskor)
  ATOMIC_32(CMPST_B32, CMPST_RTN_B32, AtomicOp::CmpSwap)
  ATOMIC_32(CMPST_F32, CMPST_RTN_F32, AtomicOp::CmpSwap)
  ATOMIC_32(MIN_F32, MIN_RTN_F32, AtomicOp::FMin)
  ATOMIC_32(MAX_F32, MAX_RTN_F32, AtomicOp::FMax)
  ATOMIC_32(ADD_F32, ADD_RTN_F32, AtomicOp::FAdd)
  t.set(Op::DS_WRXCHG_RTN_B32, ds_atomic<uint32_t, AtomicOp::Swap, true>);
  t.set(Op::DS_WRAP_RTN_B32, ds_atomic<uint32_t, AtomicOp::Wrap, true>);
  ATOMIC_64(ADD_U64, ADD_RTN_U64, AtomicOp::Add)
  ATOMIC_64(SUB_U64, SUB_RTN_U64, AtomicOp::Sub)
  ATOMIC_64(RSUB_U64, RSUB_RTN_U64, AtomicOp::Rsub)
  ATOMIC_64(INC_U64, INC_RTN_U64, AtomicOp::Inc)
  ATOMIC_64(DEC_U64, DEC_RTN_U64, AtomicOp::Dec)
  ATOMIC_64(MIN_I64, MIN_RTN_I64, AtomicOp::SMin)
  ATOMIC_64(MAX_I64, MAX_RTN_I64, AtomicOp::SMax)
  ATOMIC_64(MIN_U64, MIN_RTN_U64, AtomicOp::UMin)
  ATOMIC_64(MAX_U64, MAX_RTN_U64, AtomicOp::UMax)
  ATOMIC_64(AND_B64, AND_RTN_B64, AtomicOp::And)
  ATOMIC_64(OR_B64, OR_RTN_B64, AtomicOp::Or)
  ATOMIC_64(XOR_B64, XOR_RTN_B64, AtomicOp::Xor)
  ATOMIC_64(MSKOR_B64, MSKOR_RTN_B64, AtomicOp::Mskor)
  ATOMIC_64(CMPST_B64, CMPST_RTN_B64, AtomicOp::CmpSwap)
  ATOMIC_64(CMPST_F64, CMPST_RTN_F64, AtomicOp::CmpSwap)
  ATOMIC_64(MIN_F64, MIN_RTN_F64, AtomicOp::FMin)
  ATOMIC_64(MAX_F64, MAX_RTN_F64, AtomicOp::FMax)
  t.set(Op::DS_WRXCHG_RTN_B64, ds_atomic<uint64_t, AtomicOp::Swap, true>);
  t.set(Op::DS_WRXCHG2_RTN_B32, ds_wrxchg2<uint32_t, 1>);
  t.set(Op::DS_WRXCHG2ST64_RTN_B32, ds_wrxchg2<uint32_t, 64>);
  t.set(Op::DS_WRXCHG2_RTN_B64, ds_wrxchg2<uint64_t, 1>);
  t.set(Op::DS_WRXCHG2ST64_RTN_B64, ds_wrxchg2<uint64_t, 64>);
  t.set(Op::DS_SWIZZLE_B32, ds_swizzle_b32);
  t.set(Op::DS_PERMUTE_B32, ds_permute<false>);
  t.set(Op::DS_BPERMUTE_B32, ds_permute<true>);
  // The *_src2 forms, ds_condxchg32, ds_append/consume and every GDS/GWS operation stay unset:
  // they fault as not implemented.
}

}  // namespace strobe::emu
