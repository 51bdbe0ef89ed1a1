// gfx942's matrix-core instructions as data: the shape, element types and matrix-pipe cycles of
// every v_mfma_* and v_smfmac_*, one table that the emulator (the arithmetic) and the timing
// model (the matrix pipe) both read.
//
// Shapes and types are the mnemonics'; the cycles are the "Execution cycles" of AMD's Matrix
// Instruction Calculator for CDNA3 (github.com/ROCm/amd_matrix_instruction_calculator), the
// cycles one instruction holds a SIMD's matrix core: a 16x16x16 f16 MFMA (8,192 FLOPs) every 16
// cycles on each of a CU's 4 SIMDs is the 2,048 FLOPs/CU/cycle behind MI300X's published dense
// FP16 peak.
#pragma once

#include <cstdint>

#include "isa/inst.h"

namespace strobe::isa {

/// An element type of a matrix operand.
enum class MatrixType : uint8_t { F32, XF32, F16, BF16, I8, F64, FP8, BF8, I32 };

/// One matrix instruction: D (blocks x m x n, type `acc`) = A (m x k, type `a`) x B (k x n,
/// type `b`) + C. Sparse (SMFMAC): A is 4:2 compressed, src2 holds its indices, C is D.
struct MatrixShape {
  Op op;
  uint8_t m, n, k, blocks;
  MatrixType a, b, acc;
  bool sparse;
  uint8_t cycles;  ///< matrix-pipe cycles (CDNA3)
};

// X(op, m, n, k, blocks, A, B, accumulator, sparse, cycles)
#define STROBE_MATRIX_OPS(X)                                                  \
  X(V_MFMA_F32_16X16X8_XF32, 16, 16, 8, 1, XF32, XF32, F32, false, 16)        \
  X(V_MFMA_F32_32X32X4_XF32, 32, 32, 4, 1, XF32, XF32, F32, false, 32)        \
  X(V_MFMA_F32_32X32X1_2B_F32, 32, 32, 1, 2, F32, F32, F32, false, 64)        \
  X(V_MFMA_F32_16X16X1_4B_F32, 16, 16, 1, 4, F32, F32, F32, false, 32)        \
  X(V_MFMA_F32_4X4X1_16B_F32, 4, 4, 1, 16, F32, F32, F32, false, 8)           \
  X(V_MFMA_F32_32X32X2_F32, 32, 32, 2, 1, F32, F32, F32, false, 64)           \
  X(V_MFMA_F32_16X16X4_F32, 16, 16, 4, 1, F32, F32, F32, false, 32)           \
  X(V_MFMA_F32_32X32X4_2B_F16, 32, 32, 4, 2, F16, F16, F32, false, 64)        \
  X(V_MFMA_F32_16X16X4_4B_F16, 16, 16, 4, 4, F16, F16, F32, false, 32)        \
  X(V_MFMA_F32_4X4X4_16B_F16, 4, 4, 4, 16, F16, F16, F32, false, 8)           \
  X(V_MFMA_F32_32X32X8_F16, 32, 32, 8, 1, F16, F16, F32, false, 32)           \
  X(V_MFMA_F32_16X16X16_F16, 16, 16, 16, 1, F16, F16, F32, false, 16)         \
  X(V_MFMA_I32_32X32X4_2B_I8, 32, 32, 4, 2, I8, I8, I32, false, 64)           \
  X(V_MFMA_I32_16X16X4_4B_I8, 16, 16, 4, 4, I8, I8, I32, false, 32)           \
  X(V_MFMA_I32_4X4X4_16B_I8, 4, 4, 4, 16, I8, I8, I32, false, 8)              \
  X(V_MFMA_I32_32X32X16_I8, 32, 32, 16, 1, I8, I8, I32, false, 32)            \
  X(V_MFMA_I32_16X16X32_I8, 16, 16, 32, 1, I8, I8, I32, false, 16)            \
  X(V_MFMA_F32_32X32X4_2B_BF16, 32, 32, 4, 2, BF16, BF16, F32, false, 64)     \
  X(V_MFMA_F32_16X16X4_4B_BF16, 16, 16, 4, 4, BF16, BF16, F32, false, 32)     \
  X(V_MFMA_F32_4X4X4_16B_BF16, 4, 4, 4, 16, BF16, BF16, F32, false, 8)        \
  X(V_MFMA_F32_32X32X8_BF16, 32, 32, 8, 1, BF16, BF16, F32, false, 32)        \
  X(V_MFMA_F32_16X16X16_BF16, 16, 16, 16, 1, BF16, BF16, F32, false, 16)      \
  X(V_SMFMAC_F32_16X16X32_F16, 16, 16, 32, 1, F16, F16, F32, true, 16)        \
  X(V_SMFMAC_F32_32X32X16_F16, 32, 32, 16, 1, F16, F16, F32, true, 32)        \
  X(V_SMFMAC_F32_16X16X32_BF16, 16, 16, 32, 1, BF16, BF16, F32, true, 16)     \
  X(V_SMFMAC_F32_32X32X16_BF16, 32, 32, 16, 1, BF16, BF16, F32, true, 32)     \
  X(V_SMFMAC_I32_16X16X64_I8, 16, 16, 64, 1, I8, I8, I32, true, 16)           \
  X(V_SMFMAC_I32_32X32X32_I8, 32, 32, 32, 1, I8, I8, I32, true, 32)           \
  X(V_MFMA_F64_16X16X4_F64, 16, 16, 4, 1, F64, F64, F64, false, 32)           \
  X(V_MFMA_F64_4X4X4_4B_F64, 4, 4, 4, 4, F64, F64, F64, false, 16)            \
  X(V_MFMA_F32_16X16X32_BF8_BF8, 16, 16, 32, 1, BF8, BF8, F32, false, 16)     \
  X(V_MFMA_F32_16X16X32_BF8_FP8, 16, 16, 32, 1, BF8, FP8, F32, false, 16)     \
  X(V_MFMA_F32_16X16X32_FP8_BF8, 16, 16, 32, 1, FP8, BF8, F32, false, 16)     \
  X(V_MFMA_F32_16X16X32_FP8_FP8, 16, 16, 32, 1, FP8, FP8, F32, false, 16)     \
  X(V_MFMA_F32_32X32X16_BF8_BF8, 32, 32, 16, 1, BF8, BF8, F32, false, 32)     \
  X(V_MFMA_F32_32X32X16_BF8_FP8, 32, 32, 16, 1, BF8, FP8, F32, false, 32)     \
  X(V_MFMA_F32_32X32X16_FP8_BF8, 32, 32, 16, 1, FP8, BF8, F32, false, 32)     \
  X(V_MFMA_F32_32X32X16_FP8_FP8, 32, 32, 16, 1, FP8, FP8, F32, false, 32)     \
  X(V_SMFMAC_F32_16X16X64_BF8_BF8, 16, 16, 64, 1, BF8, BF8, F32, true, 16)    \
  X(V_SMFMAC_F32_16X16X64_BF8_FP8, 16, 16, 64, 1, BF8, FP8, F32, true, 16)    \
  X(V_SMFMAC_F32_16X16X64_FP8_BF8, 16, 16, 64, 1, FP8, BF8, F32, true, 16)    \
  X(V_SMFMAC_F32_16X16X64_FP8_FP8, 16, 16, 64, 1, FP8, FP8, F32, true, 16)    \
  X(V_SMFMAC_F32_32X32X32_BF8_BF8, 32, 32, 32, 1, BF8, BF8, F32, true, 32)    \
  X(V_SMFMAC_F32_32X32X32_BF8_FP8, 32, 32, 32, 1, BF8, FP8, F32, true, 32)    \
  X(V_SMFMAC_F32_32X32X32_FP8_BF8, 32, 32, 32, 1, FP8, BF8, F32, true, 32)    \
  X(V_SMFMAC_F32_32X32X32_FP8_FP8, 32, 32, 32, 1, FP8, FP8, F32, true, 32)

#define STROBE_MATRIX_SHAPE_ROW(op, m, n, kk, blocks, ta, tb, acc, sparse, cycles) \
  MatrixShape{Op::op, m, n, kk, blocks, MatrixType::ta, MatrixType::tb, MatrixType::acc, sparse, cycles},
/// Every matrix instruction of gfx942.
inline constexpr MatrixShape kMatrixShapes[] = {STROBE_MATRIX_OPS(STROBE_MATRIX_SHAPE_ROW)};
#undef STROBE_MATRIX_SHAPE_ROW

/// The shape of matrix instruction `op`; null for every other op.
constexpr const MatrixShape* matrix_shape(Op op) {
  for (const MatrixShape& s : kMatrixShapes)
    if (s.op == op) return &s;
  return nullptr;
}

/// Multiply-adds one instruction performs (FLOPs are twice this); a sparse A's zeros count.
constexpr uint64_t matrix_macs(const MatrixShape& s) { return uint64_t(s.blocks) * s.m * s.n * s.k; }

}  // namespace strobe::isa
