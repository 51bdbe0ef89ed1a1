// GPUMech's bounds (strobe's extensions): a launch is at least as long as DRAM moving its
// L2-missing lines at peak bandwidth and as its slowest wave alone, each only when enabled.
#include "sampling/gpumech/launch_model.h"

#include <gtest/gtest.h>

#include <string>

namespace strobe::sampling::gpumech {
namespace {

/// 512 GB/s at 1 GHz: 512 bytes a cycle, 8 lines of 64 bytes.
timing::GpuConfig config() {
  timing::GpuConfig cfg;
  cfg.dram_bandwidth_gbs = 512;
  cfg.clock_mhz = 1000;
  cfg.line_bytes = 64;
  return cfg;
}

LaunchModel model(double balanced, uint64_t l2_misses, double tail) {
  LaunchModel m;
  m.prediction.cycles = balanced;
  m.cache.l2_misses = l2_misses;
  m.prediction.tail_cycles = tail;
  return m;
}

TEST(GpumechBounds, DramTimeIsTheMissedLinesAtPeakBandwidth) {
  const BoundedCycles b = bounded_cycles(model(1000, 80000, 0), config(), true, true);
  EXPECT_DOUBLE_EQ(b.dram, 10000.0);
  EXPECT_DOUBLE_EQ(b.cycles, 10000.0);
  EXPECT_EQ(std::string(b.bound), "dram");
}

TEST(GpumechBounds, TheSlowestWaveBoundsATailDominatedLaunch) {
  const BoundedCycles b = bounded_cycles(model(1000, 800, 50000), config(), true, true);
  EXPECT_DOUBLE_EQ(b.cycles, 50000.0);
  EXPECT_EQ(std::string(b.bound), "tail");
}

TEST(GpumechBounds, ABalancedEstimateAboveBothStandsAndDisabledBoundsAreOnlyReported) {
  const BoundedCycles b = bounded_cycles(model(90000, 80000, 50000), config(), true, true);
  EXPECT_DOUBLE_EQ(b.cycles, 90000.0);
  EXPECT_EQ(std::string(b.bound), "balanced");
  const BoundedCycles off = bounded_cycles(model(1000, 80000, 50000), config(), false, false);
  EXPECT_DOUBLE_EQ(off.cycles, 1000.0);
  EXPECT_DOUBLE_EQ(off.dram, 10000.0);
  EXPECT_DOUBLE_EQ(off.tail, 50000.0);
}

}  // namespace
}  // namespace strobe::sampling::gpumech
