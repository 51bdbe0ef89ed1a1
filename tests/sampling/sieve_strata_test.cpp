// Sieve's strata. The reimplementation's case: a per-launch table run through the public
// reimplementation (STEM-AE figure7/sampling_methods/sieve.py, run_sieve with the table as its
// ncu and nsys input), whose strata and sample ids are the expectations below; strobe's
// `strata = reimplementation` variant must reproduce them exactly. The paper's case: valleys of
// the density at Scott's rule, each stratum represented by its first launch in program order.
#include "sampling/sieve/strata.h"

#include <gtest/gtest.h>

#include <vector>

namespace strobe::sampling::sieve {
namespace {

/// The paper's Sieve: strobe's adaptations (grouping by geometry, warm representatives) off.
Params paper() {
  Params p;
  p.groups = Groups::Kernel;
  p.warm_representative = false;
  return p;
}

/// launch, kernel, threads, wave instructions: a constant kernel (tier 1), one whose thread count
/// changes and whose dominant count appears late (tier 2), and one whose counts spread (tier 3)
/// with duplicates, a first cut at index 0 and a piece cut a second time.
std::vector<LaunchRow> table() {
  struct R {
    const char* k;
    uint64_t threads, insts;
  };
  const R rows[] = {{"gemm", 4096, 5000}, {"softmax", 256, 1000}, {"attn", 64, 10}, {"gemm", 4096, 5000},
                    {"softmax", 256, 1100}, {"attn", 64, 11}, {"softmax", 512, 1020}, {"attn", 64, 13},
                    {"softmax", 512, 980}, {"attn", 64, 40}, {"softmax", 512, 1050}, {"attn", 64, 41},
                    {"attn", 64, 41}, {"attn", 64, 44}, {"gemm", 4096, 5000}, {"attn", 64, 1},
                    {"attn", 64, 2}, {"attn", 64, 5}, {"attn", 64, 5}, {"attn", 64, 5}};
  std::vector<LaunchRow> t;
  for (const R& r : rows) t.push_back({r.k, r.insts, r.threads});
  return t;
}

TEST(SieveStrata, ReproducesTheReimplementation) {
  Params p = paper();
  p.strata = Strata::Reimplementation;
  const std::vector<Stratum> s = stratify(table(), p);
  // The reimplementation's output on this table, in its order (tier 1, tier 2, then tier 3 by
  // increasing count): "Kernel sample IDs: [(0, 3), (2, 2), (6, 5), (7, 4), (13, 1), (15, 2),
  // (17, 1), (18, 2)]" and strata gemm [0, 3, 14]; softmax [1, 4, 6, 8, 10]; attn/1/1 [15, 16];
  // attn/1/2 [17]; attn/2 [18, 19]; attn/3 [2, 5]; attn/4 [7, 9, 11, 12]; attn/5 [13]
  // (attn/0 and attn/1/0 empty).
  struct Want {
    int tier;
    std::vector<size_t> launches;
    size_t rep;
  };
  const std::vector<Want> want{{1, {0, 3, 14}, 0},   {2, {1, 4, 6, 8, 10}, 6}, {3, {15, 16}, 15},
                               {3, {17}, 17},         {3, {18, 19}, 18},        {3, {2, 5}, 2},
                               {3, {7, 9, 11, 12}, 7}, {3, {13}, 13}};
  ASSERT_EQ(s.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(s[i].tier, want[i].tier) << i;
    EXPECT_EQ(s[i].launches, want[i].launches) << i;
    EXPECT_EQ(s[i].representative, want[i].rep) << i;
  }
}

TEST(SieveStrata, PaperCutsAtValleysAndTakesTheFirstLaunch) {
  // Two clusters of counts, interleaved in program order: the valley between them splits the
  // kernel, and each stratum's representative is its earliest launch, not its smallest.
  std::vector<LaunchRow> t;
  const uint64_t counts[] = {5000, 1010, 990, 5020, 1000, 4980, 995, 5010, 1005};
  for (uint64_t c : counts) t.push_back({"attn", c, 64});
  Params p = paper();
  const std::vector<Stratum> s = stratify(t, p);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].tier, 3);
  EXPECT_EQ(s[0].launches, (std::vector<size_t>{1, 2, 4, 6, 8}));
  EXPECT_EQ(s[0].representative, 1u);
  EXPECT_EQ(s[1].launches, (std::vector<size_t>{0, 3, 5, 7}));
  EXPECT_EQ(s[1].representative, 0u);
  // The reimplementation's rule on the same table represents the low stratum by its smallest.
  p.strata = Strata::Reimplementation;
  for (const Stratum& st : stratify(t, p)) EXPECT_EQ(t[st.representative].instructions, [&] {
      uint64_t m = UINT64_MAX;
      for (size_t l : st.launches) m = std::min(m, t[l].instructions);
      return m;
    }());
}

TEST(SieveStrata, AWarmRepresentativeIsNeverTheKernelsFirstLaunch) {
  Params p = paper();
  p.warm_representative = true;
  const std::vector<Stratum> s = stratify(table(), p);
  // gemm's first launch (0) gives way to its next (3); softmax's representative (6, the first
  // of the dominant 512 threads) is not its kernel's first launch and stays; attn's first launch
  // (2) represents no stratum.
  ASSERT_GE(s.size(), 3u);
  EXPECT_EQ(s[0].representative, 3u);
  EXPECT_EQ(s[1].representative, 6u);
  for (const Stratum& st : s) EXPECT_NE(st.representative, 2u);
  // A stratum of one launch keeps it.
  const std::vector<Stratum> one = stratify(std::vector<LaunchRow>{{"k", 10, 1}}, p);
  EXPECT_EQ(one.front().representative, 0u);
}

TEST(SieveStrata, TiersFollowTheThresholds) {
  // CoV 0 is tier 1, below tier2_cov tier 2; raising tier2_cov takes a tier-3 kernel into tier 2.
  std::vector<LaunchRow> t{{"k", 100, 1}, {"k", 300, 1}};  // CoV 0.5
  Params p = paper();
  EXPECT_EQ(stratify(t, p).front().tier, 3);
  p.tier2_cov = 0.6;
  EXPECT_EQ(stratify(t, p).front().tier, 2);
  // Every launch lands in exactly one stratum whatever the variant.
  for (Strata v : {Strata::Paper, Strata::Reimplementation}) {
    Params q;
    q.strata = v;
    std::vector<int> seen(table().size(), 0);
    for (const Stratum& st : stratify(table(), q))
      for (size_t l : st.launches) ++seen[l];
    for (int n : seen) EXPECT_EQ(n, 1);
  }
  EXPECT_TRUE(stratify({}, p).empty());
}

}  // namespace
}  // namespace strobe::sampling::sieve
