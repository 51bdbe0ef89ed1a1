// CacheTags on its own: hits, misses, evictions and dirty lines without the event engine.
#include <gtest/gtest.h>

#include "common/error.h"
#include "timing/mem/cache_tags.h"

namespace strobe::timing {
namespace {

CacheGeometry geometry(uint32_t sets, uint32_t ways, const char* policy = "lru", uint32_t index_divisor = 1) {
  CacheGeometry g;
  g.sets = sets;
  g.ways = ways;
  g.replacement = policy;
  g.index_divisor = index_divisor;
  return g;
}

TEST(CacheTags, ReadMissFillsAndTheNextReadHits) {
  CacheTags t(geometry(2, 2));
  EXPECT_FALSE(t.access(6, false, false).hit);
  EXPECT_TRUE(t.contains(6));
  EXPECT_TRUE(t.access(6, false, false).hit);
  EXPECT_FALSE(t.is_dirty(6));
}

TEST(CacheTags, AFullSetEvictsTheLeastRecentlyUsedLineAndReportsIt) {
  CacheTags t(geometry(2, 2));  // even lines share set 0
  t.access(0, false, false);
  t.access(2, false, false);
  t.access(0, false, false);  // 2 is now the least recently used
  const CacheTags::Outcome o = t.access(4, false, false);
  EXPECT_FALSE(o.hit);
  ASSERT_TRUE(o.victim.valid);
  EXPECT_EQ(o.victim.line, 2u);
  EXPECT_FALSE(o.victim.dirty);
  EXPECT_TRUE(t.contains(0));
  EXPECT_FALSE(t.contains(2));
  EXPECT_FALSE(t.contains(1));  // the other set stays empty
}

TEST(CacheTags, WriteAllocateInstallsDirtyLinesWhoseEvictionIsDirty) {
  CacheTags t(geometry(1, 1));
  EXPECT_FALSE(t.access(9, true, true).hit);
  EXPECT_TRUE(t.is_dirty(9));
  const CacheTags::Outcome o = t.access(10, false, true);
  ASSERT_TRUE(o.victim.valid);
  EXPECT_EQ(o.victim.line, 9u);
  EXPECT_TRUE(o.victim.dirty);
  EXPECT_FALSE(t.is_dirty(10));
}

TEST(CacheTags, WriteThroughWritesNeitherAllocateNorDirty) {
  CacheTags t(geometry(1, 2));
  EXPECT_FALSE(t.access(3, true, false).hit);
  EXPECT_FALSE(t.contains(3));
  t.access(3, false, false);
  EXPECT_TRUE(t.access(3, true, false).hit);
  EXPECT_FALSE(t.is_dirty(3));
}

TEST(CacheTags, InvalidatedLinesMissAndFreeTheirWay) {
  CacheTags t(geometry(1, 2));
  t.access(1, false, false);
  t.access(2, false, false);
  const uint32_t set = t.set_of(1);
  t.invalidate(t.slot(set, uint32_t(t.find(1, set))));
  EXPECT_FALSE(t.contains(1));
  EXPECT_FALSE(t.access(5, false, false).victim.valid);  // refills the freed way, no eviction
  EXPECT_TRUE(t.contains(2));
}

TEST(CacheTags, IndexDivisorDropsTheBankInterleaveBits) {
  CacheTags t(geometry(4, 1, "lru", 8));  // bank = line % 8; the set comes from line / 8
  EXPECT_EQ(t.set_of(0), 0u);
  EXPECT_EQ(t.set_of(7), 0u);
  EXPECT_EQ(t.set_of(8), 1u);
  EXPECT_EQ(t.set_of(8 * 5), 1u);
  CacheTags odd(geometry(4, 1, "lru", 3));  // not a power of two: divides
  EXPECT_EQ(odd.set_of(9), 3u);
}

TEST(CacheTags, APolicyThatCannotServeTheGeometryIsRejected) {
  EXPECT_THROW(CacheTags(geometry(4, 3, "plru")), InputError);
  EXPECT_THROW(CacheTags(geometry(4, 4, "mru")), InputError);
  EXPECT_NO_THROW(CacheTags(geometry(4, 4, "plru")));
}

}  // namespace
}  // namespace strobe::timing
