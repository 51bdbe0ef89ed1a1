// Gaussian KDE and its minima against scipy and scikit-learn: densities at Scott's rule and at
// bandwidth 1 (scipy.stats.gaussian_kde, sklearn KernelDensity on the same points), the minima
// scipy.signal.argrelextrema(values, numpy.less_equal) returns, the valleys of a bimodal sample,
// and the population coefficient of variation numpy gives.
#include "sampling/numeric/kde.h"

#include <gtest/gtest.h>

#include <vector>

namespace strobe::sampling {
namespace {

const std::vector<double> kPoints{1, 2, 4, 5, 5, 9};

TEST(Kde, ScottBandwidthAndDensitiesMatchScipy) {
  const double h = scott_bandwidth(kPoints);
  EXPECT_NEAR(h, 1.9600408558294435, 1e-12);
  const std::vector<double> want{0.08268466, 0.10494866, 0.12547013, 0.11659943, 0.11659943, 0.04375512};
  const std::vector<double> got = gaussian_kde(kPoints, h, kPoints);
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-8) << i;
  EXPECT_EQ(scott_bandwidth(std::vector<double>{3}), 0);
  EXPECT_EQ(scott_bandwidth(std::vector<double>{3, 3, 3}), 0);
}

TEST(Kde, UnitBandwidthMatchesScikitLearn) {
  const std::vector<double> want{0.10760209, 0.11729461, 0.15688467, 0.17409247, 0.17409247, 0.06653524};
  const std::vector<double> got = gaussian_kde(kPoints, 1.0, kPoints);
  for (size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], 1e-8) << i;
  // Equal points get bit-identical densities: flat runs are compared exactly.
  EXPECT_EQ(got[3], got[4]);
  EXPECT_EQ(minima_at_points(got), (std::vector<size_t>{0, 5}));
}

TEST(Kde, MinimaAtPointsFollowArgrelextremaLessEqual) {
  // scipy.signal.argrelextrema([3, 1, 1, 2, 5, 5, 4], numpy.less_equal) == [1, 2, 6]: both
  // elements of the flat bottom, and the last element compared with itself past the edge.
  EXPECT_EQ(minima_at_points(std::vector<double>{3, 1, 1, 2, 5, 5, 4}), (std::vector<size_t>{1, 2, 6}));
  EXPECT_EQ(minima_at_points(std::vector<double>{2}), (std::vector<size_t>{0}));
  EXPECT_TRUE(minima_at_points(std::vector<double>{}).empty());
}

TEST(Kde, ValleysLieBetweenModes) {
  const std::vector<double> x{1000, 1010, 990, 1005, 995, 5000, 5020, 4980, 5010};
  const std::vector<double> v = density_valleys(x, scott_bandwidth(x));
  ASSERT_EQ(v.size(), 1u);
  EXPECT_GT(v[0], 1010);
  EXPECT_LT(v[0], 4980);
  // Far-apart modes at a narrow bandwidth: the density underflows to a flat zero between them,
  // which is one valley, at its middle.
  const std::vector<double> flat = density_valleys(std::vector<double>{1000, 1000, 1000, 5000, 5000}, 5.0);
  ASSERT_EQ(flat.size(), 1u);
  EXPECT_NEAR(flat[0], 3000, 200);
  // One mode, or no spread: nothing to cut.
  EXPECT_TRUE(density_valleys(std::vector<double>{1, 2, 3, 4}, 2.0).empty());
  EXPECT_TRUE(density_valleys(std::vector<double>{7, 7}, 1.0).empty());
}

TEST(Kde, CoefficientOfVariationIsNumpys) {
  EXPECT_NEAR(coefficient_of_variation(kPoints), 0.5908573652206622, 1e-12);
  EXPECT_EQ(coefficient_of_variation(std::vector<double>{4}), 0);
  EXPECT_EQ(coefficient_of_variation(std::vector<double>{0, 0}), 0);
  EXPECT_EQ(coefficient_of_variation(std::vector<double>{5, 5, 5}), 0);
}

}  // namespace
}  // namespace strobe::sampling
