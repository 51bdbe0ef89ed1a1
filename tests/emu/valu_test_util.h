// Shared scaffolding for the vector ALU tests: a wave with random registers, hand-built Insts
// for each encoding, and a handler table holding only the VALU and VOPC families.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>

#include <gtest/gtest.h>

#include "emu/semantics.h"
#include "emu/wave.h"
#include "isa/inst.h"

namespace strobe::emu::test {

using isa::Encoding;
using isa::Inst;
using isa::Op;
using isa::VopExt;
namespace of = isa::opcode_field;

/// Operand code of VGPR n.
inline uint16_t V(unsigned n) { return uint16_t(of::kVgprFirst + n); }

/// Handler table with just this family's registrations (independent of the other families).
inline const HandlerTable& valu_table() {
  static const HandlerTable t = [] {
    HandlerTable h;
    register_valu(h);
    register_vopc(h);
    return h;
  }();
  return t;
}

/// Executes `in` on `w` through the table.
inline void exec(Wave& w, const Inst& in) {
  ExecContext ctx;
  Handler h = valu_table().fn[size_t(in.op)];
  ASSERT_NE(h, nullptr) << "no handler for op " << int(in.op);
  h(w, in, ctx);
}

/// A full 64-lane wave with 32 VGPRs, all lanes active, MODE with all denormals allowed.
inline Wave make_wave(uint32_t vgprs = 32) {
  Wave w;
  w.num_vgprs = vgprs;
  w.v.assign(size_t(vgprs) * kWaveSize, 0);
  w.set_exec(~0ull);
  w.mode = 0xF0;  // round-to-nearest-even, f32/f64/f16 denormals enabled
  return w;
}

/// VOP3 (e64) instruction with up to three sources.
inline Inst vop3(Op op, uint16_t dst, uint16_t s0, uint16_t s1 = of::kNone, uint16_t s2 = of::kNone) {
  Inst in;
  in.op = op;
  in.enc = Encoding::VOP3;
  in.size = 8;
  in.dst = dst;
  in.src[0] = s0, in.src[1] = s1, in.src[2] = s2;
  return in;
}
/// VOP2/VOP1 (e32) instruction.
inline Inst vop2(Op op, uint16_t dst, uint16_t s0, uint16_t s1 = of::kNone) {
  Inst in = vop3(op, dst, s0, s1);
  in.enc = s1 == of::kNone ? Encoding::VOP1 : Encoding::VOP2;
  in.size = 4;
  return in;
}
/// VOPC (e32) compare of two sources, writing VCC.
inline Inst vopc(Op op, uint16_t s0, uint16_t s1) {
  Inst in = vop3(op, of::kNone, s0, s1);
  in.enc = Encoding::VOPC;
  in.size = 4;
  return in;
}

inline uint32_t fbits(float f) { return std::bit_cast<uint32_t>(f); }
inline float bitsf(uint32_t b) { return std::bit_cast<float>(b); }
inline uint64_t dbits(double d) { return std::bit_cast<uint64_t>(d); }
inline double bitsd(uint64_t b) { return std::bit_cast<double>(b); }

/// Random f32 bit patterns biased toward interesting values (specials, denormals, near 1).
inline uint32_t rand_f32(std::mt19937_64& g) {
  static const uint32_t kSpecial[] = {0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7FA00000,
                                      0x00000001, 0x807FFFFF, 0x00800000, 0x3F800000, 0xBF800000, 0x7F7FFFFF,
                                      0x3F000000, 0x4B000000, 0xCB000001};
  switch (g() % 8) {
    case 0: return kSpecial[g() % (sizeof kSpecial / sizeof kSpecial[0])];
    case 1: return uint32_t(g()) & 0x807FFFFF;  // denormal
    case 2: return (uint32_t(g()) & 0x83FFFFFF) | 0x3C000000;  // moderate magnitudes
    default: return uint32_t(g());
  }
}
inline uint64_t rand_f64(std::mt19937_64& g) {
  static const uint64_t kSpecial[] = {0, 0x8000000000000000ull, 0x7FF0000000000000ull, 0xFFF0000000000000ull,
                                      0x7FF8000000000000ull, 1, 0x0010000000000000ull, 0x3FF0000000000000ull};
  switch (g() % 8) {
    case 0: return kSpecial[g() % (sizeof kSpecial / sizeof kSpecial[0])];
    case 1: return g() & 0x800FFFFFFFFFFFFFull;
    case 2: return (g() & 0x801FFFFFFFFFFFFFull) | 0x3FE0000000000000ull;
    default: return g();
  }
}

/// Fills VGPR `reg` (and reg+1 when wide) with values from `gen`.
template <class Gen>
inline void fill(Wave& w, unsigned reg, Gen gen, bool wide = false) {
  for (int l = 0; l < kWaveSize; ++l) {
    uint64_t x = gen();
    w.vrow(reg)[l] = uint32_t(x);
    if (wide) w.vrow(reg + 1)[l] = uint32_t(x >> 32);
  }
}
inline uint64_t get64(const Wave& w, unsigned reg, int l) { return w.vrow(reg)[l] | uint64_t(w.vrow(reg + 1)[l]) << 32; }
inline void set64(Wave& w, unsigned reg, int l, uint64_t x) {
  w.vrow(reg)[l] = uint32_t(x);
  w.vrow(reg + 1)[l] = uint32_t(x >> 32);
}

/// True when two f32 bit patterns are the same value, counting any two NaNs as equal.
inline bool same32(uint32_t a, uint32_t b) {
  return a == b || (std::isnan(bitsf(a)) && std::isnan(bitsf(b)));
}
inline bool same64(uint64_t a, uint64_t b) {
  return a == b || (std::isnan(bitsd(a)) && std::isnan(bitsd(b)));
}

}  // namespace strobe::emu::test
