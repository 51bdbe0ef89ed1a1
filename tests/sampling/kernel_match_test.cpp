// Photon's kernel matching on constructed histories.
#include "sampling/photon/kernel_match.h"

#include <gtest/gtest.h>

namespace strobe::sampling {
namespace {

KernelRecord rec(uint32_t launch, std::vector<double> bbv, uint64_t warps, double ipc = 10) {
  KernelRecord r;
  r.launch = launch;
  r.kernel.assign(1, 'k');
  r.gpu_bbv = std::move(bbv);
  r.warps = warps;
  r.ipc = ipc;
  r.instructions = warps * 100;
  r.insts_per_sampled_warp = 100;
  return r;
}

TEST(KernelMatch, NoHistoryNoMatch) { EXPECT_FALSE(match_kernel({}, {0.1, 0.2}, 1000, 100.0, 64, 0.05, 2)); }

TEST(KernelMatch, OnlyKernelsWithinTheThresholdMatch) {
  const std::vector<KernelRecord> h = {rec(0, {0.5, 0.5}, 1000), rec(1, {0.1, 0.12}, 1000)};
  const auto m = match_kernel(h, {0.1, 0.1}, 1000, 100.0, 64, 0.05, 2);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->index, 1u);
  EXPECT_NEAR(m->distance, 0.01, 1e-12);
  EXPECT_FALSE(match_kernel(h, {0.9, 0.9}, 1000, 100.0, 64, 0.05, 2));
}

TEST(KernelMatch, PrefersTheClosestWarpCountOverTheClosestVector) {
  const std::vector<KernelRecord> h = {rec(0, {0.1, 0.1}, 4000), rec(1, {0.12, 0.1}, 1100), rec(2, {0.1, 0.1}, 300)};
  const auto m = match_kernel(h, {0.1, 0.1}, 1000, 100.0, 64, 0.05, 2);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->index, 1u);
}

TEST(KernelMatch, EqualWarpGapsPreferTheSmallerDistance) {
  const std::vector<KernelRecord> h = {rec(0, {0.13, 0.1}, 900), rec(1, {0.11, 0.1}, 1100)};
  EXPECT_EQ(match_kernel(h, {0.1, 0.1}, 1000, 100.0, 64, 0.05, 2)->index, 1u);
}

TEST(KernelMatch, KernelsSmallerThanTheGpuNeedAnEqualWarpCount) {
  const std::vector<KernelRecord> h = {rec(0, {0.1, 0.1}, 33), rec(1, {0.1, 0.1}, 31)};
  EXPECT_FALSE(match_kernel(h, {0.1, 0.1}, 32, 100.0, 64, 0.05, 2));
  const std::vector<KernelRecord> h2 = {rec(0, {0.1, 0.1}, 33), rec(1, {0.1, 0.1}, 32)};
  EXPECT_EQ(match_kernel(h2, {0.1, 0.1}, 32, 100.0, 64, 0.05, 2)->index, 1u);
}

TEST(KernelMatch, WarpCountsOrWorkPerWarpTooFarApartNeverMatch) {
  const std::vector<KernelRecord> h = {rec(0, {0.1, 0.1}, 4000)};
  EXPECT_FALSE(match_kernel(h, {0.1, 0.1}, 1000, 100.0, 64, 0.05, 2, 1.5));  // 4x the warps
  EXPECT_TRUE(match_kernel(h, {0.1, 0.1}, 3000, 100.0, 64, 0.05, 2, 1.5));   // 1.33x
  EXPECT_FALSE(match_kernel(h, {0.1, 0.1}, 4000, 900.0, 64, 0.05, 2, 1.5));  // 9x the loop depth
  EXPECT_FALSE(match_kernel(h, {0.1, 0.1}, 4000, 11.0, 64, 0.05, 2, 1.5));   // a ninth of it
  EXPECT_TRUE(match_kernel(h, {0.1, 0.1}, 4000, 140.0, 64, 0.05, 2, 1.5));
}

TEST(KernelMatch, RecordsWithoutAnIpcNeverMatch) {
  const std::vector<KernelRecord> h = {rec(0, {0.1, 0.1}, 1000, 0)};
  EXPECT_FALSE(match_kernel(h, {0.1, 0.1}, 1000, 100.0, 64, 0.05, 2));
}

TEST(KernelMatch, PredictedInstructionsScaleBySampledRatioAndWarps) {
  KernelRecord m = rec(0, {}, 1000);
  m.instructions = 120000;        // 120 per warp in full...
  m.insts_per_sampled_warp = 100;  // ...while its sample saw 100: the sample underestimates by 1.2
  EXPECT_EQ(predict_instructions(m, 50, 2000), 120000u);  // 50 * 2000 * 1.2
}

}  // namespace
}  // namespace strobe::sampling
