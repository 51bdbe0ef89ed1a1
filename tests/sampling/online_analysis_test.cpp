// Photon's online analysis on constructed warps with known answers: warp types, the
// basic-block distribution and the GPU BBV.
#include "sampling/photon/online_analysis.h"

#include <gtest/gtest.h>

#include <cmath>

namespace strobe::sampling {
namespace {

// A 10-instruction program with blocks starting at 0 (4 long), 4 (3 long) and 7 (3 long).
std::vector<uint32_t> lengths() {
  std::vector<uint32_t> l(10, 0);
  l[0] = 4, l[4] = 3, l[7] = 3;
  return l;
}

TEST(WarpTypes, WarpsWithTheSameBlockCountsFormOneType) {
  const std::vector<WarpBlocks> warps = {{{0, 1}, {4, 2}}, {{0, 1}, {4, 2}}, {{0, 1}, {7, 1}}};
  const OnlineAnalysis a = build_analysis(warps, lengths(), 1, 16);
  ASSERT_EQ(a.types.size(), 2u);
  EXPECT_EQ(a.types[0].warps, 2u);  // most common first
  EXPECT_EQ(a.types[0].instructions, 4u + 2 * 3);
  EXPECT_EQ(a.types[1].warps, 1u);
  EXPECT_EQ(a.types[1].instructions, 7u);
  EXPECT_DOUBLE_EQ(a.dominant_share(), 2.0 / 3.0);
  EXPECT_EQ(a.sampled_warps, 3u);
  EXPECT_EQ(a.sampled_instructions, 10u + 10 + 7);
}

TEST(WarpTypes, SameBlocksDifferentTripCountsAreDifferentTypes) {
  const std::vector<WarpBlocks> warps = {{{0, 1}, {4, 2}}, {{0, 1}, {4, 3}}};
  EXPECT_EQ(build_analysis(warps, lengths(), 1, 16).types.size(), 2u);
}

TEST(WarpTypes, TypeKeyMatchesTheSumOfBlockKeys) {
  // The timing model's observer accumulates block_key() per executed block; the analysis's
  // type key must be the same value for the same multiset.
  const std::vector<WarpBlocks> warps = {{{0, 1}, {4, 2}}};
  const OnlineAnalysis a = build_analysis(warps, lengths(), 1, 16);
  EXPECT_EQ(a.types[0].key, block_key(0, 0) + block_key(4, 0) + block_key(4, 0));
}

TEST(WarpTypes, KeysAndBbvDoNotDependOnWhereTheKernelIsPlaced) {
  // The same kernel entered at index 100 of a code object's program (callees before it).
  const std::vector<WarpBlocks> at0 = {{{0, 1}, {4, 2}}, {{0, 1}, {7, 1}}};
  const std::vector<WarpBlocks> at100 = {{{100, 1}, {104, 2}}, {{100, 1}, {107, 1}}};
  std::vector<uint32_t> shifted(110, 0);
  shifted[100] = 4, shifted[104] = 3, shifted[107] = 3;
  const OnlineAnalysis a = build_analysis(at0, lengths(), 1, 16);
  const OnlineAnalysis b = build_analysis(at100, shifted, 1, 16, 100);
  ASSERT_EQ(a.types.size(), b.types.size());
  for (size_t t = 0; t < a.types.size(); ++t) EXPECT_EQ(a.types[t].key, b.types[t].key);
  EXPECT_EQ(a.gpu_bbv, b.gpu_bbv);
}

TEST(WarpImbalance, IsTheLongestSampledWarpOverTheMean) {
  // Instructions per warp: 10, 10, 7 and one running block 4 ten times (34); the mean is 61 / 4.
  const std::vector<WarpBlocks> even = {{{0, 1}, {4, 2}}, {{0, 1}, {4, 2}}};
  EXPECT_DOUBLE_EQ(build_analysis(even, lengths(), 1, 16).warp_imbalance(), 1.0);
  const std::vector<WarpBlocks> warps = {{{0, 1}, {4, 2}}, {{0, 1}, {4, 2}}, {{0, 1}, {7, 1}}, {{0, 1}, {4, 10}}};
  EXPECT_DOUBLE_EQ(build_analysis(warps, lengths(), 1, 16).warp_imbalance(), 34.0 / (61.0 / 4));
  EXPECT_DOUBLE_EQ(OnlineAnalysis{}.warp_imbalance(), 1.0);
}

TEST(BasicBlockDistribution, SharesAreInstructionWeightedAndSumToOne) {
  const std::vector<WarpBlocks> warps = {{{0, 1}, {4, 2}}, {{0, 1}, {7, 1}}};
  const OnlineAnalysis a = build_analysis(warps, lengths(), 1, 16);
  // 17 instructions: block 0 ran twice (8), block 4 twice (6), block 7 once (3).
  EXPECT_DOUBLE_EQ(a.bb_share[0], 8.0 / 17);
  EXPECT_DOUBLE_EQ(a.bb_share[4], 6.0 / 17);
  EXPECT_DOUBLE_EQ(a.bb_share[7], 3.0 / 17);
  EXPECT_DOUBLE_EQ(a.bb_share[1], 0.0);
  EXPECT_DOUBLE_EQ(a.mean_bb_count[4], 1.0);
  EXPECT_DOUBLE_EQ(a.mean_bb_count[0], 1.0);
  EXPECT_DOUBLE_EQ(a.instructions_per_warp(), 8.5);
}

TEST(GpuBbv, HasOneProjectionPerTypeWeightedByWarpShare) {
  const std::vector<WarpBlocks> warps = {{{0, 1}, {4, 2}}, {{0, 1}, {4, 2}}, {{0, 1}, {4, 2}}, {{7, 1}}};
  const OnlineAnalysis a = build_analysis(warps, lengths(), 7, 8);
  ASSERT_EQ(a.gpu_bbv.size(), 2u * 8);
  for (size_t k = 0; k < 8; ++k) {
    EXPECT_DOUBLE_EQ(a.gpu_bbv[k], 0.75 * a.types[0].projected[k]);
    EXPECT_DOUBLE_EQ(a.gpu_bbv[8 + k], 0.25 * a.types[1].projected[k]);
  }
}

TEST(GpuBbv, ProjectionIsLinearInTheBlockFractions) {
  // A warp running only block 7 projects to block 7's direction; one running blocks 0 and 7
  // equally often per instruction is the fraction-weighted sum.
  auto proj = [](const WarpBlocks& w) { return build_analysis({w}, lengths(), 3, 8).types[0].projected; };
  const auto p7 = proj({{7, 1}}), p4 = proj({{4, 1}}), mix = proj({{4, 1}, {7, 1}});
  for (size_t k = 0; k < 8; ++k) {
    EXPECT_GE(p7[k], -1.0);
    EXPECT_LE(p7[k], 1.0);
    EXPECT_NEAR(mix[k], 0.5 * p4[k] + 0.5 * p7[k], 1e-12);
  }
  // Scaling trip counts keeps the fractions, hence the projection.
  const auto twice = proj({{4, 2}, {7, 2}});
  for (size_t k = 0; k < 8; ++k) EXPECT_NEAR(twice[k], mix[k], 1e-12);
}

TEST(GpuBbv, SameWorkGivesDistanceZeroAndOtherKernelsAreFar) {
  const std::vector<WarpBlocks> warps = {{{0, 1}, {4, 2}}, {{0, 1}, {7, 1}}};
  const OnlineAnalysis a = build_analysis(warps, lengths(), kernel_seed("k"), 16);
  const OnlineAnalysis b = build_analysis(warps, lengths(), kernel_seed("k"), 16);
  EXPECT_DOUBLE_EQ(gpu_bbv_distance(a.gpu_bbv, b.gpu_bbv, 16), 0.0);
  const OnlineAnalysis other = build_analysis(warps, lengths(), kernel_seed("other"), 16);
  EXPECT_GT(gpu_bbv_distance(a.gpu_bbv, other.gpu_bbv, 16), 0.1);
}

TEST(GpuBbv, DistanceIsMeanAbsoluteDifferencePaddingTheShorterWithZeros) {
  EXPECT_DOUBLE_EQ(gpu_bbv_distance({1, 2}, {1, 1}, 2), 0.5);
  EXPECT_DOUBLE_EQ(gpu_bbv_distance({1, 2, 3, 4}, {1, 2}, 2), 3.5);
  EXPECT_DOUBLE_EQ(gpu_bbv_distance({}, {}, 16), 0.0);
}

TEST(GpuBbv, ShiftInTypeMixMovesTheVectorProportionally) {
  // 90/10 vs 80/20 mixes of the same two types: only the weights move.
  auto mix = [](int a, int b) {
    std::vector<WarpBlocks> w(size_t(a), WarpBlocks{{0, 1}, {4, 2}});
    for (int i = 0; i < b; ++i) w.push_back({{7, 1}});
    return build_analysis(w, lengths(), 5, 16);
  };
  const OnlineAnalysis x = mix(9, 1), y = mix(8, 2);
  double expect = 0;
  for (size_t k = 0; k < 16; ++k)
    expect += 0.1 * std::abs(x.types[0].projected[k]) + 0.1 * std::abs(x.types[1].projected[k]);
  EXPECT_NEAR(gpu_bbv_distance(x.gpu_bbv, y.gpu_bbv, 16), expect / 16, 1e-12);
}

}  // namespace
}  // namespace strobe::sampling
