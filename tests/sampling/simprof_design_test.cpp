// SimProf's sample: random orders whose prefixes are simple random samples, per-stratum draws
// that grow without redrawing, spreads and budget sizes, and the two estimators of total cycles
// against hand-computed cases.
#include "sampling/simprof/sample_design.h"
#include "sampling/simprof/simprof_method.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

namespace strobe::sampling::simprof {
namespace {

Population two_strata() {
  Population p;
  p.stratum = {0, 1, 0, 1, 0, 1, 0, 0};
  p.size = {10, 100, 20, 200, 30, 300, 40, 50};
  p.strata = 2;
  return p;
}

TEST(SimprofDesign, ARandomOrderIsAPermutationFixedByItsSeed) {
  const std::vector<size_t> a = random_order(50, 7), b = random_order(50, 7), c = random_order(50, 8);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  std::vector<size_t> sorted = a;
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 0; i < sorted.size(); ++i) EXPECT_EQ(sorted[i], i);
}

TEST(SimprofDesign, EveryUnitIsFirstInARandomOrderAboutEquallyOften) {
  // 4000 orders of 8 units: each unit leads about 500 times; 4 sigma is about 85.
  std::vector<int> first(8, 0);
  for (uint64_t s = 0; s < 4000; ++s) ++first[random_order(8, s)[0]];
  for (int f : first) EXPECT_NEAR(f, 500, 85);
}

TEST(SimprofDesign, AGrownDrawKeepsItsUnitsAndStaysInItsStratum) {
  const Population p = two_strata();
  StratifiedDraw d(p, 3);
  const std::vector<size_t> first = d.grow(0, 2);
  ASSERT_EQ(first.size(), 2u);
  const std::vector<size_t> more = d.grow(0, 4);
  ASSERT_EQ(more.size(), 2u);
  EXPECT_TRUE(d.grow(0, 3).empty());  // never shrinks
  std::set<size_t> all(first.begin(), first.end());
  all.insert(more.begin(), more.end());
  EXPECT_EQ(all.size(), 4u);
  for (size_t u : all) EXPECT_EQ(p.stratum[u], 0);
  EXPECT_EQ(d.grow(1, 99).size(), 3u);  // capped at N_h
  EXPECT_EQ(d.counts(), (std::vector<uint64_t>{4, 3}));
  EXPECT_EQ(d.total(), 7u);
  StratifiedDraw again(p, 3);
  EXPECT_EQ(again.grow(0, 4), (std::vector<size_t>{first[0], first[1], more[0], more[1]}));
}

TEST(SimprofDesign, SpreadsAreOfCyclesOrOfTheRatioResiduals) {
  const Population p = two_strata();
  // Stratum 1: y exactly 2 x: the ratio residuals vanish, the cycles still spread.
  std::vector<double> y = {0, 200, 0, 400, 0, 600, 0, 0};
  const std::vector<std::vector<size_t>> units = {{}, {1, 3, 5}};
  const auto exp = stratum_spreads(p, units, y, Estimator::Expansion);
  const auto rat = stratum_spreads(p, units, y, Estimator::Ratio);
  EXPECT_EQ(exp[0].size, 5u);
  EXPECT_EQ(exp[0].sd, 0);  // no unit read
  EXPECT_DOUBLE_EQ(exp[1].sd, 200);
  EXPECT_NEAR(rat[1].sd, 0, 1e-9);
}

TEST(SimprofDesign, TheRatioEstimatorScalesEachStratumsCyclesPerInstruction) {
  const Population p = two_strata();
  // Stratum 0 sample {0, 2}: x 10 + 20, y 15 + 45 -> R = 2, X_0 = 150 -> 300.
  // Stratum 1 taken whole: 700 exactly.
  std::vector<double> y(8, 0);
  y[0] = 15, y[2] = 45, y[1] = 100, y[3] = 200, y[5] = 400;
  const std::vector<std::vector<size_t>> units = {{0, 2}, {1, 3, 5}};
  const StratifiedEstimate r = estimate_total(p, units, y, Estimator::Ratio, 1.96);
  EXPECT_DOUBLE_EQ(r.total, 300 + 700);
  // Residuals 15 - 20 = -5 and 45 - 40 = 5: s_d² = 50; 5² (1 - 2/5) 50 / 2 = 375.
  EXPECT_NEAR(r.total_se, std::sqrt(375.0), 1e-9);
  EXPECT_EQ(r.sampled, 5u);
  // The expansion estimator: 5 x 30 + 700, s² = 450: 25 (0.6) 450 / 2 = 3375.
  const StratifiedEstimate e = estimate_total(p, units, y, Estimator::Expansion, 1.96);
  EXPECT_DOUBLE_EQ(e.total, 150 + 700);
  EXPECT_NEAR(e.total_se, std::sqrt(3375.0), 1e-9);
}

TEST(SimprofDesign, TheRatioEstimatorIsExactWhenCyclesAreProportional) {
  StratumSample s;
  s.size = 10;
  s.values = {20, 60};
  s.aux = {10, 30};
  s.aux_total = 400;
  const StratumSample one[] = {s};
  const StratifiedEstimate r = stratified_ratio_estimate(one, 1.96);
  EXPECT_DOUBLE_EQ(r.total, 800);
  EXPECT_NEAR(r.half_width, 0, 1e-9);
}

TEST(SimprofDesign, TheRatioEstimatorRefusesASampleWithoutItsAuxiliaryValues) {
  StratumSample s;
  s.size = 4;
  s.values = {1, 2};
  const StratumSample one[] = {s};
  EXPECT_THROW(stratified_ratio_estimate(one, 1.96), std::invalid_argument);
}

TEST(SimprofDesign, TheBudgetAllocationIsTheWorkedSizeAndNeverShrinks) {
  // METHODS.md §3.3's check: 283 units, 243 + 41 after rounding up.
  const StratumDesign strata[] = {{600, 0.2}, {400, 0.05}};
  const std::vector<uint64_t> a = budget_allocation(strata, 1.0, 0.02, 3.0, {}, 2);
  EXPECT_EQ(a, (std::vector<uint64_t>{243, 41}));
  const uint64_t current[] = {10, 60};
  EXPECT_EQ(budget_allocation(strata, 1.0, 0.02, 3.0, current, 2), (std::vector<uint64_t>{243, 60}));
}

TEST(SimprofDesign, TheProportionalFloorRaisesSmallNeymanSharesAndCapsAtTheStratum) {
  // 60, 30 and 10 units; Neyman asked 2, 18 and 10 (20 of them): at half the proportional share
  // of 30, the first stratum needs ceil(0.5 x 30 x 60 / 100) = 9, the second 5 (has 18), the
  // third 2 (has 10).
  Population pop;
  pop.strata = 3;
  for (int h = 0, size[] = {60, 30, 10}; h < 3; ++h) pop.stratum.insert(pop.stratum.end(), size_t(size[h]), h);
  std::vector<uint64_t> want = {2, 18, 10};
  proportional_floor(want, pop, 0.5);
  EXPECT_EQ(want, (std::vector<uint64_t>{9, 18, 10}));
  // Fraction 0 changes nothing; a floor above N_h is capped at N_h.
  std::vector<uint64_t> same = {2, 18, 10};
  proportional_floor(same, pop, 0);
  EXPECT_EQ(same, (std::vector<uint64_t>{2, 18, 10}));
  std::vector<uint64_t> big = {2, 2, 90};
  proportional_floor(big, pop, 1);
  EXPECT_EQ(big, (std::vector<uint64_t>{57, 29, 10}));
}

}  // namespace
}  // namespace strobe::sampling::simprof

