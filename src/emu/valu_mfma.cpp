// gfx942's matrix-core instructions: every v_mfma_* and v_smfmac_* of CDNA3.
//
// An MFMA is one wave-wide operation D = A x B + C over `blocks` independent M x K by K x N
// products, with the matrices spread across the wave's lanes and registers. The placement is
// the one AMD's Matrix Instruction Calculator publishes for gfx9 (github.com/ROCm/
// amd_matrix_instruction_calculator, InstCalcGfx9): tests/emu/mfma_test.cpp checks every
// instruction, and every CBSZ/ABID/BLGP choice, against that tool's own tables.
//
// The handler gathers the operands into plain matrices, multiplies, and scatters D, so C and D
// may overlap. Numerics (the ISA guide does not define the summation order or its precision):
// - float results: every product is exact in double (inputs of at most 24 significant bits),
//   the products are added to C in k order in double, and the sum is rounded once to f32 (round
//   to nearest even). Denormal inputs are kept; MODE's rounding and flush bits do not apply.
// - XF32 inputs are rounded to 10 fraction bits (nearest even) first, the TF32 format.
// - f64: a chain of fused multiply-adds from C, in k order.
// - i8: exact, with the 32-bit accumulator wrapping.
// The matrix core works on the whole wave: EXEC does not mask lanes.
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <utility>

#include "emu/float_util.h"
#include "emu/semantics.h"
#include "emu/valu_exec.h"
#include "emu/wave.h"
#include "isa/inst.h"
#include "isa/matrix_ops.h"

