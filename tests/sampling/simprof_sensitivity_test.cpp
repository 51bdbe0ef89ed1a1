// SimProf's input-sensitivity test (Eq. 38): a phase is sensitive when its mean or its spread
// moved by more than 10%, the undefined ratios are handled as documented, units are classified
// to the nearest centre, and a phase is insensitive only if no reference input flags it.
#include "sampling/simprof/sensitivity.h"

#include <gtest/gtest.h>

#include <limits>
#include <vector>

namespace strobe::sampling::simprof {
namespace {

TEST(SimprofSensitivity, TenPercentInMeanOrSpreadFlagsAPhase) {
  const PhaseMoments train{10, 2.0, 0.5};
  EXPECT_FALSE(phase_sensitivity(train, {8, 2.19, 0.54}).sensitive);  // 9.5% and 8%
  const Sensitivity mean = phase_sensitivity(train, {8, 2.3, 0.5});
  EXPECT_TRUE(mean.sensitive);
  EXPECT_EQ(mean.reason, "mean moved by 15.0%");
  const Sensitivity spread = phase_sensitivity(train, {8, 2.0, 0.6});
  EXPECT_TRUE(spread.sensitive);
  EXPECT_EQ(spread.reason, "spread moved by 20.0%");
  EXPECT_TRUE(phase_sensitivity(train, {8, 2.0, 0.6}, 0.25).sensitive == false);  // a looser threshold
}

TEST(SimprofSensitivity, UndefinedRatiosAreHandledAsDocumented) {
  EXPECT_FALSE(phase_sensitivity({10, 2.0, 0.5}, {0, 0, 0}).sensitive);    // no unit of the input in it
  EXPECT_FALSE(phase_sensitivity({10, 2.0, 0.0}, {5, 2.0, 1e-12}).sensitive);  // a constant phase's noise
  EXPECT_TRUE(phase_sensitivity({10, 2.0, 0.0}, {5, 2.0, 0.5}).sensitive);  // 25% of the mean
  EXPECT_TRUE(phase_sensitivity({10, 0.0, 0.0}, {5, 0.1, 0.0}).sensitive);
}

TEST(SimprofSensitivity, ATrainingSpreadOfRoundingNoiseIsAConstantPhase) {
  // Regression: gaussian's phase of equal launches had a spread of 3e-17 from summing equal
  // CPIs; a new input's 1e-9 read as a change of 10^16 percent.
  EXPECT_FALSE(phase_sensitivity({70, 2.0, 3e-17}, {70, 2.0, 1e-9}).sensitive);
  const Sensitivity s = phase_sensitivity({70, 2.0, 3e-17}, {70, 2.0, 0.5});
  EXPECT_TRUE(s.sensitive);
  EXPECT_EQ(s.reason, "spread moved from 0 to 25.0% of the mean");
}

TEST(SimprofSensitivity, MomentsAreTheMeanAndPopulationSpread) {
  const double v[] = {1, 2, 3, 4};
  const PhaseMoments m = moments(v);
  EXPECT_EQ(m.units, 4u);
  EXPECT_DOUBLE_EQ(m.mean, 2.5);
  EXPECT_DOUBLE_EQ(m.sd, std::sqrt(1.25));
}

TEST(SimprofSensitivity, UnitsGoToTheNearestCentreAndAnyInputFlagsAPhase) {
  Eigen::MatrixXd centres(2, 1);
  centres << 0, 10;
  Eigen::MatrixXd units(3, 1);
  units << 1, 9, 5;  // 5 is equidistant: the lower index
  EXPECT_EQ(nearest_centres(units, centres), (std::vector<int>{0, 1, 0}));

  // Training: phase 0 has 1.0 and 1.2 (mean 1.1, spread 0.1), phase 1 has 5.0 and 5.4.
  const int train_phase[] = {0, 0, 1, 1};
  const double train_metric[] = {1.0, 1.2, 5.0, 5.4};
  // Input A behaves the same in both phases; input B's second phase is 38% slower.
  Eigen::MatrixXd a(4, 1), b(4, 1);
  a << 0.5, 0.6, 9.5, 9.6;
  b << 0.2, 0.3, 10.3, 10.4;
  const std::vector<double> a_metric{1.0, 1.2, 5.0, 5.4}, b_metric{1.0, 1.2, 7.0, 7.4};
  const Eigen::MatrixXd only_a[] = {a};
  const std::vector<double> only_a_metric[] = {a_metric};
  EXPECT_EQ(sensitive_phases(train_phase, train_metric, centres, only_a, only_a_metric), (std::vector<bool>{false, false}));
  const Eigen::MatrixXd both[] = {a, b};
  const std::vector<double> both_metric[] = {a_metric, b_metric};
  EXPECT_EQ(sensitive_phases(train_phase, train_metric, centres, both, both_metric), (std::vector<bool>{false, true}));
}

}  // namespace
}  // namespace strobe::sampling::simprof

namespace strobe::sampling::simprof {
namespace {

TEST(SimprofSensitivity, EveryUnitGetsAPhaseWhenEveryDistanceOverflows) {
  // A damaged training's centres at 1e300: every squared distance is infinite. The unit kept no
  // phase (-1), and SimProf indexed its phases with it and crashed (found by FileFuzz).
  Eigen::MatrixXd units(2, 2), centres(2, 2);
  units << 1, 2, 3, 4;
  centres << 1e300, 1e300, -1e300, 1e300;
  EXPECT_EQ(nearest_centres(units, centres), (std::vector<int>{0, 0}));
  centres(1, 0) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(nearest_centres(units, centres), (std::vector<int>{0, 0}));
  centres.row(1) << 1, 2;  // a finite distance still wins
  EXPECT_EQ(nearest_centres(units, centres), (std::vector<int>{1, 1}));
  EXPECT_EQ(nearest_centres(units, Eigen::MatrixXd(0, 2)), (std::vector<int>{-1, -1}));
}

}  // namespace
}  // namespace strobe::sampling::simprof
