// The lane machinery every vector ALU handler runs on. A handler names its operand kinds and
// gives a per-lane lambda over raw bits; `run` resolves each source once (VGPR row pointer or a
// broadcast scalar/inline/literal), folds VOP3/SDWA/DPP input modifiers into that resolution,
// then loops over the lanes it may write and applies clamp/omod/SDWA output rules. The common
// case (all lanes active, no output modifiers) is a straight loop with no per-lane branches.
#pragma once

#include <bit>
#include <cassert>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "emu/float_util.h"
#include "emu/semantics.h"
#include "emu/wave.h"
#include "isa/op_traits.h"

namespace strobe::emu::valu {

/// How an operation interprets an operand: width, and whether it is a float (so VOP3/SDWA
/// abs/neg and clamp/omod apply to its sign bit).
enum class K : uint8_t { None, B16, B32, B64, F16, F32, F64 };

constexpr bool is64(K k) { return k == K::B64 || k == K::F64; }
constexpr bool is_float(K k) { return k == K::F16 || k == K::F32 || k == K::F64; }
/// The inline-constant interpretation (wave.h) of an operand kind.
constexpr OperandType op_type(K k) {
  switch (k) {
    case K::B16: return OperandType::B16;
    case K::F16: return OperandType::F16;
    case K::F32: return OperandType::F32;
    case K::B64: return OperandType::B64;
    case K::F64: return OperandType::F64;
    default: return OperandType::B32;
  }
}
/// Raw bit container of a kind: 64-bit kinds travel as uint64_t, everything else as uint32_t.
template <K k> using raw_t = std::conditional_t<is64(k), uint64_t, uint32_t>;

/// A resolved source: lane l reads lo[l] (and hi[l] for 64-bit kinds), then
/// `(x & and_m) ^ xor_m` on the dword holding the sign bit, which is how abs/neg are applied.
/// Scalar, inline and literal sources are broadcast into a 64-lane row by prepare(), so every
/// source is a dense row and the lane loops vectorise.
struct Src {
  const uint32_t* lo = nullptr;
  const uint32_t* hi = nullptr;
  uint32_t and_m = ~0u;
  uint32_t xor_m = 0;
};

/// Reads lane `l` of a resolved source as kind `k`.
template <K k>
inline raw_t<k> rd(const Src& s, unsigned l) {
  if constexpr (is64(k)) {
    uint32_t h = (s.hi[l] & s.and_m) ^ s.xor_m;
    return s.lo[l] | uint64_t{h} << 32;
  } else {
    return (s.lo[l] & s.and_m) ^ s.xor_m;
  }
}

/// Per-instruction scratch: resolved sources, the lanes to write, and storage for broadcast
/// rows and for sources rewritten by SDWA selects or DPP permutes. Lives on the stack.
struct Frame {
  Src s[3];
  uint64_t wmask = 0;  ///< lanes the instruction writes (EXEC, wave size, DPP masks)
  uint32_t n = 0;      ///< lanes in the wave
  bool all = false;    ///< wmask covers every lane of the wave
  alignas(64) uint32_t buf[3][2][kWaveSize];
};

/// Resolves up to three sources of the given kinds from operand `codes` (usually inst.src),
/// applying abs/neg, SDWA source selects and the DPP permute of src0, and computes wmask.
void prepare(Wave& w, const isa::Inst& inst, Frame& fr, const K kinds[3], const uint16_t codes[3]);

/// Applies omod then clamp to a float result of kind `k` (bits in the low 64) under `mode`.
uint64_t out_mods(uint64_t r, K k, const isa::Inst& inst, uint32_t mode);

/// Places a 32-bit result into the destination dword per SDWA dst_sel/dst_unused.
uint32_t sdwa_dst(uint32_t r, uint32_t old, uint8_t sel, uint8_t unused);

/// Lower-case name of an op, for fault messages.
const char* op_text(isa::Op op);

/// Throws a fault naming the op, for encodings/ops this emulator rejects on purpose.
[[noreturn]] void unsupported(const Wave& w, const isa::Inst& inst, const ExecContext& ctx, const char* why);

/// The scalar mask (64-bit) an e64 form names in `code`, e.g. cndmask's or addc's src2.
inline uint64_t mask_operand(const Wave& w, const isa::Inst& inst, uint16_t code) {
  return scalar_source(w, inst, code, OperandType::B64);
}
/// Where a carry-out / div_scale flag goes: VOP3b sdst, or VCC for the VOP2 forms, which are
/// exactly the ops isa::traits marks kWritesVccE32.
inline uint16_t carry_dst(const isa::Inst& inst) {
  assert(inst.enc == isa::Encoding::VOP3 || isa::traits(inst.op).has(isa::kWritesVccE32));
  return inst.enc == isa::Encoding::VOP3 && inst.sdst != isa::opcode_field::kNone ? inst.sdst
                                                                                   : isa::opcode_field::kVccLo;
}
/// Writes a lane mask to a scalar destination pair (codes >= 128 are not writable: ignored).
inline void write_mask(Wave& w, uint16_t code, uint64_t m) {
  if (code < 127) w.set_s64(code, m);
}

namespace detail {
template <K D>
inline void store(uint32_t* dlo, uint32_t* dhi, unsigned l, raw_t<D> r) {
  if constexpr (is64(D)) {
    dlo[l] = uint32_t(r);
    dhi[l] = uint32_t(r >> 32);
  } else if constexpr (D == K::B16 || D == K::F16) {
    dlo[l] = r & 0xFFFF;  // gfx8 16-bit ops zero the upper half of the destination
  } else {
    dlo[l] = r;
  }
}

template <bool Lane, K A, K B, K C, class F>
inline auto call(F& f, const Frame& fr, unsigned l) {
  if constexpr (C != K::None) {
    if constexpr (Lane) return f(l, rd<A>(fr.s[0], l), rd<B>(fr.s[1], l), rd<C>(fr.s[2], l));
    else return f(rd<A>(fr.s[0], l), rd<B>(fr.s[1], l), rd<C>(fr.s[2], l));
  } else if constexpr (B != K::None) {
    if constexpr (Lane) return f(l, rd<A>(fr.s[0], l), rd<B>(fr.s[1], l));
    else return f(rd<A>(fr.s[0], l), rd<B>(fr.s[1], l));
  } else {
    if constexpr (Lane) return f(l, rd<A>(fr.s[0], l));
    else return f(rd<A>(fr.s[0], l));
  }
}

template <K D, K A, K B, K C, bool Lane, class F>
inline void run_impl(Wave& w, const isa::Inst& in, const uint16_t codes[3], F&& f) {
  Frame fr;
  static constexpr K kinds[3] = {A, B, C};
  prepare(w, in, fr, kinds, codes);
  uint32_t* dlo = w.vrow(vgpr_index(in.dst));
  uint32_t* dhi = is64(D) ? dlo + kWaveSize : nullptr;
  // gfx9 VOP3 op_sel bit 3: a 16-bit result goes to the high half, keeping the low one.
  const bool hi16 = (D == K::B16 || D == K::F16) && (in.op_sel & 8) && in.enc == isa::Encoding::VOP3;
  if (fr.all && !in.clamp && !in.omod && in.ext != isa::VopExt::SDWA && !hi16) {
    if constexpr (!Lane && !is64(D)) {
      // Every source is a full 64-lane row, so all 64 lanes are computed into a private row
      // (no aliasing with the sources, fixed trip count: the loop vectorises) and the lanes
      // the wave has are copied out.
      alignas(64) uint32_t out[kWaveSize];
      for (unsigned l = 0; l < kWaveSize; ++l) out[l] = uint32_t(call<false, A, B, C>(f, fr, l));
      if constexpr (D == K::B16 || D == K::F16)
        for (unsigned l = 0; l < kWaveSize; ++l) out[l] &= 0xFFFF;  // gfx8 16-bit ops zero the upper half
      std::memcpy(dlo, out, fr.n * sizeof(uint32_t));
    } else {
      for (unsigned l = 0; l < fr.n; ++l) store<D>(dlo, dhi, l, raw_t<D>(call<Lane, A, B, C>(f, fr, l)));
    }
    return;
  }
  const bool mods = (in.clamp || in.omod) && is_float(D);
  const bool sdwa = in.ext == isa::VopExt::SDWA && !is64(D);
  for (uint64_t m = fr.wmask; m; m &= m - 1) {
    unsigned l = unsigned(std::countr_zero(m));
    raw_t<D> r = raw_t<D>(call<Lane, A, B, C>(f, fr, l));
    if (mods) r = raw_t<D>(out_mods(r, D, in, w.mode));
    if constexpr (!is64(D)) {
      if (hi16) {
        dlo[l] = (dlo[l] & 0xFFFF) | (uint32_t(r) & 0xFFFF) << 16;
        continue;
      }
      if (sdwa) {
        if constexpr (D == K::B16 || D == K::F16) r &= 0xFFFF;
        dlo[l] = sdwa_dst(uint32_t(r), dlo[l], in.sdwa_dst_sel, in.sdwa_dst_unused);
        continue;
      }
    }
    store<D>(dlo, dhi, l, r);
  }
}
}  // namespace detail

/// Runs `f(a[, b[, c]])` -> raw result for every writable lane; sources come from inst.src.
template <K D, K A, K B = K::None, K C = K::None, class F>
inline void run(Wave& w, const isa::Inst& in, F&& f) {
  detail::run_impl<D, A, B, C, false>(w, in, in.src, f);
}
/// Like run, but `f(lane, a, ...)` also gets the lane index (for carry/flag outputs and inputs).
template <K D, K A, K B = K::None, K C = K::None, class F>
inline void run_lane(Wave& w, const isa::Inst& in, F&& f) {
  detail::run_impl<D, A, B, C, true>(w, in, in.src, f);
}
/// Like run, with explicit source operand codes (mac reads its dst, madmk/madak a literal).
template <K D, K A, K B = K::None, K C = K::None, class F>
inline void run_codes(Wave& w, const isa::Inst& in, const uint16_t codes[3], F&& f) {
  detail::run_impl<D, A, B, C, false>(w, in, codes, f);
}

/// Resolves VOP3P source `i` of `in` into rows: rows[0] its (first) dword per lane and, with
/// Wide, rows[1] the next register's. A scalar or constant source is broadcast into `buf`: its
/// 32-bit value as operand type `t`, and for Wide the next SGPR's (a constant's second dword is
/// zero). Every VOP3P handler resolves its sources here, so they agree on scalar operands.
template <bool Wide>
inline void packed_source(const Wave& w, const isa::Inst& in, int i, OperandType t, uint32_t (&buf)[2][kWaveSize],
                          const uint32_t* rows[2]) {
  const uint16_t code = in.src[i];
  if (is_vgpr(code)) {
    rows[0] = w.vrow(vgpr_index(code));
    rows[1] = Wide ? rows[0] + kWaveSize : rows[0];
    return;
  }
  const uint32_t lo = uint32_t(scalar_source(w, in, code, t));
  const uint32_t hi = Wide && code < 127 ? w.s[code + 1] : 0;
  for (int l = 0; l < kWaveSize; ++l) buf[0][l] = lo, buf[1][l] = hi;
  rows[0] = buf[0];
  rows[1] = Wide ? buf[1] : buf[0];
}

/// VOP3P packed math over N sources. Lane l's source i is one dword of two 16-bit elements or,
/// with Wide, a dword pair of two 32-bit elements (gfx90a's packed f32). For result element h,
/// source i's element is chosen by op_sel (h = 0) or op_sel_hi (h = 1) and, when `sign` is the
/// element's sign bit (floats), negated by neg_lo (h = 0) or neg_hi (h = 1). `f(e0, e1, e2)`
/// maps the elements to one result element. A scalar or constant source is its 32-bit value
/// (the element in the low half) with a zero high half or dword, so code that wants a constant
/// in both elements clears op_sel_hi, as LLVM does.
template <bool Wide, int N, class F>
inline void run_packed(Wave& w, const isa::Inst& in, OperandType t, uint32_t sign, F&& f) {
  alignas(64) uint32_t buf[N][2][kWaveSize];
  const uint32_t* rows[N][2];
  for (int i = 0; i < N; ++i) packed_source<Wide>(w, in, i, t, buf[i], rows[i]);
  const uint32_t n = w.lane_count > kWaveSize ? kWaveSize : w.lane_count;
  const uint64_t wmask = w.exec() & (n >= 64 ? ~0ull : (1ull << n) - 1);
  uint32_t* d0 = w.vrow(vgpr_index(in.dst));
  uint32_t* d1 = Wide ? d0 + kWaveSize : d0;
  for (uint64_t m = wmask; m; m &= m - 1) {
    const unsigned l = unsigned(std::countr_zero(m));
    uint32_t out[2];
    for (int h = 0; h < 2; ++h) {
      uint32_t e[3] = {0, 0, 0};
      const uint8_t sel = h ? in.op_sel_hi : in.op_sel, neg = h ? in.neg_hi : in.neg;
      for (int i = 0; i < N; ++i) {
        const unsigned half = (sel >> i) & 1;
        uint32_t x = Wide ? rows[i][half][l] : (rows[i][0][l] >> (16 * half)) & 0xFFFF;
        if ((neg >> i) & 1) x ^= sign;
        e[i] = x;
      }
      out[h] = uint32_t(f(e[0], e[1], e[2]));
    }
    if constexpr (Wide) {
      d0[l] = out[0];
      d1[l] = out[1];
    } else {
      d0[l] = (out[0] & 0xFFFF) | out[1] << 16;
    }
  }
}

// Family registration (each in its own valu_*.cpp); register_valu() calls them all.
void register_valu_int(HandlerTable& t);
void register_valu_f32(HandlerTable& t);
void register_valu_f64(HandlerTable& t);
void register_valu_f16(HandlerTable& t);
void register_valu_convert(HandlerTable& t);
void register_valu_move(HandlerTable& t);
void register_valu_mfma(HandlerTable& t);  ///< gfx942 matrix cores (valu_mfma.cpp)

}  // namespace strobe::emu::valu