namespace strobe::emu::valu {
namespace {


using isa::MatrixType;
using Elt = isa::MatrixType;

constexpr int bits_of(Elt e) {
  switch (e) {
    case Elt::F64: return 64;
    case Elt::F32: case Elt::XF32: case Elt::I32: return 32;
    case Elt::F16: case Elt::BF16: return 16;
    default: return 8;
  }
}

// The largest matrices any shape gathers (v_mfma_f32_32x32x1_2b_f32's D, the sparse 32x32x32's A).
constexpr int kMaxElems = 2048;

/// Where an input element sits: its lane and its storage slot, as the calculator's gfx9 input
/// layout puts it. `outer` is M for A (N for B); `kk` the inner dimension as stored.
struct InPos {
  int lane, slot;
};
constexpr InPos in_pos(int outer, int kk, int blocks, int i, int k, int b) {
  const int groups = 64 / (outer * blocks);  // lane groups that split the inner dimension
  const int per_lane = kk / groups;          // elements of one row in one lane's registers
  return {b * outer + (k / per_lane) * outer * blocks + i, k % per_lane};
}
/// Elements of one row that one lane holds (the number of slots).
constexpr int slots_per_lane(int outer, int kk, int blocks) { return kk / (64 / (outer * blocks)); }

/// Raw bits of storage slot `slot` of lane `lane` from an operand starting at `rows`.
inline uint64_t slot_bits(const uint32_t* rows, int bits, int lane, int slot) {
  switch (bits) {
    case 64: return rows[(2 * slot) * kWaveSize + lane] | uint64_t{rows[(2 * slot + 1) * kWaveSize + lane]} << 32;
    case 32: return rows[slot * kWaveSize + lane];
    case 16: return (rows[(slot / 2) * kWaveSize + lane] >> (16 * (slot % 2))) & 0xFFFF;
    default: return (rows[(slot / 4) * kWaveSize + lane] >> (8 * (slot % 4))) & 0xFF;
  }
}

/// TF32: an f32 rounded to 10 fraction bits, nearest even (NaN and infinity kept).
inline double xf32(uint32_t x) {
  if ((x & 0x7F800000u) != 0x7F800000u) {
    const uint32_t lsb = (x >> 13) & 1;
    x = (x + 0xFFFu + lsb) & ~0x1FFFu;
  }
  return double(fp::f32(x));
}

inline double value(Elt e, uint64_t raw) {
  switch (e) {
    case Elt::F64: return fp::f64(raw);
    case Elt::F32: return double(fp::f32(uint32_t(raw)));
    case Elt::XF32: return xf32(uint32_t(raw));
    case Elt::F16: return fp::h2d(uint32_t(raw));
    case Elt::BF16: return fp::bf2d(uint32_t(raw));
    case Elt::I8: return double(int8_t(raw));
    case Elt::I32: return double(int32_t(raw));
    case Elt::FP8: return fp::fp8_to_d(uint32_t(raw));
    case Elt::BF8: return fp::bf8_to_d(uint32_t(raw));
  }
  return 0;
}

/// The calculator's BLGP lane patterns: the lane whose B value logical lane `l` reads.
inline int blgp_lane(int l, int blgp) {
  switch (blgp) {
    case 1: return l % 32;                                   // first 32 lanes broadcast
    case 2: return l < 32 ? l + 32 : l;                      // second 32 lanes broadcast
    case 3: return (l + 16) % 64;                            // rotate down by 16
    case 4: return l % 16;                                   // a 16-lane group broadcast
    case 5: return 16 + l % 16;
    case 6: return 32 + l % 16;
    case 7: return 48 + l % 16;
    default: return l;
  }
}

/// Rows an operand of `bits`-wide elements with `slots` slots per lane spans.
constexpr uint32_t rows_for(int bits, int slots) { return uint32_t((slots * bits + 31) / 32); }

/// The register rows of a matrix operand (VGPR or AccVGPR), checked against the wave's file.
uint32_t* operand_rows(Wave& w, const isa::Inst& in, ExecContext& ctx, uint16_t code, uint32_t rows,
                             const char* what) {
  const uint32_t first = vgpr_index(code), have = uint32_t(w.v.size() / kWaveSize);
  if (first + rows > have)
    fault(w, in, ctx, std::string("matrix operand ") + what + " runs past the wave's " + std::to_string(have) +
                          " vector registers");
  return w.vrow(first);
}

/// The densified operands, one set per host thread (kept off the stack: 48 KiB).
struct Scratch {
  alignas(64) double a[kMaxElems], b[kMaxElems], c[kMaxElems];
};
Scratch& scratch() {
  static thread_local Scratch s;
  return s;
}

template <size_t I>
void mfma(Wave& w, const isa::Inst& in, ExecContext& ctx) {
  static constexpr const isa::MatrixShape& S = isa::kMatrixShapes[I];
  constexpr int M = S.m, N = S.n, K = S.k, B = S.blocks;
  constexpr int abits = bits_of(S.a), bbits = bits_of(S.b), obits = S.acc == MatrixType::F64 ? 64 : 32;
  constexpr int kstored = S.sparse ? K / 2 : K;  // A's inner dimension as held in registers
  constexpr int a_slots = slots_per_lane(M, kstored, B), b_slots = slots_per_lane(N, K, B);
  static_assert(B * M * K <= kMaxElems && B * K * N <= kMaxElems && B * M * N <= kMaxElems);
  for (int i = 0; i < 2; ++i)
    if (!is_vgpr(in.src[i])) unsupported(w, in, ctx, "an A or B matrix that is not in vector registers");

  const bool f64 = S.acc == MatrixType::F64;
  const double neg_a = f64 && (in.blgp & 1) ? -1 : 1, neg_b = f64 && (in.blgp & 2) ? -1 : 1;
  const double neg_c = f64 && (in.blgp & 4) ? -1 : 1;
  const int blgp = f64 ? 0 : in.blgp;

  // A, densified: A[b][i][k]. CBSZ/ABID make one block of A feed 2^cbsz blocks' products.
  Scratch& sc = scratch();
  double *A = sc.a, *Bm = sc.b, *C = sc.c;
  const uint32_t* ar = operand_rows(w, in, ctx, in.src[0], rows_for(abits, a_slots), "A");
  const uint32_t* br = operand_rows(w, in, ctx, in.src[1], rows_for(bbits, b_slots), "B");
  if constexpr (S.sparse) {
    // 4:2 sparsity: each group of four k holds two stored values; the group's 4-bit index
    // (two 2-bit positions, the first stored value's in the low bits) sits at bit 4*(slot/2)
    // of the index VGPR, in set ABID (8 bits a set for 16-bit A, 16 for 8-bit) while CBSZ is 0.
    const uint32_t* idx = operand_rows(w, in, ctx, in.src[2], 1, "index");
    const int set_shift = in.cbsz == 0 ? in.abid * (128 / abits) : 0;
    std::fill(A, A + M * K, 0.0);
    for (int i = 0; i < M; ++i)
      for (int s = 0; s < kstored; ++s) {
        const InPos p = in_pos(M, kstored, 1, i, s, 0);
        const uint32_t nib = (idx[p.lane] >> (set_shift + 4 * (p.slot / 2))) & 0xF;
        const int at = 4 * (s / 2) + int((nib >> (2 * (s % 2))) & 3);
        A[i * K + at] += value(S.a, slot_bits(ar, abits, p.lane, p.slot));
      }
  } else {
    const int cbsz = in.cbsz, abid = in.abid;
    if (B > 1 && ((1 << cbsz) > B || abid >= (1 << cbsz)))
      unsupported(w, in, ctx, "CBSZ/ABID outside the instruction's blocks");
    for (int b = 0; b < B; ++b) {
      const int src_b = B > 1 ? (b >> cbsz << cbsz) + abid : b;
      for (int i = 0; i < M; ++i)
        for (int k = 0; k < K; ++k) {
          const InPos p = in_pos(M, K, B, i, k, src_b);
          A[(b * M + i) * K + k] = neg_a * value(S.a, slot_bits(ar, abits, p.lane, p.slot));
        }
    }
  }
  for (int b = 0; b < B; ++b)
    for (int k = 0; k < K; ++k)
      for (int j = 0; j < N; ++j) {
        const InPos p = in_pos(N, K, B, j, k, b);
        Bm[(b * K + k) * N + j] = neg_b * value(S.b, slot_bits(br, bbits, blgp_lane(p.lane, blgp), p.slot));
      }

  // C and D share one layout: 4-row tiles of N lanes (single rows for 64-bit results).
  constexpr int height = obits == 64 ? 1 : 4, per_row = 64 / N;
  constexpr int bpr = (64 + (N * M / height) - 1) / (N * M / height);
  constexpr uint32_t d_rows = uint32_t(B * M * N / 64 * (obits / 32));
  auto out_pos = [&](int b, int i, int j) {
    const int row = b * (M * N / 64) + (i / (height * per_row)) * height + i % height;
    const int lane = (b % bpr) * N + ((i / height) % per_row) * bpr * N + j;
    return InPos{lane, row};
  };
  const uint16_t csrc = S.sparse ? in.dst : in.src[2];
  if (is_vgpr(csrc)) {
    const uint32_t* cr = operand_rows(w, in, ctx, csrc, d_rows, "C");
    for (int b = 0; b < B; ++b)
      for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) {
          const InPos p = out_pos(b, i, j);
          const uint64_t raw = slot_bits(cr, obits, p.lane, p.slot);
          C[(b * M + i) * N + j] = S.acc == MatrixType::F64 ? neg_c * fp::f64(raw)
                                 : S.acc == MatrixType::I32 ? double(int32_t(raw)) : double(fp::f32(uint32_t(raw)));
        }
  } else {
    const OperandType t = S.acc == MatrixType::F64 ? OperandType::F64 : S.acc == MatrixType::I32 ? OperandType::B32 : OperandType::F32;
    const uint64_t raw = scalar_source(w, in, csrc, t);
    const double c = S.acc == MatrixType::F64 ? neg_c * fp::f64(raw)
                   : S.acc == MatrixType::I32 ? double(int32_t(raw)) : double(fp::f32(uint32_t(raw)));
    std::fill(C, C + B * M * N, c);
  }