namespace strobe::sampling::simprof {
namespace {

TEST(SimprofDesignTraits, EachDesignsRowNamesARegisteredMethodAndSetsItApart) {
  // The method reads these traits, never the design: a row that named another method, or two
  // rows alike, would silently run one baseline as another.
  const Design all[] = {Design::Stratified, Design::Random, Design::Code, Design::Window};
  for (Design d : all) {
    SCOPED_TRACE(traits(d).name);
    ASSERT_TRUE(methods().contains(traits(d).name));
    for (Design e : all) {
      if (e == d) continue;
      const DesignTraits &a = traits(d), &b = traits(e);
      EXPECT_FALSE(a.phases == b.phases && a.random == b.random && a.one_per_phase == b.one_per_phase &&
                   a.window == b.window && a.simprof_allocation == b.simprof_allocation)
          << traits(e).name;
    }
  }
  // SimProf itself: phases sampled at random, with its own allocation; the window is no random sample.
  EXPECT_TRUE(traits(Design::Stratified).phases && traits(Design::Stratified).random &&
              traits(Design::Stratified).simprof_allocation);
  EXPECT_FALSE(traits(Design::Window).random);
  EXPECT_STREQ(method_name(Design::Code), "simprof-code");
}

}  // namespace
}  // namespace strobe::sampling::simprof
