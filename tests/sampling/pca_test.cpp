// Tests of pca.
#include <gtest/gtest.h>

#include <cmath>

#include "sampling/numeric/pca.h"

namespace strobe::sampling {
namespace {

/// n rows of (t, 3t + 1 + small wobble): almost all variance on one axis.
Eigen::MatrixXd correlated(int n) {
  Eigen::MatrixXd X(n, 2);
  for (int i = 0; i < n; ++i) {
    const double t = i * 0.5;
    X(i, 0) = t;
    X(i, 1) = 3 * t + 1 + 0.01 * std::sin(i * 1.3);
  }
  return X;
}

TEST(Pca, CorrelatedDataCollapsesToOneComponent) {
  const PcaResult r = pca(correlated(200), 0.95);
  EXPECT_EQ(r.components, 1);
  ASSERT_EQ(r.explained_ratio.size(), 2);
  EXPECT_GT(r.explained_ratio[0], 0.99);
  EXPECT_EQ(r.projected.rows(), 200);
  EXPECT_EQ(r.projected.cols(), 1);
  // Sign normalisation: both loadings positive, so the projection grows with t.
  EXPECT_LT(r.projected(0, 0), r.projected(199, 0));
}

TEST(Pca, ExplainedRatioSumsToOneAndDescends) {
  Eigen::MatrixXd X(50, 4);
  for (int i = 0; i < 50; ++i)
    X.row(i) << std::sin(i * 0.7), i * 0.1, std::cos(i * 1.9) * 5, (i % 7) - 3.0;
  const PcaResult r = pca(X, 1.0);
  EXPECT_NEAR(r.explained_ratio.sum(), 1.0, 1e-12);
  for (int k = 1; k < 4; ++k) EXPECT_GE(r.explained_ratio[k - 1], r.explained_ratio[k]);
  EXPECT_EQ(r.components, 4);
  EXPECT_EQ(r.projected.cols(), 4);
}

TEST(Pca, ConstantColumnsGiveZeros) {
  Eigen::MatrixXd X = Eigen::MatrixXd::Constant(10, 3, 0.1);
  const PcaResult r = pca(X, 0.9);
  EXPECT_EQ(r.components, 1);
  EXPECT_EQ(r.projected, Eigen::MatrixXd::Zero(10, 1));
  EXPECT_EQ(r.explained_ratio, Eigen::VectorXd::Zero(3));
}

TEST(Pca, ConstantColumnCarriesNoVariance) {
  Eigen::MatrixXd X = correlated(100);
  X.conservativeResize(100, 3);
  X.col(2).setConstant(1e9 + 0.1);
  const PcaResult r = pca(X, 1.0);
  EXPECT_NEAR(r.explained_ratio.sum(), 1.0, 1e-12);
  EXPECT_EQ(r.explained_ratio[2], 0.0);
  EXPECT_EQ(r.components, 2);  // the null direction is never needed to reach 100%
}

TEST(Pca, DeterministicAndSignNormalised) {
  const Eigen::MatrixXd X = correlated(100);
  const PcaResult a = pca(X, 1.0), b = pca(-X, 1.0);
  EXPECT_EQ(a.projected, pca(X, 1.0).projected);
  // Negating every feature flips the standardised data, so the projection flips too
  // while the normalised loadings stay the same.
  EXPECT_TRUE(a.projected.isApprox(-b.projected, 1e-9));
}

TEST(Pca, ProjectedComponentsAreUncorrelated) {
  Eigen::MatrixXd X(60, 3);
  for (int i = 0; i < 60; ++i) X.row(i) << i, std::sin(i * 0.3) * 10, i * 0.5 + std::cos(i);
  const PcaResult r = pca(X, 1.0);
  const Eigen::MatrixXd cov = r.projected.transpose() * r.projected / 60.0;
  for (int a = 0; a < r.components; ++a) {
    for (int b = 0; b < r.components; ++b) {
      if (a == b) continue;
      EXPECT_NEAR(cov(a, b), 0.0, 1e-9);
    }
  }
}

}  // namespace
}  // namespace strobe::sampling