  uint32_t* dr = operand_rows(w, in, ctx, in.dst, d_rows, "D");
  for (int b = 0; b < B; ++b)
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        const double* a = &A[(b * M + i) * K];
        const double* bb = &Bm[b * K * N + j];
        const double c = C[(b * M + i) * N + j];
        const InPos p = out_pos(b, i, j);
        if constexpr (S.acc == MatrixType::F64) {
          double d = c;
          for (int k = 0; k < K; ++k) d = std::fma(a[k], bb[k * N], d);
          const uint64_t r = fp::b64(d);
          dr[(2 * p.slot) * kWaveSize + p.lane] = uint32_t(r);
          dr[(2 * p.slot + 1) * kWaveSize + p.lane] = uint32_t(r >> 32);
        } else if constexpr (S.acc == MatrixType::I32) {
          int64_t d = 0;
          for (int k = 0; k < K; ++k) d += int64_t(a[k]) * int64_t(bb[k * N]);
          dr[p.slot * kWaveSize + p.lane] = uint32_t(int64_t(c) + d);
        } else {
          double d = c;
          for (int k = 0; k < K; ++k) d += a[k] * bb[k * N];
          dr[p.slot * kWaveSize + p.lane] = fp::b32(float(d));
        }
      }
}

}  // namespace

template <size_t... I>
void register_all(HandlerTable& t, std::index_sequence<I...>) {
  (t.set(isa::kMatrixShapes[I].op, &mfma<I>), ...);
}

void register_valu_mfma(HandlerTable& t) {
  register_all(t, std::make_index_sequence<std::size(isa::kMatrixShapes)>());
}

}  // namespace strobe::emu::valu
