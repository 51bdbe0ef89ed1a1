#include <gtest/gtest.h>

#include "timing/cu/inst_buffer.h"

namespace strobe::timing {
namespace {

TEST(FetchTag, EncodeAndDecodeRoundTrip) {
  const FetchTag t = FetchTag::of(63, 0x123456);
  const uint32_t raw = t.encode();
  ASSERT_TRUE(FetchTag::is_fetch(raw));
  EXPECT_EQ(FetchTag::decode(raw).slot, 63u);
  EXPECT_EQ(FetchTag::decode(raw).epoch, 0x123456u);
}

TEST(FetchTag, OpRecordIndicesAreNeverFetches) {
  EXPECT_FALSE(FetchTag::is_fetch(0));
  EXPECT_FALSE(FetchTag::is_fetch(0x7FFFFFFF));
}

TEST(FetchTag, TheEpochKeepsItsLow24Bits) {
  EXPECT_EQ(FetchTag::of(1, 0x1000005).epoch, 5u);
}

TEST(InstBuffer, ARedirectAlignsToTheFetchBlockAndEmpties) {
  InstBuffer ib;
  ib.redirect(100, 32);
  EXPECT_EQ(ib.lo, 96u);
  EXPECT_EQ(ib.hi, 96u);
  EXPECT_FALSE(ib.holds(100, 4));
}

TEST(InstBuffer, AFillMakesTheNextBlockAvailable) {
  InstBuffer ib;
  ib.redirect(0, 32);
  ASSERT_TRUE(ib.wants_fetch(0, 32, 64));
  const FetchTag t = ib.start_fetch(3);
  EXPECT_EQ(t.slot, 3u);
  EXPECT_FALSE(ib.wants_fetch(0, 32, 64));  // one fetch in flight at most
  EXPECT_TRUE(ib.fill(t, 32));
  EXPECT_TRUE(ib.holds(28, 4));
  EXPECT_FALSE(ib.holds(28, 8));
}

TEST(InstBuffer, AResponseToAFetchFromBeforeABranchIsStale) {
  InstBuffer ib;
  ib.redirect(0, 32);
  const FetchTag t = ib.start_fetch(0);
  ib.redirect(256, 32);  // a taken branch
  EXPECT_FALSE(ib.fill(t, 32));
  EXPECT_EQ(ib.hi, 256u);
  const FetchTag u = ib.start_fetch(0);
  EXPECT_FALSE(ib.fill(t, 32));  // still stale while the new fetch is in flight
  EXPECT_TRUE(ib.fill(u, 32));
  EXPECT_EQ(ib.hi, 288u);
}

TEST(InstBuffer, WantsAFetchOnlyWhileAWholeBlockFitsBehindThePc) {
  InstBuffer ib;
  ib.redirect(0, 32);
  ib.fill(ib.start_fetch(0), 32);
  EXPECT_TRUE(ib.wants_fetch(0, 32, 64));  // 32 buffered + 32 <= 64
  ib.fill(ib.start_fetch(0), 32);
  EXPECT_FALSE(ib.wants_fetch(0, 32, 64));
  ib.consume(8);
  EXPECT_TRUE(ib.wants_fetch(32, 32, 64));  // the pc moved past the first block
}

}  // namespace
}  // namespace strobe::timing
