// The parallelism a projection between two launches scales by (sampling/common/parallelism.h).
#include "sampling/common/parallelism.h"

#include <gtest/gtest.h>

#include <cmath>

namespace strobe::sampling {
namespace {

TEST(Parallelism, ALaunchSmallerThanTheCusKeepsOneCuBusyPerGroupWhateverTheExponent) {
  for (double e : {0.0, 0.5, 1.0}) {
    SCOPED_TRACE(e);
    EXPECT_DOUBLE_EQ(launch_parallelism(32, 640, 64, e), 32.0);
    EXPECT_DOUBLE_EQ(launch_parallelism(1, 640, 64, e), 1.0);
  }
}

TEST(Parallelism, TheExponentSaysWhatABusyCuGetsFromTheGroupsItHolds) {
  // 256 groups on 64 CUs holding 10 each: four groups per CU, all resident.
  EXPECT_DOUBLE_EQ(launch_parallelism(256, 640, 64, 0.0), 64.0);   // one group saturates a CU
  EXPECT_DOUBLE_EQ(launch_parallelism(256, 640, 64, 1.0), 256.0);  // the groups resident at once
  EXPECT_DOUBLE_EQ(launch_parallelism(256, 640, 64, 0.5), 128.0);  // 64 x sqrt(4)
}

TEST(Parallelism, GroupsBeyondWhatTheGpuHoldsAtOnceAddNothing) {
  EXPECT_DOUBLE_EQ(launch_parallelism(100000, 640, 64, 1.0), 640.0);
  EXPECT_DOUBLE_EQ(launch_parallelism(100000, 640, 64, 0.5), 64.0 * std::sqrt(10.0));
  EXPECT_EQ(groups_at_once(100000, 640), 640u);
  EXPECT_EQ(groups_at_once(7, 640), 7u);
}

TEST(Parallelism, ALaunchWithoutGroupsHasNoneAndLeavesAProjectionAlone) {
  EXPECT_DOUBLE_EQ(launch_parallelism(0, 640, 64, 0.5), 0.0);
  EXPECT_DOUBLE_EQ(scale_by_parallelism(1000.0, 0.0, 4.0), 1000.0);
  EXPECT_DOUBLE_EQ(scale_by_parallelism(1000.0, 4.0, 1.0), 4000.0);
}

}  // namespace
}  // namespace strobe::sampling
