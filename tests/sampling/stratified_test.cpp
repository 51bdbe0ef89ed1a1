// Stratified random sampling: the normal quantile, Neyman allocation with its minimums and caps,
// METHODS.md §3.3's worked sample size (283), the estimators against a hand-computed case, simple
// random sampling, and the coverage of the 95% interval over 1000 draws of a known population.
#include "sampling/numeric/stratified.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <set>
#include <span>
#include <stdexcept>

#include "sampling/numeric/mix.h"

namespace strobe::sampling {
namespace {

TEST(Stratified, NormalQuantilesMatchTheTables) {
  EXPECT_NEAR(z_for_confidence(0.95), 1.959963984540054, 1e-12);
  EXPECT_NEAR(z_for_confidence(0.997), 2.967737925342100, 1e-9);
  EXPECT_NEAR(z_for_confidence(0.5), 0.674489750196082, 1e-12);
  EXPECT_NEAR(z_for_confidence(0.999999), 4.891638475698, 1e-8);
  EXPECT_THROW(z_for_confidence(1.0), std::invalid_argument);
  EXPECT_THROW(z_for_confidence(0.0), std::invalid_argument);
}

TEST(Stratified, StudentQuantilesMatchTheTablesAndTendToZ) {
  EXPECT_NEAR(t_for_confidence(0.95, 1), 12.706204736, 1e-8);
  EXPECT_NEAR(t_for_confidence(0.95, 2), 4.302652730, 1e-8);
  EXPECT_NEAR(t_for_confidence(0.95, 10), 2.228138852, 1e-8);
  EXPECT_NEAR(t_for_confidence(0.99, 5), 4.032142984, 1e-8);
  EXPECT_NEAR(t_for_confidence(0.95, 1e7), z_for_confidence(0.95), 1e-6);
  EXPECT_DOUBLE_EQ(t_for_confidence(0.95, INFINITY), z_for_confidence(0.95));
  EXPECT_THROW(t_for_confidence(0.95, 0), std::invalid_argument);
  EXPECT_THROW(t_for_confidence(1.0, 3), std::invalid_argument);
}

TEST(Stratified, TheWorkedSampleSizeIs283AllocatedAs243And41) {
  // METHODS.md §3.3: N = 600 and 400, S = 0.2 and 0.05, mean 1, 2% at z = 3.
  const StratumDesign strata[] = {{600, 0.2}, {400, 0.05}};
  const double n = neyman_sample_size(strata, 1.0, 0.02, 3.0);
  EXPECT_NEAR(n, 282.2, 0.05);
  const auto alloc = neyman_allocation(strata, uint64_t(std::ceil(n)));
  EXPECT_EQ(alloc, (std::vector<uint64_t>{243, 41}));
}

TEST(Stratified, AllocationRespectsMinimumsAndCapsAndReallocatesTheExcess) {
  // The small, very variable stratum would get 40 of 50 by Neyman's rule but has only 5 units:
  // it is taken whole and the other 45 go to the rest in proportion to N S.
  const StratumDesign strata[] = {{5, 100.0}, {100, 1.0}, {200, 1.0}, {50, 0.0}};
  const auto alloc = neyman_allocation(strata, 50);
  EXPECT_EQ(alloc[0], 5u);
  EXPECT_EQ(alloc[1], 15u);  // 45 x 100 / 300
  EXPECT_EQ(alloc[2], 30u);
  EXPECT_EQ(alloc[3], 2u);   // S = 0 still gets the minimum, to estimate its mean
  // No variation anywhere: proportional to size.
  const StratumDesign flat[] = {{300, 0}, {100, 0}};
  EXPECT_EQ(neyman_allocation(flat, 40), (std::vector<uint64_t>{30, 10}));
  // Asking for more than the population takes every unit; a one-unit stratum gets one.
  const StratumDesign tiny[] = {{3, 1.0}, {1, 5.0}};
  EXPECT_EQ(neyman_allocation(tiny, 10), (std::vector<uint64_t>{3, 1}));
  EXPECT_EQ(neyman_allocation(tiny, 2)[1], 1u);
}

TEST(Stratified, EstimatorsMatchAHandComputedCase) {
  // Stratum 1: N = 10, sample 1 2 3 (mean 2, s² = 1); stratum 2: N = 5, sample 10 12 (mean 11, s² = 2).
  // Var(T) = 100 (1 - 0.3) 1/3 + 25 (1 - 0.4) 2/2 = 23.333 + 15 = 38.333.
  const StratumSample s[] = {{10, {1, 2, 3}}, {5, {10, 12}}};
  const StratifiedEstimate e = stratified_estimate(s, 1.96);
  EXPECT_DOUBLE_EQ(e.total, 75.0);
  EXPECT_DOUBLE_EQ(e.mean, 5.0);
  EXPECT_NEAR(e.total_se, std::sqrt(38.0 + 1.0 / 3.0), 1e-12);
  EXPECT_NEAR(e.mean_se, std::sqrt(38.0 + 1.0 / 3.0) / 15, 1e-12);
  EXPECT_NEAR(e.half_width, 1.96 * e.total_se, 1e-12);
  EXPECT_NEAR(e.rel_error, e.half_width / 75.0, 1e-12);
  EXPECT_EQ(e.units, 15u);
  EXPECT_EQ(e.sampled, 5u);
  // Satterthwaite: (23.333 + 15)² / (23.333² / 2 + 15² / 1) = 2.9553.
  const double a = 70.0 / 3.0, b = 15.0;
  EXPECT_NEAR(e.df, (a + b) * (a + b) / (a * a / 2 + b * b), 1e-9);
  const StratifiedEstimate t = with_t_interval(e, 0.95);
  EXPECT_NEAR(t.z, t_for_confidence(0.95, e.df), 1e-12);
  EXPECT_NEAR(t.half_width, t.z * e.total_se, 1e-9);
  EXPECT_DOUBLE_EQ(t.total, e.total);
  // One stratum: the df is n - 1, whatever the finite-population correction.
  const StratumSample one[] = {{100, {1, 4, 2, 8}}};
  EXPECT_NEAR(stratified_estimate(one, 1.96).df, 3.0, 1e-12);
  // Nothing varies: infinite df, and the t interval stays of zero width.
  const StratumSample flat[] = {{100, {5, 5}}};
  const StratifiedEstimate f = stratified_estimate(flat, 1.96);
  EXPECT_TRUE(std::isinf(f.df));
  EXPECT_DOUBLE_EQ(with_t_interval(f, 0.95).half_width, 0.0);
}

TEST(Stratified, AStratumSampledWholeIsExactAndOneUnitOfAPartialStratumIsRefused) {
  const StratumSample whole[] = {{2, {4, 6}}, {1, {7}}};
  const StratifiedEstimate e = stratified_estimate(whole, 1.96);
  EXPECT_DOUBLE_EQ(e.total, 17.0);
  EXPECT_DOUBLE_EQ(e.total_se, 0.0);
  const StratumSample one[] = {{10, {1}}};
  EXPECT_THROW(stratified_estimate(one, 1.96), std::invalid_argument);
  const StratumSample none[] = {{10, {}}};
  EXPECT_THROW(stratified_estimate(none, 1.96), std::invalid_argument);
}

TEST(Stratified, SimpleRandomSamplesAreDistinctSortedAndSeeded) {
  const auto a = simple_random_sample(1000, 50, 7);
  EXPECT_EQ(a.size(), 50u);
  EXPECT_TRUE(std::is_sorted(a.begin(), a.end()));
  EXPECT_EQ(std::set<uint64_t>(a.begin(), a.end()).size(), 50u);
  EXPECT_LT(a.back(), 1000u);
  EXPECT_EQ(simple_random_sample(1000, 50, 7), a);
  EXPECT_NE(simple_random_sample(1000, 50, 8), a);
  const auto all = simple_random_sample(5, 5, 1);
  EXPECT_EQ(all, (std::vector<uint64_t>{0, 1, 2, 3, 4}));
  EXPECT_THROW(simple_random_sample(3, 4, 1), std::invalid_argument);
}

/// A fixed synthetic population: per stratum, values of the given mean and standard deviation,
/// each a centred sum of `uniforms` uniforms (close to normal, bounded), and their total.
struct SyntheticPopulation {
  std::vector<std::vector<double>> values;
  double truth = 0;
};
SyntheticPopulation synthetic_population(std::span<const uint64_t> sizes, std::span<const double> means,
                                         std::span<const double> spreads, int uniforms, uint64_t seed) {
  SyntheticPopulation p;
  p.values.resize(sizes.size());
  const double scale = std::sqrt(12.0 / uniforms);  // a sum of k uniforms has variance k / 12
  for (size_t h = 0; h < sizes.size(); ++h)
    for (uint64_t i = 0; i < sizes[h]; ++i) {
      double u = 0;
      for (int k = 0; k < uniforms; ++k) u += double(splitmix64(seed) >> 11) * 0x1.0p-53;
      p.values[h].push_back(means[h] + spreads[h] * (u - uniforms / 2.0) * scale);
      p.truth += p.values[h].back();
    }
  return p;
}

/// A stratified simple random sample of `alloc[h]` units per stratum, stream `seed`.
std::vector<StratumSample> draw_sample(const SyntheticPopulation& p, std::span<const uint64_t> alloc, uint64_t seed) {
  std::vector<StratumSample> sample(p.values.size());
  for (size_t h = 0; h < p.values.size(); ++h) {
    sample[h].size = p.values[h].size();
    for (const uint64_t i : simple_random_sample(p.values[h].size(), alloc[h], mix64(seed * 3 + h)))
      sample[h].values.push_back(p.values[h][i]);
  }
  return sample;
}

TEST(Stratified, NinetyFivePercentIntervalsCoverAKnownTotalIn93To97PercentOf1000Draws) {
  // A fixed skewed population: three strata of different sizes, means and spreads.
  const uint64_t sizes[] = {1200, 600, 200};
  const double means[] = {10, 40, 100}, spreads[] = {2, 10, 30};
  const SyntheticPopulation pop = synthetic_population(sizes, means, spreads, 4, 42);
  std::vector<StratumDesign> design;
  for (size_t h = 0; h < 3; ++h) design.push_back({sizes[h], spreads[h]});
  const auto alloc = neyman_allocation(design, 150);
  const double z = z_for_confidence(0.95);
  int covered = 0;
  for (uint64_t draw = 0; draw < 1000; ++draw) {
    const StratifiedEstimate e = stratified_estimate(draw_sample(pop, alloc, draw), z);
    covered += std::abs(e.total - pop.truth) <= e.half_width;
  }
  EXPECT_GE(covered, 930);
  EXPECT_LE(covered, 970);
}

TEST(Stratified, WithTwoUnitsPerStratumZIntervalsUndercoverAndSatterthwaiteTIntervalsDoNot) {
  // The pilot sample SimProf starts from: two units in each of three strata. s_h from two units
  // is so noisy that z-based 95% intervals cover far less often; Student's t at the
  // Satterthwaite df restores (conservatively) the nominal coverage.
  const uint64_t sizes[] = {300, 200, 100}, two[] = {2, 2, 2};
  const double means[] = {10, 20, 40}, spreads[] = {2, 3, 6};
  const SyntheticPopulation pop = synthetic_population(sizes, means, spreads, 12, 7);
  int z_covered = 0, t_covered = 0;
  for (uint64_t draw = 0; draw < 1000; ++draw) {
    const StratifiedEstimate e = stratified_estimate(draw_sample(pop, two, draw + 1000), z_for_confidence(0.95));
    z_covered += std::abs(e.total - pop.truth) <= e.half_width;
    t_covered += std::abs(e.total - pop.truth) <= with_t_interval(e, 0.95).half_width;
  }
  EXPECT_LE(z_covered, 880);
  EXPECT_GE(t_covered, 930);
}

}  // namespace
}  // namespace strobe::sampling
