// The time of launches left waiting on representatives that never ran: the launches simulated in
// detail past the departure from the profile time them by their instruction-weighted CPI, the
// fallback every representative method (TBPoint, Sieve, STEM, PKA) shares.
#include <gtest/gtest.h>

#include "runtime/device.h"
#include "sampling/common/runners.h"
#include "timing/gpu/gpu.h"

namespace strobe::sampling {
namespace {

TEST(UnprofiledRuns, AWaitingLaunchTakesTheirInstructionWeightedCpiNotTheMeanOfTheirCpis) {
  UnprofiledRuns u;
  EXPECT_FALSE(u.timed());
  u.add(100, 50);   // CPI 2
  u.add(1000, 250); // CPI 4: Σ cycles / Σ instructions = 1100 / 300, not the mean CPI of 3
  ASSERT_TRUE(u.timed());
  timing::LaunchTiming t;
  t.thread_instructions = 640;
  runtime::SampledLaunch rec;
  u.time(t, rec, 30, 1000.0);
  EXPECT_EQ(t.cycles, 110u);
  EXPECT_EQ(rec.estimated_cycles, 110u);
  EXPECT_EQ(t.wave_instructions, 30u);
  EXPECT_EQ(t.thread_instructions, 640u);  // the launch's own, kept
  EXPECT_EQ(rec.detail["timed_from_unprofiled_launches"].get<size_t>(), 2u);
  u.clear();
  EXPECT_FALSE(u.timed());
  EXPECT_EQ(u.launches(), 0u);
}

}  // namespace
}  // namespace strobe::sampling
