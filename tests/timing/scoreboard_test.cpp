#include <gtest/gtest.h>

#include "timing/cu/scoreboard.h"

namespace strobe::timing {
namespace {

TEST(Scoreboard, ARegisterIsReadyWhenTheLatestOverlappingWriteCompletes) {
  Scoreboard sb;
  sb.write(RegRange{256, 2}, Cycle(14), Cycle(10));  // v[0:1]
  sb.write(RegRange{106, 2}, Cycle(11), Cycle(10));  // vcc
  EXPECT_EQ(sb.ready(RegRange{257, 1}, Cycle(10)), Cycle(14));
  EXPECT_EQ(sb.ready(RegRange{255, 4}, Cycle(10)), Cycle(14));  // s255..v2 spans v0 and v1
  EXPECT_EQ(sb.ready(RegRange{107, 1}, Cycle(10)), Cycle(11));
  EXPECT_LE(sb.ready(RegRange{258, 1}, Cycle(10)), Cycle(10));  // v2 was never written
  EXPECT_EQ(sb.latest(), Cycle(14));
}

TEST(Scoreboard, CompletedWritesNoLongerDelayReadsAndFreeTheirEntries) {
  Scoreboard sb;
  for (uint64_t t = 0; t < 100; ++t) sb.write(RegRange{uint16_t(256 + t % 8), 1}, Cycle(t + 4), Cycle(t));
  // At cycle 100 only the writes issued at 97..99 are in flight.
  EXPECT_EQ(sb.ready(RegRange{256 + 99 % 8, 1}, Cycle(100)), Cycle(103));
  EXPECT_LE(sb.ready(RegRange{256 + 96 % 8, 1}, Cycle(100)), Cycle(100));
}

TEST(Scoreboard, AccVgprsAliasNeitherScalarRegistersNorVgprs) {
  Scoreboard sb;
  sb.write(RegRange{512, 4}, Cycle(20), Cycle(0));  // a[0:3]
  EXPECT_EQ(sb.ready(RegRange{514, 1}, Cycle(0)), Cycle(20));
  EXPECT_EQ(sb.ready(RegRange{510, 4}, Cycle(0)), Cycle(20));  // v[254:255] and a[0:1]
  EXPECT_LE(sb.ready(RegRange{0, 4}, Cycle(0)), Cycle(0));     // s[0:3]
  EXPECT_LE(sb.ready(RegRange{256, 4}, Cycle(0)), Cycle(0));   // v[0:3]
  EXPECT_LE(sb.ready(RegRange{516, 1}, Cycle(0)), Cycle(0));   // a4
}

TEST(Scoreboard, ClearForgetsEveryWrite) {
  Scoreboard sb;
  sb.write(RegRange{256, 1}, Cycle(50), Cycle(0));
  sb.clear();
  EXPECT_LE(sb.ready(RegRange{256, 1}, Cycle(1)), Cycle(1));
  EXPECT_EQ(sb.latest(), Cycle(0));
}

}  // namespace
}  // namespace strobe::timing
