// SimProf's training across inputs: the file round-trips and refuses what it cannot read, a
// phase's measured cycles per instruction and its standard error match a hand computation, a
// new input's units go to the training's nearest centre by feature name, Eq. 38 decides which
// phases are reused, and a reused phase's cycles scale with the new input's instructions.
#include "sampling/simprof/training.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "common/error.h"

namespace strobe::sampling::simprof {
namespace {

Training two_phase_training() {
  Training t;
  t.unit_insts = 0;
  t.kernel_weight = 0;
  t.features = {"k@0", "k@8"};
  t.centres.resize(2, 2);
  t.centres << 100, 0, 0, 100;
  t.kernels = {{"k", 42}};
  TrainedPhase a;
  a.metric = {10, 2.0, 0.2};
  a.units = 10, a.sampled = 3, a.insts = 1000, a.proxy = 1800;
  a.cpi = {2.0, 0.05, 2};
  a.calibration = {1.1, 0.02, 2};
  TrainedPhase b;
  b.metric = {5, 4.0, 0.4};
  b.units = 5, b.sampled = 5, b.insts = 500, b.proxy = 2000;
  b.cpi.ratio = 4.0;  // measured whole: exact, df infinite
  b.calibration.ratio = 1.0;
  t.phases = {a, b};
  return t;
}

TEST(SimprofTraining, AFileRoundTripsEveryField) {
  const Training t = two_phase_training();
  const Training r = decode_training(encode_training(t), "t.json");
  EXPECT_EQ(r.features, t.features);
  EXPECT_EQ(r.kernels, t.kernels);
  EXPECT_TRUE(r.centres.isApprox(t.centres));
  ASSERT_EQ(r.phases.size(), 2u);
  EXPECT_EQ(r.phases[0].sampled, 3u);
  EXPECT_DOUBLE_EQ(r.phases[0].cpi.se, 0.05);
  EXPECT_DOUBLE_EQ(r.phases[0].cpi.df, 2);
  EXPECT_DOUBLE_EQ(r.phases[0].calibration.ratio, 1.1);
  EXPECT_DOUBLE_EQ(r.phases[0].proxy, 1800);
  EXPECT_TRUE(std::isinf(r.phases[1].cpi.df));
  EXPECT_DOUBLE_EQ(r.phases[1].metric.sd, 0.4);
}

TEST(SimprofTraining, AFileThatIsNotATrainingIsRefusedByName) {
  auto message = [](const std::string& text) {
    try {
      decode_training(text, "bad.json");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(message("{").find("bad.json: not JSON"), std::string::npos);
  EXPECT_NE(message(R"({"format": "other"})").find("not a training file"), std::string::npos);
  std::string text = encode_training(two_phase_training());
  std::string newer = text;
  newer.replace(newer.find("\"version\": 2"), 12, "\"version\": 9");
  EXPECT_NE(message(newer).find("version 9"), std::string::npos);
  std::string short_centre = text;
  short_centre.replace(short_centre.find("\"features\": ["), 13, "\"features\": [\"x\",");
  EXPECT_NE(message(short_centre).find("centre coordinates for 3 features"), std::string::npos);
}

TEST(SimprofTraining, APhasesRatiosAndTheirErrorsAreTheRatioEstimators) {
  // Three of four units measured: y = 20, 44, 30 on x = 10, 20, 15; X = 60.
  // R = 94 / 45; residuals d = y - R x; SE(R) = SE(T̂) / X, SE(T̂) = sqrt(N² (1 - 3/4) s_d² / 3).
  const double metric[] = {2.0, 2.2, 2.0, 2.1};
  const double y[] = {20, 44, 30}, x[] = {10, 20, 15}, predicted[] = {20, 40, 30};
  const TrainedPhase p = train_phase(metric, 60, 120, y, x, predicted);
  const double r = 94.0 / 45.0;
  double ss = 0;
  for (int i = 0; i < 3; ++i) ss += std::pow(y[i] - r * x[i], 2);
  const double se_total = std::sqrt(16 * (1 - 0.75) * (ss / 2) / 3);
  EXPECT_EQ(p.units, 4u);
  EXPECT_EQ(p.sampled, 3u);
  EXPECT_DOUBLE_EQ(p.cpi.ratio, r);
  EXPECT_NEAR(p.cpi.se, se_total / 60, 1e-12);
  EXPECT_DOUBLE_EQ(p.cpi.df, 2);
  // Against the predictions: 94 / 90 cycles per predicted cycle.
  EXPECT_DOUBLE_EQ(p.calibration.ratio, 94.0 / 90.0);
  EXPECT_DOUBLE_EQ(p.proxy, 120);
  EXPECT_NEAR(p.metric.mean, 2.075, 1e-12);
}

TEST(SimprofTraining, APhaseMeasuredWholeHasAnExactRatio) {
  const double y[] = {20, 44}, x[] = {10, 20};
  const RatioFit f = fit_ratio(2, y, x, 30);
  EXPECT_DOUBLE_EQ(f.ratio, 64.0 / 30.0);
  EXPECT_EQ(f.se, 0);
  EXPECT_TRUE(std::isinf(f.df));
  EXPECT_EQ(fit_ratio(2, {}, {}, 30).ratio, 0);  // nothing measured
}

TEST(SimprofTraining, AReusedPhaseScalesWithTheNewInputsInstructions) {
  const Training t = two_phase_training();
  const EstimatedPart e = transferred(t.phases[0].cpi, 3000);
  EXPECT_DOUBLE_EQ(e.total, 6000);
  EXPECT_DOUBLE_EQ(e.variance, std::pow(0.05 * 3000, 2));
  EXPECT_DOUBLE_EQ(e.df, 2);
}

TEST(SimprofTraining, SignaturesAreProjectedOntoTheTrainingsFeaturesByName) {
  Signatures sig;
  sig.names = {"k@8", "other@0", "k@0"};
  sig.x.resize(1, 3);
  sig.x << 7, 9, 3;
  const std::string features[] = {"k@0", "k@8", "k@16"};
  const Eigen::MatrixXd x = project(sig, features);
  ASSERT_EQ(x.cols(), 3);
  EXPECT_EQ(x(0, 0), 3);
  EXPECT_EQ(x(0, 1), 7);
  EXPECT_EQ(x(0, 2), 0);  // a feature this input never ran
}

Signatures units_near(const std::vector<std::pair<double, double>>& rows, const std::string& kernel = "k") {
  Signatures sig;
  sig.names = {kernel + "@0", kernel + "@8"};
  sig.x.resize(Eigen::Index(rows.size()), 2);
  for (size_t i = 0; i < rows.size(); ++i) sig.x.row(Eigen::Index(i)) << rows[i].first, rows[i].second;
  return sig;
}

TEST(SimprofTraining, AnUnchangedPhaseIsReusedAndAMovedOneIsSimulated) {
  const Training t = two_phase_training();
  // Phase 0's units keep the training's CPI; phase 1's mean moved from 4.0 to 5.0 (25%).
  const Signatures sig = units_near({{90, 5}, {110, 0}, {5, 95}, {0, 120}});
  const std::string kernel[] = {"k", "k", "k", "k"};
  const double metric[] = {1.8, 2.2, 5.0, 5.0};
  const Reuse r = apply_training(t, sig, kernel, metric, 0, {{"k", 42}}, "t.json");
  EXPECT_EQ(r.phase, (std::vector<int>{0, 0, 1, 1}));
  EXPECT_FALSE(r.unseen);
  EXPECT_EQ(r.reused, (std::vector<uint8_t>{1, 0}));
  EXPECT_TRUE(r.verdict[1].sensitive);
  EXPECT_EQ(r.verdict[1].reason, "mean moved by 25.0%");
  EXPECT_NEAR(r.input[0].mean, 2.0, 1e-12);
}

TEST(SimprofTraining, TheColdStartUnitsAreLeftOutOfTheMoments) {
  const Training t = two_phase_training();
  // The first unit (cold caches, its own stratum) would move phase 0's mean by 50%.
  const Signatures sig = units_near({{100, 0}, {90, 5}, {110, 0}});
  const std::string kernel[] = {"k", "k", "k"};
  const double metric[] = {5.0, 1.8, 2.2};
  EXPECT_EQ(apply_training(t, sig, kernel, metric, 1, {{"k", 42}}, "t.json").reused[0], 1);
  EXPECT_EQ(apply_training(t, sig, kernel, metric, 0, {{"k", 42}}, "t.json").reused[0], 0);
}

TEST(SimprofTraining, AKernelTheTrainingNeverSawIsSimulatedAfresh) {
  const Training t = two_phase_training();
  Signatures sig = units_near({{100, 0}, {90, 5}, {0, 0}});
  const std::string kernel[] = {"k", "k", "new"};
  const double metric[] = {1.8, 2.2, 9.0};
  const Reuse r = apply_training(t, sig, kernel, metric, 0, {{"k", 42}, {"new", 7}}, "t.json");
  EXPECT_TRUE(r.unseen);
  EXPECT_EQ(r.phase[2], 2);  // past the training's phases
  EXPECT_EQ(r.reused, (std::vector<uint8_t>{1, 0}));  // phase 1 has no unit here: nothing to reuse
}

TEST(SimprofTraining, AKernelWithOtherCodeIsRefusedNamingTheTraining) {
  const Training t = two_phase_training();
  const Signatures sig = units_near({{100, 0}});
  const std::string kernel[] = {"k"};
  const double metric[] = {2.0};
  try {
    apply_training(t, sig, kernel, metric, 0, {{"k", 43}}, "t.json");
    FAIL() << "accepted other code";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("t.json: kernel k has other code"), std::string::npos);
  }
}

TEST(SimprofTraining, IndependentPartsAddTotalsAndVariancesWithSatterthwaiteDf) {
  StratifiedEstimate e;
  e.total = 100, e.total_se = 3, e.df = 4, e.units = 10;
  const EstimatedPart parts[] = {{50, 16, 2}, {20, 0}};
  const StratifiedEstimate c = with_parts(e, parts, 2.0);
  EXPECT_DOUBLE_EQ(c.total, 170);
  EXPECT_DOUBLE_EQ(c.total_se, 5);
  EXPECT_DOUBLE_EQ(c.df, 625.0 / (81.0 / 4 + 256.0 / 2));
  EXPECT_DOUBLE_EQ(c.half_width, 10);
  EXPECT_DOUBLE_EQ(c.mean, 17);
}

}  // namespace
}  // namespace strobe::sampling::simprof
