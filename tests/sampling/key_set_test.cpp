#include "sampling/numeric/key_set.h"

#include <cstdint>
#include <set>

#include <gtest/gtest.h>

#include "sampling/numeric/mix.h"

namespace strobe::sampling {
namespace {

TEST(KeySet, AgreesWithStdSetOverManyKeysIncludingEveryEdgeValue) {
  KeySet k(4);  // far too small: it must grow
  std::set<uint64_t> ref;
  uint64_t s = 7;
  for (int i = 0; i < 200000; ++i) {
    // Few distinct values, so that most inserts meet a key already there.
    uint64_t v = splitmix64(s) % 50000;
    if (i % 1000 == 0) v = UINT64_MAX;  // the table's own free-slot mark is a key like any other
    if (i % 777 == 0) v = 0;
    EXPECT_EQ(k.insert(v), ref.insert(v).second) << "key " << v;
  }
  EXPECT_EQ(k.size(), ref.size());
  for (uint64_t v = 0; v < 60000; ++v) ASSERT_EQ(k.contains(v), ref.count(v) == 1) << v;
  EXPECT_TRUE(k.contains(UINT64_MAX));
}

TEST(KeySet, KeysThatCollideInTheTableAreKeptApart) {
  KeySet k;
  // Multiples of a large power of two all land near each other before mixing.
  for (uint64_t i = 0; i < 1000; ++i) EXPECT_TRUE(k.insert(i << 40));
  for (uint64_t i = 0; i < 1000; ++i) EXPECT_FALSE(k.insert(i << 40));
  EXPECT_EQ(k.size(), 1000u);
  EXPECT_FALSE(k.contains(uint64_t{1000} << 40));
}

}  // namespace
}  // namespace strobe::sampling
