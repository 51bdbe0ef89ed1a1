#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "common/error.h"
#include "timing/mem/replacement.h"

namespace strobe::timing {
namespace {

/// Fills a 4-way set way by way, then uses way 0 again: the classic case where tree-PLRU and
/// true LRU disagree.
uint32_t victim_after_fill_and_reuse(const char* policy) {
  auto p = make_replacement_policy(policy, ReplacementGeometry{2, 4, 7});
  for (uint32_t w = 0; w < 4; ++w) p->touch(1, w);
  p->touch(1, 0);
  return p->victim(1);
}

TEST(Replacement, LruEvictsTheLeastRecentlyUsedWay) {
  EXPECT_EQ(victim_after_fill_and_reuse("lru"), 1u);
  auto p = make_replacement_policy("lru", ReplacementGeometry{1, 4, 0});
  for (uint32_t w : {2u, 0u, 3u, 1u, 2u}) p->touch(0, w);
  EXPECT_EQ(p->victim(0), 0u);  // order of last use: 0, 3, 1, 2
}

TEST(Replacement, TreePlruFollowsTheTreeBitsAwayFromRecentUses) {
  // After uses 0,1,2,3,0 the root points right (0 was last) and the right node points at way 2
  // (3 was used after 2): way 2 goes, where true LRU would evict way 1.
  EXPECT_EQ(victim_after_fill_and_reuse("plru"), 2u);
  auto p = make_replacement_policy("plru", ReplacementGeometry{1, 8, 0});
  for (uint32_t w = 0; w < 8; ++w) p->touch(0, w);
  EXPECT_EQ(p->victim(0), 0u);  // in-order uses leave every node pointing left
  p->touch(0, 0);
  EXPECT_EQ(p->victim(0), 4u);
}

TEST(Replacement, TreePlruNeedsAPowerOfTwoWays) {
  EXPECT_THROW(make_replacement_policy("plru", ReplacementGeometry{4, 12, 0}), InputError);
  EXPECT_EQ(make_replacement_policy("plru", ReplacementGeometry{4, 1, 0})->victim(3), 0u);
}

std::vector<uint32_t> random_victims(uint64_t seed, uint32_t n) {
  auto p = make_replacement_policy("random", ReplacementGeometry{16, 8, seed});
  std::vector<uint32_t> v;
  for (uint32_t i = 0; i < n; ++i) v.push_back(p->victim(i % 16));
  return v;
}

TEST(Replacement, RandomIsReproducibleForASeedAndCoversEveryWay) {
  const auto a = random_victims(42, 256), b = random_victims(42, 256), c = random_victims(43, 256);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_EQ(std::set<uint32_t>(a.begin(), a.end()).size(), 8u);
  for (uint32_t w : a) EXPECT_LT(w, 8u);
}

TEST(Replacement, UnknownPolicyListsTheKnownOnes) {
  try {
    make_replacement_policy("fifo", ReplacementGeometry{});
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("plru"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace strobe::timing
