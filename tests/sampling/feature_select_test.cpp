// Univariate feature selection: the columns most correlated with the target, either sign, first;
// constant columns dropped; a constant target falls back to variance and says so.
#include "sampling/numeric/feature_select.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace strobe::sampling {
namespace {

TEST(FeatureSelect, KeepsTheMostCorrelatedColumnsEitherSignAndDropsConstantOnes) {
  // y = 1..6; col 0 = noise, col 1 = -y (r = -1), col 2 constant, col 3 = y + small noise.
  Eigen::MatrixXd x(6, 4);
  Eigen::VectorXd y(6);
  const double noise[] = {3, -1, 4, 1, -5, 9};
  for (int i = 0; i < 6; ++i) {
    y[i] = i + 1;
    x.row(i) << noise[i], -(i + 1), 7, (i + 1) + 0.1 * (i % 2);
  }
  const FeatureSelection s = select_k_best(x, y, 2);
  EXPECT_EQ(s.columns, (std::vector<size_t>{1, 3}));
  EXPECT_NEAR(s.r[0], -1.0, 1e-12);
  EXPECT_GT(s.r[1], 0.99);
  EXPECT_EQ(s.constant, 1u);
  EXPECT_FALSE(s.target_constant);
  EXPECT_EQ(select_k_best(x, y, 100).columns.size(), 3u);  // every non-constant column
}

TEST(FeatureSelect, AConstantTargetKeepsTheMostVariableColumnsAndSaysSo) {
  Eigen::MatrixXd x(4, 3);
  x << 1, 0, 5, 2, 0, 50, 3, 0, 500, 4, 0, 5000;
  const FeatureSelection s = select_k_best(x, Eigen::VectorXd::Constant(4, 2.0), 1);
  EXPECT_TRUE(s.target_constant);
  EXPECT_EQ(s.columns, (std::vector<size_t>{2}));
  EXPECT_THROW(select_k_best(x, Eigen::VectorXd::Zero(3), 1), std::invalid_argument);
}

}  // namespace
}  // namespace strobe::sampling
