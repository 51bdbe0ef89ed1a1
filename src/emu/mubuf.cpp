// MUBUF/MTBUF semantics: buffer loads/stores/atomics through a V# resource, with index/offset
// VGPRs, soffset, range checking and swizzled (scratch) addressing per GCN3 ISA chapter 8.
#include <algorithm>
#include <bit>
#include <cstring>

#include "emu/float_util.h"
#include "emu/mem_access.h"
#include "emu/operands.h"
#include "emu/scratch.h"

namespace strobe::emu {

namespace {
using isa::Op;
using Space = MemAccessInfo::Space;
namespace of = isa::opcode_field;

inline uint32_t* vreg(Wave& w, uint16_t code) { return w.vrow(vgpr_index(code)); }

// The 128-bit buffer resource (V#).
struct BufDesc {
  uint64_t base;
  uint32_t stride, num_records, es, is, dfmt, nfmt;
  bool swizzle, add_tid, scratch;
};

BufDesc read_desc(const Wave& w, const isa::Inst& in, const ExecContext& ctx) {
  if (in.srsrc + 4 > 128) fault(w, in, ctx, "buffer resource exceeds the SGPR file");
  const uint32_t* r = &w.s[in.srsrc];
  BufDesc d;
  d.base = r[0] | uint64_t(r[1] & 0xFFFF) << 32;
  d.stride = (r[1] >> 16) & 0x3FFF;
  d.swizzle = r[1] >> 31;
  d.num_records = r[2];
  d.nfmt = (r[3] >> 12) & 7;
  d.dfmt = (r[3] >> 15) & 0xF;
  d.es = 2u << ((r[3] >> 19) & 3);
  d.is = 8u << ((r[3] >> 21) & 3);
  d.add_tid = (r[3] >> 23) & 1;
  // The CP's private segment buffer (kernels may fold the wave offset into its base): per-lane
  // bounds apply.
  d.scratch = d.swizzle && d.add_tid && d.base >= ctx.private_base && d.base - ctx.private_base < ctx.private_size;
  return d;
}

// Per-lane addressing state of one buffer instruction.
struct LaneAccess {
  const BufDesc& d;
  uint64_t soff;
  uint32_t index;
  uint64_t offset;  // VGPR offset + instruction offset
  // Device address of byte `i` of the access, or false when the range check rejects it.
  bool addr(uint32_t i, uint32_t n, uint64_t& a) const {
    const uint64_t o = offset + i;
    if (d.swizzle) {
      if (d.stride && !d.add_tid && index >= d.num_records) return false;
      if (!d.stride && o + n > d.num_records) return false;
      a = d.base + soff + swizzle_offset(index, o, d.stride, d.es, d.is);
    } else {
      if (d.stride ? index >= d.num_records : o + n > d.num_records) return false;
      a = d.base + soff + uint64_t(index) * d.stride + o;
    }
    return true;
  }
};

LaneAccess lane_access(Wave& w, const isa::Inst& in, const BufDesc& d, uint64_t soff, int l) {
  uint32_t index = in.idxen ? vreg(w, in.addr)[l] : 0;
  if (d.add_tid) index += uint32_t(l);
  const uint32_t voff = in.offen ? vreg(w, in.addr + (in.idxen ? 1 : 0))[l] : 0;
  return LaneAccess{d, soff, index, uint64_t(voff) + (in.offset & 0xFFF)};
}

void reject_unsupported(const Wave& w, const isa::Inst& in, const ExecContext& ctx) {
  if (in.lds) [[unlikely]] fault(w, in, ctx, "not implemented: buffer load to LDS (lds bit)");
  if (in.tfe) [[unlikely]] fault(w, in, ctx, "not implemented: texture-fail enable (tfe bit)");
}

// Moves n bytes for one lane; swizzled accesses go element by element. Out-of-range pieces read
// zero and are not written.
template <bool Store>
void buffer_xfer(Wave& w, const isa::Inst& in, ExecContext& ctx, int l, const LaneAccess& la, uint8_t* buf, uint32_t n) {
  if (la.d.scratch && la.offset + n > w.scratch_bytes_per_lane)
    fault(w, in, ctx, fmt::format("private (scratch) access of {} bytes at offset 0x{:x} (lane {}) exceeds the {} "
                                  "bytes of private memory per work-item", n, la.offset, l, w.scratch_bytes_per_lane));
  const uint32_t step = !la.d.swizzle ? n : (la.offset % 4 == 0 && n % 4 == 0 && la.d.es >= 4) ? 4 : 1;
  for (uint32_t i = 0; i < n; i += step) {
    uint64_t a;
    if (!la.addr(i, step, a)) {
      if (!Store) std::memset(buf + i, 0, step);
      continue;
    }
    if (i == 0) mem_info_lane(ctx, l, a);
    bool ok = Store ? device_store(*ctx.memory, a, buf + i, step) : device_load(*ctx.memory, a, buf + i, step);
    if (!ok) past_end_access(w, in, ctx, Store ? "buffer store" : "buffer load", a, buf + i, step, l, Store);
  }
}

template <unsigned Bytes, bool Signed, bool Store>
void buffer_mem(Wave& w, const isa::Inst& in, ExecContext& ctx) {
  reject_unsupported(w, in, ctx);
  const BufDesc d = read_desc(w, in, ctx);
  const uint64_t soff = scalar_source(w, in, in.soffset, OperandType::B32);
  const uint64_t exec = w.exec();
  constexpr unsigned kDw = Bytes < 4 ? 1 : Bytes / 4;
  const uint16_t reg = Store ? (in.data0 != of::kNone ? in.data0 : in.dst) : in.dst;
  mem_info_begin(ctx, d.scratch ? Space::Scratch : Space::Global, Bytes, Store, false);
  for (int l = 0; l < kWaveSize; ++l) {
    if (!lane_on(exec, l)) continue;
    const LaneAccess la = lane_access(w, in, d, soff, l);
    uint32_t v[kDw] = {};
    if (Store)
      for (unsigned i = 0; i < kDw; ++i) v[i] = vreg(w, reg + i)[l];
    buffer_xfer<Store>(w, in, ctx, l, la, reinterpret_cast<uint8_t*>(v), Bytes);
    if (!Store) {
      if constexpr (Bytes == 1) v[0] = Signed ? uint32_t(int32_t(int8_t(v[0]))) : v[0];
      if constexpr (Bytes == 2) v[0] = Signed ? uint32_t(int32_t(int16_t(v[0]))) : v[0];
      for (unsigned i = 0; i < kDw; ++i) vreg(w, reg + i)[l] = v[i];
    }
  }
}

// Formatted access. Stores take the integer and 32-bit float formats (raw bytes per component).
// Loads also convert, as vertex fetch needs: UNORM and SNORM to [0, 1] and [-1, 1], USCALED and
// SSCALED to floats, 16-bit FLOAT to f32, and a load of more components than the format has
// reads 0 for the missing ones and 1 (1.0 for float results) for the fourth, the GCN default.
// Packed formats (10_11_11, 2_10_10_10, ...) fault.
enum NumFormat : uint32_t { kUnorm = 0, kSnorm = 1, kUscaled = 2, kSscaled = 3, kUint = 4, kSint = 5, kFloat = 7 };
struct Format { uint32_t comps, bits; };
Format decode_format(const Wave& w, const isa::Inst& in, const ExecContext& ctx, uint32_t dfmt, uint32_t nfmt, bool store) {
  static constexpr Format kFormats[16] = {{0, 0}, {1, 8}, {1, 16}, {2, 8}, {1, 32}, {2, 16}, {0, 0}, {0, 0},
                                          {0, 0}, {0, 0}, {4, 8}, {2, 32}, {4, 16}, {3, 32}, {4, 32}, {0, 0}};
  const Format f = kFormats[dfmt & 15];
  const bool raw = nfmt == kUint || nfmt == kSint || (nfmt == kFloat && f.bits == 32);
  const bool converted = !store && f.bits < 32 && (nfmt <= kSscaled || (nfmt == kFloat && f.bits == 16));
  if (!f.comps || !(raw || converted))
    fault(w, in, ctx, fmt::format("not implemented: buffer data format {} with number format {}{}", dfmt, nfmt,
                                  store ? " (stores)" : ""));
  return f;
}

// One loaded component's register value from its `bits`-wide raw value.
uint32_t convert_component(uint32_t v, uint32_t bits, uint32_t nfmt) {
  const uint32_t max = bits == 32 ? 0xFFFFFFFFu : (1u << bits) - 1;
  const int32_t sv = bits == 32 ? int32_t(v) : int32_t(v << (32 - bits)) >> (32 - bits);
  switch (nfmt) {
    case kUnorm: return std::bit_cast<uint32_t>(float(v) / float(max));
    case kSnorm: return std::bit_cast<uint32_t>(std::max(float(sv) / float(max >> 1), -1.0f));
    case kUscaled: return std::bit_cast<uint32_t>(float(v));
    case kSscaled: return std::bit_cast<uint32_t>(float(sv));
    case kSint: return uint32_t(sv);
    case kFloat: return bits == 16 ? std::bit_cast<uint32_t>(fp::h2f(v)) : v;
    default: return v;  // kUint
  }
}

template <unsigned Comps, bool Store, bool Typed>
void buffer_format(Wave& w, const isa::Inst& in, ExecContext& ctx) {
  reject_unsupported(w, in, ctx);
  const BufDesc d = read_desc(w, in, ctx);
  const uint32_t dfmt = Typed ? in.dfmt : d.dfmt, nfmt = Typed ? in.nfmt : d.nfmt;
  const Format f = decode_format(w, in, ctx, dfmt, nfmt, Store);
  if (Store && f.comps < Comps)
    fault(w, in, ctx, fmt::format("not implemented: storing {} components to a {}-component buffer format", Comps, f.comps));
  const uint32_t read_comps = std::min(Comps, f.comps);
  const uint32_t cb = f.bits / 8, bytes = read_comps * cb;
  const bool float_result = nfmt == kUnorm || nfmt == kSnorm || nfmt == kUscaled || nfmt == kSscaled || nfmt == kFloat;
  const uint32_t one = float_result ? std::bit_cast<uint32_t>(1.0f) : 1u;
  const uint64_t soff = scalar_source(w, in, in.soffset, OperandType::B32);
  const uint64_t exec = w.exec();
  const uint16_t reg = Store ? (in.data0 != of::kNone ? in.data0 : in.dst) : in.dst;
  mem_info_begin(ctx, d.scratch ? Space::Scratch : Space::Global, bytes, Store, false);
  for (int l = 0; l < kWaveSize; ++l) {
    if (!lane_on(exec, l)) continue;
    const LaneAccess la = lane_access(w, in, d, soff, l);
    uint8_t raw[16] = {};
    if (Store)
      for (unsigned c = 0; c < Comps; ++c) {
        const uint32_t v = vreg(w, reg + c)[l];
        std::memcpy(raw + c * cb, &v, cb);
      }
    buffer_xfer<Store>(w, in, ctx, l, la, raw, bytes);
    if (!Store)
      for (unsigned c = 0; c < Comps; ++c) {
        uint32_t v = 0;
        if (c < read_comps) {
          std::memcpy(&v, raw + c * cb, cb);
          v = convert_component(v, f.bits, nfmt);
        } else {
          v = c == 3 ? one : 0;
        }
        vreg(w, reg + c)[l] = v;
      }
  }
}

// Atomics: vdata holds the data (for cmpswap: new value, then compare value) and receives the
// pre-op value when GLC is set.
template <typename U, AtomicOp A>
void buffer_atomic(Wave& w, const isa::Inst& in, ExecContext& ctx) {
  reject_unsupported(w, in, ctx);
  const BufDesc d = read_desc(w, in, ctx);
  const uint64_t soff = scalar_source(w, in, in.soffset, OperandType::B32);
  const uint64_t exec = w.exec();
  constexpr unsigned kDw = sizeof(U) / 4;
  const uint16_t data = in.data0 != of::kNone ? in.data0 : in.dst;
  const uint16_t ret = in.dst != of::kNone ? in.dst : in.data0;
  mem_info_begin(ctx, d.scratch ? Space::Scratch : Space::Global, sizeof(U), true, true);
  for (int l = 0; l < kWaveSize; ++l) {
    if (!lane_on(exec, l)) continue;
    const LaneAccess la = lane_access(w, in, d, soff, l);
    uint64_t a;
    U old = 0;
    if (la.addr(0, sizeof(U), a)) {
      mem_info_lane(ctx, l, a);
      if (a % sizeof(U)) fault(w, in, ctx, fmt::format("misaligned atomic at address 0x{:x} (lane {})", a, l));
      uint8_t* p = atomic_ptr(w, in, ctx, "buffer atomic", a, sizeof(U), l);
      U dv = vreg(w, data)[l], cmp = 0;
      if constexpr (kDw == 2) dv |= uint64_t(vreg(w, data + 1)[l]) << 32;
      if (A == AtomicOp::CmpSwap) {
        cmp = vreg(w, data + kDw)[l];
        if constexpr (kDw == 2) cmp |= uint64_t(vreg(w, data + kDw + 1)[l]) << 32;
      }
      std::memcpy(&old, p, sizeof(U));
      const U nv = atomic_apply<U>(A, old, dv, cmp);
      std::memcpy(p, &nv, sizeof(U));
    }
    if (in.glc) {
      vreg(w, ret)[l] = uint32_t(old);
      if constexpr (kDw == 2) vreg(w, ret + 1)[l] = uint32_t(uint64_t(old) >> 32);
    }
  }
}

void buffer_nop(Wave&, const isa::Inst&, ExecContext&) {}

#define ATOMIC(NAME, A)                                            \
  t.set(Op::BUFFER_ATOMIC_##NAME, buffer_atomic<uint32_t, A>);     \
  t.set(Op::BUFFER_ATOMIC_##NAME##_X2, buffer_atomic<uint64_t, A>);
}  // namespace

void register_mubuf(HandlerTable& t) {
  t.set(Op::BUFFER_LOAD_UBYTE, buffer_mem<1, false, false>);
  t.set(Op::BUFFER_LOAD_SBYTE, buffer_mem<1, true, false>);
  t.set(Op::BUFFER_LOAD_USHORT, buffer_mem<2, false, false>);
  t.set(Op::BUFFER_LOAD_SSHORT, buffer_mem<2, true, false>);
  t.set(Op::BUFFER_LOAD_DWORD, buffer_mem<4, false, false>);
  t.set(Op::BUFFER_LOAD_DWORDX2, buffer_mem<8, false, false>);
  t.set(Op::BUFFER_LOAD_DWORDX3, buffer_mem<12, false, false>);
  t.set(Op::BUFFER_LOAD_DWORDX4, buffer_mem<16, false, false>);
  t.set(Op::BUFFER_STORE_BYTE, buffer_mem<1, false, true>);
  t.set(Op::BUFFER_STORE_SHORT, buffer_mem<2, false, true>);
  t.set(Op::BUFFER_STORE_DWORD, buffer_mem<4, false, true>);
  t.set(Op::BUFFER_STORE_DWORDX2, buffer_mem<8, false, true>);
  t.set(Op::BUFFER_STORE_DWORDX3, buffer_mem<12, false, true>);
  t.set(Op::BUFFER_STORE_DWORDX4, buffer_mem<16, false, true>);
  t.set(Op::BUFFER_LOAD_FORMAT_X, buffer_format<1, false, false>);
  t.set(Op::BUFFER_LOAD_FORMAT_XY, buffer_format<2, false, false>);
  t.set(Op::BUFFER_LOAD_FORMAT_XYZ, buffer_format<3, false, false>);
  t.set(Op::BUFFER_LOAD_FORMAT_XYZW, buffer_format<4, false, false>);
  t.set(Op::BUFFER_STORE_FORMAT_X, buffer_format<1, true, false>);
  t.set(Op::BUFFER_STORE_FORMAT_XY, buffer_format<2, true, false>);
  t.set(Op::BUFFER_STORE_FORMAT_XYZ, buffer_format<3, true, false>);
  t.set(Op::BUFFER_STORE_FORMAT_XYZW, buffer_format<4, true, false>);
  t.set(Op::TBUFFER_LOAD_FORMAT_X, buffer_format<1, false, true>);
  t.set(Op::TBUFFER_LOAD_FORMAT_XY, buffer_format<2, false, true>);
  t.set(Op::TBUFFER_LOAD_FORMAT_XYZ, buffer_format<3, false, true>);
  t.set(Op::TBUFFER_LOAD_FORMAT_XYZW, buffer_format<4, false, true>);
  t.set(Op::TBUFFER_STORE_FORMAT_X, buffer_format<1, true, true>);
  t.set(Op::TBUFFER_STORE_FORMAT_XY, buffer_format<2, true, true>);
  t.set(Op::TBUFFER_STORE_FORMAT_XYZ, buffer_format<3, true, true>);
  t.set(Op::TBUFFER_STORE_FORMAT_XYZW, buffer_format<4, true, true>);
  // Cache write-back/invalidate: memory is always coherent here.
  t.set(Op::BUFFER_WBINVL1, buffer_nop);
  t.set(Op::BUFFER_WBINVL1_VOL, buffer_nop);
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
  // D16 format variants stay unset: they fault as not implemented.
}

}  // namespace strobe::emu
