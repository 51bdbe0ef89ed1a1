// STEM's sample sizes and ROOT's splits. The reimplementation's case: per-group signature
// tables run through the public reimplementation's cluster_recursive (STEM-AE
// figure7/sampling_methods/stem.py, error 5%, z 1.96), whose clusters and sample sizes are the
// expectations below; strobe must reproduce them. Also the exact 1-D 2-means ROOT splits with,
// the CLT sample size worked by hand, and the draw.
#include "sampling/stem/clusters.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "sampling/numeric/two_means.h"

namespace strobe::sampling::stem {
namespace {

/// The paper's STEM+ROOT: strobe's adaptations (grouping by geometry, the ratio estimator, each
/// first launch apart) off.
Params paper() {
  Params p;
  p.groups = Groups::Kernel;
  p.estimator = Estimator::Mean;
  p.first_apart = false;
  return p;
}

TEST(TwoMeans, SplitsAtTheOptimumBetweenDistinctValues) {
  EXPECT_EQ(two_means_split(std::vector<double>{1, 2, 3, 10, 11}), 3u);
  EXPECT_EQ(two_means_split(std::vector<double>{1, 1, 1, 1, 50}), 4u);
  // Equal values are never separated: the only cut of {5, 5, 9} is before the 9.
  EXPECT_EQ(two_means_split(std::vector<double>{5, 5, 9}), 2u);
  EXPECT_EQ(two_means_split(std::vector<double>{4, 4, 4}), 0u);
  EXPECT_EQ(two_means_split(std::vector<double>{4}), 0u);
  // Brute force on an irregular sample: no other contiguous cut has a smaller summed SSE.
  const std::vector<double> v{1, 1.5, 2, 7, 7.2, 8, 20, 21, 22.5};
  auto sse = [&](size_t a, size_t b) {
    double m = 0, s = 0;
    for (size_t i = a; i < b; ++i) m += v[i];
    m /= double(b - a);
    for (size_t i = a; i < b; ++i) s += (v[i] - m) * (v[i] - m);
    return s;
  };
  const size_t k = two_means_split(v);
  for (size_t j = 1; j < v.size(); ++j) EXPECT_LE(sse(0, k) + sse(k, v.size()), sse(0, j) + sse(j, v.size()) + 1e-9);
}

TEST(StemClusters, SampleSizeIsTheCentralLimitTheorems) {
  // z = 1.96, error 5%, CoV 0.25: (1.96 × 0.25 / 0.05)² = 96.04, rounded up.
  EXPECT_EQ(stem_sample_size(100, 25, 1.96, 0.05), 97u);
  EXPECT_EQ(stem_sample_size(100, 0, 1.96, 0.05), 0u);
  EXPECT_EQ(stem_sample_size(0, 3, 1.96, 0.05), 1u);
}

/// The reimplementation's input: launch id and signature per group.
std::vector<LaunchRow> table() {
  std::map<size_t, LaunchRow> byid;
  const std::map<std::string, std::vector<std::pair<size_t, double>>> groups{
      {"gemm", {{0, 1000}, {3, 1010}, {6, 990}, {9, 1005}, {12, 995}}},
      {"attn", {{1, 100}, {4, 120}, {7, 140}, {10, 160}, {13, 180}, {15, 900}, {16, 950}, {17, 1000}, {18, 1100}, {19, 1200}}},
      {"ln", {{2, 50}, {5, 50}, {8, 50}, {11, 51}, {14, 50}}},
      {"big", {{20, 10}, {21, 5000}, {22, 20}, {23, 30}, {24, 12}, {25, 4000}, {26, 15}, {27, 25}, {28, 11}, {29, 18},
               {30, 14}, {31, 4500}}},
  };
  for (const auto& [g, rows] : groups)
    for (const auto& [id, sig] : rows) byid[id] = {g, sig};
  std::vector<LaunchRow> t;
  for (const auto& [id, r] : byid) t.push_back(r);
  return t;
}

TEST(StemClusters, ReproducesTheReimplementation) {
  Params p = paper();
  const std::vector<Cluster> got = root_clusters(table(), p);
  // Its output (cluster key, n, launches): gemm 1 [0,3,6,9,12]; attn0 11 [1,4,7,10,13];
  // attn1101 1 [15]; attn1100 1 [16]; attn111 1 [17]; attn101 1 [18]; attn100 1 [19];
  // ln1 0 [2,5,8,14]; ln0 1 [11]; big0 10 [20,22,23,24,26,27,28,29,30]; big101 1 [21];
  // big100 1 [31]; big11 1 [25].
  const std::set<std::pair<std::vector<size_t>, uint64_t>> want{
      {{0, 3, 6, 9, 12}, 1}, {{1, 4, 7, 10, 13}, 11}, {{15}, 1}, {{16}, 1}, {{17}, 1}, {{18}, 1}, {{19}, 1},
      {{2, 5, 8, 14}, 0},    {{11}, 1},               {{20, 22, 23, 24, 26, 27, 28, 29, 30}, 10},
      {{21}, 1},             {{31}, 1},               {{25}, 1}};
  std::set<std::pair<std::vector<size_t>, uint64_t>> have;
  for (const Cluster& c : got) have.insert({c.launches, c.design});
  EXPECT_EQ(have, want);
  // Where the reimplementation samples none (ln's four equal launches: n = 0, so they drop out
  // of its estimate), strobe simulates one.
  for (const Cluster& c : got) {
    if (c.launches == std::vector<size_t>{2, 5, 8, 14}) {
      EXPECT_EQ(c.samples(), 1u);
    }
  }
  // Groups in order of first launch, a group's clusters by increasing signature.
  ASSERT_FALSE(got.empty());
  EXPECT_EQ(got.front().group, "gemm");
  EXPECT_EQ(got.back().launches, (std::vector<size_t>{21}));
}

TEST(StemClusters, RootOffKeepsEachGroupWhole) {
  Params p = paper();
  p.root = false;
  const std::vector<Cluster> got = root_clusters(table(), p);
  ASSERT_EQ(got.size(), 4u);
  for (const Cluster& c : got) EXPECT_EQ(c.design, stem_sample_size(c.mean, c.sd, 1.959963984540054, 0.05)) << c.group;
}

TEST(StemClusters, FirstApartTakesEachGroupsFirstLaunchOutAlone) {
  Params p = paper();
  p.first_apart = true;
  const std::vector<LaunchRow> rows = table();
  std::map<std::string, size_t> first;
  for (size_t i = 0; i < rows.size(); ++i) first.try_emplace(rows[i].group, i);
  const std::vector<Cluster> got = root_clusters(rows, p);
  std::set<size_t> covered;
  for (const Cluster& c : got)
    for (size_t l : c.launches) EXPECT_TRUE(covered.insert(l).second) << l << " is in two clusters";
  EXPECT_EQ(covered.size(), rows.size());
  for (const auto& [g, l] : first) {
    SCOPED_TRACE(g);
    const auto it = std::find_if(got.begin(), got.end(), [&](const Cluster& c) { return c.launches.front() == l; });
    ASSERT_NE(it, got.end());
    // Alone in its cluster, and simulated: unless the group has only that launch, no other
    // launch of the group shares it.
    EXPECT_EQ(it->launches.size(), 1u);
    EXPECT_EQ(it->samples(), 1u);
    EXPECT_EQ(it->group, g);
  }
  // The rest of each group is clustered as without it: the same clusters as ROOT on the table
  // with the first launches left out (their indices aside).
  std::vector<LaunchRow> rest;
  std::vector<size_t> index;
  for (size_t i = 0; i < rows.size(); ++i)
    if (first.at(rows[i].group) != i) rest.push_back(rows[i]), index.push_back(i);
  std::set<std::vector<size_t>> want, have;
  for (const Cluster& c : root_clusters(rest, paper())) {
    std::vector<size_t> ls;
    for (size_t l : c.launches) ls.push_back(index[l]);
    want.insert(ls);
  }
  for (const Cluster& c : got)
    if (!(c.launches.size() == 1 && first.at(c.group) == c.launches.front())) have.insert(c.launches);
  EXPECT_EQ(have, want);
}

TEST(StemClusters, TwoStageSizesAllocateByTheMeasuredSpread) {
  // Two clusters of 100 launches, means 100 and 400 cycles, sds 100 and 0: all the variance is
  // the first's. T = 50000, budget (0.05 · 50000 / 1.96)² = 1.6269e6; the variance of the total
  // is 100² · 100² / n_0, so n_0 = 1e8 / 1.6269e6 = 61.5 -> 62.
  const double z = 1.959963984540054;
  const std::vector<uint64_t> N{100, 100};
  const std::vector<double> mean{100, 400};
  EXPECT_EQ(two_stage_sizes(N, mean, std::vector<double>{100, 0}, z, 0.05), (std::vector<uint64_t>{62, 0}));
  // A 50% bound: 1e8 / 1.6269e8 = 0.61 -> 1. Ten times the spread: 6147 -> capped at 100.
  EXPECT_EQ(two_stage_sizes(N, mean, std::vector<double>{100, 0}, z, 0.5), (std::vector<uint64_t>{1, 0}));
  EXPECT_EQ(two_stage_sizes(N, mean, std::vector<double>{1000, 0}, z, 0.05), (std::vector<uint64_t>{100, 0}));
  // Equal spread relative to the mean: the cheaper cluster gets more samples (n ∝ σ/√μ).
  const std::vector<uint64_t> n = two_stage_sizes(std::vector<uint64_t>{100000, 100000}, mean,
                                                  std::vector<double>{100, 400}, z, 0.01);
  ASSERT_GT(n[0], 100u);
  EXPECT_NEAR(double(n[1]) / double(n[0]), 2.0, 0.02);
}

TEST(StemClusters, ARandomOrderIsASeededPermutationWhosePrefixesGrow) {
  Cluster c;
  for (size_t i = 0; i < 50; ++i) c.launches.push_back(2 * i + 1);
  const std::vector<size_t> a = random_order(c, 7, 3), b = random_order(c, 7, 3), other = random_order(c, 8, 3);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, other);
  std::vector<size_t> sorted = a;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, c.launches);
  EXPECT_NE(a, c.launches) << "not shuffled";
}

TEST(StemClusters, TheDrawIsSeededUniformAndInProgramOrder) {
  Cluster c;
  for (size_t i = 0; i < 40; ++i) c.launches.push_back(3 * i);
  c.design = 8;
  const std::vector<size_t> a = draw(c, 1, 0), b = draw(c, 1, 0), other = draw(c, 2, 0), next = draw(c, 1, 1);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, other);
  EXPECT_NE(a, next);
  ASSERT_EQ(a.size(), 8u);
  for (size_t i = 1; i < a.size(); ++i) EXPECT_LT(a[i - 1], a[i]);
  for (size_t l : a) EXPECT_EQ(l % 3, 0u);
  // Every launch is drawn about equally often over many seeds (uniformity, loosely).
  std::vector<int> hits(40, 0);
  for (uint64_t s = 0; s < 2000; ++s)
    for (size_t l : draw(c, s, 0)) ++hits[l / 3];
  for (int h : hits) EXPECT_NEAR(h, 400, 80);
  c.design = 100;  // more than the launches: all of them
  EXPECT_EQ(draw(c, 1, 0).size(), 40u);
}

}  // namespace
}  // namespace strobe::sampling::stem
