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

TEST(CacheTags, InstallingALineFoundAbsentLeavesWhatInstallLeaves) {
  // Cache::warm looks a line up once and installs a miss with install_absent(); any stream of
  // uses, writes and invalidations must leave the same lines, victims and dirty bits as install().
  for (const char* policy : {"lru", "random"}) {
    CacheGeometry g = geometry(8, 4, policy);
    g.seed = 7;
    CacheTags a(g), b(g);
    uint64_t x = 12345;
    for (int i = 0; i < 20000; ++i) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      const uint64_t line = (x >> 33) % 96;  // three lines per way and set: many evictions
      const uint32_t set = a.set_of(line);
      if ((x >> 20) % 16 == 0) {  // now and then an invalidation frees a way in the middle
        if (const int w = a.find(line, set); w >= 0) a.invalidate(a.slot(set, uint32_t(w)));
        if (const int w = b.find(line, set); w >= 0) b.invalidate(b.slot(set, uint32_t(w)));
        continue;
      }
      CacheTags::Victim va, vb;
      const uint32_t sa = a.install(line, set, va);
      const int w = b.find(line, set);
      uint32_t sb;
      if (w >= 0) {
        b.touch(set, uint32_t(w));
        sb = b.slot(set, uint32_t(w));
      } else {
        sb = b.install_absent(line, set, vb);
      }
      ASSERT_EQ(sa, sb) << policy << " access " << i;
      ASSERT_EQ(va.valid, vb.valid) << policy << " access " << i;
      ASSERT_EQ(va.line, vb.line) << policy << " access " << i;
      ASSERT_EQ(va.dirty, vb.dirty) << policy << " access " << i;
      if ((x >> 40) % 3 == 0) a.set_dirty(sa), b.set_dirty(sb);
    }
    for (uint64_t line = 0; line < 96; ++line) {
      EXPECT_EQ(a.contains(line), b.contains(line)) << policy << " line " << line;
      EXPECT_EQ(a.is_dirty(line), b.is_dirty(line)) << policy << " line " << line;
    }
  }
}

TEST(CacheTags, APolicyThatCannotServeTheGeometryIsRejected) {
  EXPECT_THROW(CacheTags(geometry(4, 3, "plru")), InputError);
  EXPECT_THROW(CacheTags(geometry(4, 4, "mru")), InputError);
  EXPECT_NO_THROW(CacheTags(geometry(4, 4, "plru")));
}

}  // namespace
}  // namespace strobe::timing
