// MEGsim's features, normalisation and weighting, frame selection, extrapolation and the random
// baseline (METHODS.md §4), on constructed frame sequences whose phases are known.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "sampling/megsim/frame_features.h"
#include "sampling/megsim/frame_selection.h"

namespace strobe::sampling::megsim {
namespace {

TEST(MegsimFeatures, ColumnsAreVertexThenPixelProgramsThenPrimitivesWithMissingWorkZero) {
  std::vector<FrameWork> f(2);
  f[0].vertex = {{"b", 10}, {"a", 30}};
  f[0].pixel = {{"p", 100}};
  f[0].primitives = 3;
  f[1].vertex = {{"a", 60}};
  f[1].pixel = {{"q", 300}};
  f[1].primitives = 1;
  const FeatureMatrix m = frame_features(f, Normalisation::GroupTotal, StageWeights{});
  EXPECT_EQ(m.columns, (std::vector<std::string>{"vs:a", "vs:b", "ps:p", "ps:q", "prim"}));
  EXPECT_EQ(m.vertex_columns, 2);
  EXPECT_EQ(m.pixel_columns, 2);
  // Group totals: vertex 100, pixel 400, primitives 4; weights 0.108 / 0.745 / 0.147.
  EXPECT_DOUBLE_EQ(m.x(0, 0), 30 * 0.108 / 100);
  EXPECT_DOUBLE_EQ(m.x(0, 1), 10 * 0.108 / 100);
  EXPECT_DOUBLE_EQ(m.x(1, 1), 0.0);
  EXPECT_DOUBLE_EQ(m.x(0, 2), 100 * 0.745 / 400);
  EXPECT_DOUBLE_EQ(m.x(1, 3), 300 * 0.745 / 400);
  EXPECT_DOUBLE_EQ(m.x(0, 4), 3 * 0.147 / 4);
}

TEST(MegsimFeatures, EachGroupCarriesItsWeightAsTotalMassUnderEitherNormalisation) {
  std::vector<FrameWork> f(5);
  for (size_t i = 0; i < f.size(); ++i) {
    f[i].vertex = {{"v", double(i + 1)}, {"w", 7.0 * double(i)}};
    f[i].pixel = {{"p", 1000.0 / double(i + 1)}};
    f[i].primitives = double(10 * i + 2);
  }
  const StageWeights w{0.2, 0.5, 0.3};
  for (const Normalisation n : {Normalisation::GroupTotal, Normalisation::Column}) {
    const FeatureMatrix m = frame_features(f, n, w);
    EXPECT_NEAR(m.x.leftCols(2).sum(), 0.2, 1e-12);
    EXPECT_NEAR(m.x.col(2).sum(), 0.5, 1e-12);
    EXPECT_NEAR(m.x.col(3).sum(), 0.3, 1e-12);
  }
  // Column normalisation gives each vertex column half the group's weight.
  const FeatureMatrix c = frame_features(f, Normalisation::Column, w);
  EXPECT_NEAR(c.x.col(0).sum(), 0.1, 1e-12);
  EXPECT_NEAR(c.x.col(1).sum(), 0.1, 1e-12);
}

TEST(MegsimFeatures, AGroupWithNoWorkStaysZeroAndBadWeightsAreRefused) {
  std::vector<FrameWork> f(3);
  for (auto& fr : f) fr.pixel = {{"p", 5}};
  const FeatureMatrix m = frame_features(f, Normalisation::GroupTotal, StageWeights{});
  EXPECT_EQ(m.columns, (std::vector<std::string>{"ps:p", "prim"}));
  EXPECT_DOUBLE_EQ(m.x.col(1).sum(), 0.0);
  EXPECT_THROW(frame_features(f, Normalisation::GroupTotal, StageWeights{-1, 1, 1}), std::invalid_argument);
  EXPECT_THROW(frame_features(f, Normalisation::GroupTotal, StageWeights{NAN, 1, 1}), std::invalid_argument);
}

TEST(MegsimFeatures, ActivityWeightsAreEachStagesShareAndIdleOrBadActivityIsRefused) {
  const StageWeights w = weights_from_activity({300, 600, 100});
  EXPECT_DOUBLE_EQ(w.geometry, 0.3);
  EXPECT_DOUBLE_EQ(w.raster, 0.6);
  EXPECT_DOUBLE_EQ(w.tiling, 0.1);
  const StageWeights only_raster = weights_from_activity({0, 5, 0});
  EXPECT_DOUBLE_EQ(only_raster.raster, 1.0);
  EXPECT_DOUBLE_EQ(only_raster.geometry + only_raster.tiling, 0.0);
  EXPECT_THROW(weights_from_activity({0, 0, 0}), std::invalid_argument);
  EXPECT_THROW(weights_from_activity({-1, 2, 0}), std::invalid_argument);
  EXPECT_THROW(weights_from_activity({INFINITY, 2, 0}), std::invalid_argument);
}

/// A sequence of phases: each phase its own programs and primitive count, `len` frames long,
/// with a small deterministic frame-to-frame wobble; and each frame's "cycles", a nonlinear
/// function of its work that the selection never sees.
struct Sequence {
  std::vector<FrameWork> frames;
  std::vector<double> cycles;
  std::vector<int> phase;
};

Sequence phased_sequence(double wobble_amplitude) {
  struct Phase {
    const char* vs;
    const char* ps;
    double vs_work, ps_work, prims;
    int len;
  };
  // A menu, gameplay, a cut-scene, then gameplay again (the same programs as before).
  const Phase phases[] = {{"menu_vs", "menu_ps", 200, 5000, 40, 30},
                          {"world_vs", "world_ps", 90000, 700000, 30000, 60},
                          {"scene_vs", "scene_ps", 20000, 2000000, 8000, 25},
                          {"world_vs", "world_ps", 90000, 700000, 30000, 45}};
  Sequence s;
  int frame = 0;
  for (int p = 0; p < 4; ++p)
    for (int i = 0; i < phases[p].len; ++i, ++frame) {
      const double wobble = 1 + wobble_amplitude * std::sin(0.9 * frame);
      FrameWork f;
      f.vertex[phases[p].vs] = phases[p].vs_work * wobble;
      f.pixel[phases[p].ps] = phases[p].ps_work * wobble;
      f.primitives = phases[p].prims * wobble;
      s.frames.push_back(f);
      // Bottleneck-style time: the slower of geometry and fragments, plus a fixed overhead.
      s.cycles.push_back(std::max(3.0 * f.primitives + 0.5 * phases[p].vs_work * wobble, 0.8 * phases[p].ps_work * wobble) + 1000);
      s.phase.push_back(p == 3 ? 1 : p);
    }
  return s;
}

/// The sum of `cycles` over every frame, and MEGsim's estimate of it from the representatives.
std::pair<double, double> full_and_estimate(const Sequence& s, const FrameSelection& sel) {
  std::vector<double> rep;
  for (const FrameCluster& c : sel.clusters) rep.push_back(s.cycles[c.representative]);
  double full = 0;
  for (const double c : s.cycles) full += c;
  return {full, extrapolate(sel, rep)};
}

TEST(MegsimSelection, RecoversTheKnownPhasesOfAConstructedSequenceExactly) {
  // Frames identical within each phase: the BIC rule finds the three distinct phases (the two
  // gameplay stretches are one), and three frames give the total exactly.
  const Sequence s = phased_sequence(0);
  const FeatureMatrix m = frame_features(s.frames, Normalisation::GroupTotal, StageWeights{});
  const FrameSelection sel = select_frames(m.x, SelectionOptions{});
  ASSERT_EQ(sel.clusters.size(), 3u) << "menu, world (both stretches) and cut-scene; BIC "
                                      << ::testing::PrintToString(sel.choice.bic);
  std::set<int> seen;
  for (const FrameCluster& c : sel.clusters) {
    const int p = s.phase[c.members.front()];
    for (const size_t f : c.members) EXPECT_EQ(s.phase[f], p) << "frame " << f;
    seen.insert(p);
  }
  EXPECT_EQ(seen.size(), 3u);
  EXPECT_EQ(sel.clusters[1].members.size(), 105u) << "both world stretches";
  const auto [full, estimate] = full_and_estimate(s, sel);
  EXPECT_NEAR(estimate / full, 1.0, 1e-12);
}

TEST(MegsimSelection, FramesThatDriftWithinAPhaseSplitItButNoClusterCrossesPhases) {
  // A 2% frame-to-frame drift: one pooled variance rewards every split of a phase's smooth
  // drift, so the BIC keeps rising and T = 0.85 settles on more clusters than phases, as the
  // paper's 23-47 representatives per game suggest. No cluster mixes phases, and the
  // extrapolated cycles of a nonlinear (bottleneck) cost come within 1% from a few frames.
  const Sequence s = phased_sequence(0.02);
  const FeatureMatrix m = frame_features(s.frames, Normalisation::GroupTotal, StageWeights{});
  const FrameSelection sel = select_frames(m.x, SelectionOptions{});
  EXPECT_GT(sel.clusters.size(), 3u) << ::testing::PrintToString(sel.choice.bic);
  EXPECT_LE(sel.clusters.size(), 20u) << "at least 8x fewer frames";
  std::set<int> seen;
  size_t members = 0;
  for (const FrameCluster& c : sel.clusters) {
    const int p = s.phase[c.members.front()];
    for (const size_t f : c.members) EXPECT_EQ(s.phase[f], p) << "frame " << f;
    EXPECT_EQ(s.phase[c.representative], p);
    seen.insert(p);
    members += c.members.size();
  }
  EXPECT_EQ(seen.size(), 3u);
  EXPECT_EQ(members, s.frames.size());
  const auto [full, estimate] = full_and_estimate(s, sel);
  EXPECT_NEAR(estimate / full, 1.0, 0.01);
}

TEST(MegsimSelection, FramesAlikeInEveryFeatureAreRepresentedByTheMiddleOneNotTheFirst) {
  // Regression: a static scene's frames tie for nearest the centroid, and the earliest of them,
  // the scene's cold first frame, stood for the whole scene (+23% cycles on glmark2's
  // full-window quad).
  std::vector<FrameWork> f(9);
  for (auto& fr : f) {
    fr.pixel = {{"quad", 1000}};
    fr.primitives = 2;
  }
  const FeatureMatrix m = frame_features(f, Normalisation::GroupTotal, StageWeights{});
  const FrameSelection sel = select_frames(m.x, SelectionOptions{});
  ASSERT_EQ(sel.clusters.size(), 1u);
  EXPECT_EQ(sel.clusters[0].representative, 4u);
}

TEST(MegsimSelection, RepresentativeIsTheFrameNearestItsCentroidAndSelectionIsSeeded) {
  const Sequence s = phased_sequence(0.02);
  const FeatureMatrix m = frame_features(s.frames, Normalisation::GroupTotal, StageWeights{});
  const FrameSelection a = select_frames(m.x, SelectionOptions{});
  const FrameSelection b = select_frames(m.x, SelectionOptions{});
  ASSERT_EQ(a.clusters.size(), b.clusters.size());
  for (size_t c = 0; c < a.clusters.size(); ++c) {
    EXPECT_EQ(a.clusters[c].representative, b.clusters[c].representative);
    EXPECT_EQ(a.clusters[c].members, b.clusters[c].members);
    // No member is nearer the members' mean than the representative.
    Eigen::RowVectorXd centre = Eigen::RowVectorXd::Zero(m.x.cols());
    for (const size_t f : a.clusters[c].members) centre += m.x.row(Eigen::Index(f));
    centre /= double(a.clusters[c].members.size());
    const double best = (m.x.row(Eigen::Index(a.clusters[c].representative)) - centre).squaredNorm();
    for (const size_t f : a.clusters[c].members) EXPECT_GE((m.x.row(Eigen::Index(f)) - centre).squaredNorm(), best);
  }
}

TEST(MegsimSelection, ExtrapolationScalesEachRepresentativeByItsClusterSize) {
  FrameSelection s;
  s.clusters = {{1, {0, 1, 2}}, {4, {3, 4}}};
  const std::vector<double> v{10, 100};
  EXPECT_DOUBLE_EQ(extrapolate(s, v), 10 * 3 + 100 * 2);
  EXPECT_THROW(extrapolate(s, std::vector<double>{1}), std::invalid_argument);
}

TEST(MegsimRandomFrames, DistinctSortedFramesFromTheSeedAlone) {
  const auto a = random_frames(1000, 30, 7), b = random_frames(1000, 30, 7), c = random_frames(1000, 30, 8);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  ASSERT_EQ(a.size(), 30u);
  EXPECT_TRUE(std::is_sorted(a.begin(), a.end()));
  EXPECT_EQ(std::set<size_t>(a.begin(), a.end()).size(), 30u);
  EXPECT_LT(a.back(), 1000u);
  EXPECT_EQ(random_frames(5, 9, 1), (std::vector<size_t>{0, 1, 2, 3, 4}));
}

TEST(MegsimSimilarity, DistancesAreSymmetricZeroOnTheDiagonalAndEveryStepthFrameWhenLarge) {
  Eigen::MatrixXd x(4, 1);
  x << 0, 1, 10, 12;
  size_t step = 0;
  const Eigen::MatrixXd full = similarity_matrix(x, 10, step);
  EXPECT_EQ(step, 1u);
  ASSERT_EQ(full.rows(), 4);
  EXPECT_DOUBLE_EQ(full(0, 3), 12);
  EXPECT_DOUBLE_EQ(full(3, 0), 12);
  EXPECT_DOUBLE_EQ(full(1, 2), 9);
  EXPECT_DOUBLE_EQ(full(2, 2), 0);
  const Eigen::MatrixXd half = similarity_matrix(x, 2, step);
  EXPECT_EQ(step, 2u);
  ASSERT_EQ(half.rows(), 2);
  EXPECT_DOUBLE_EQ(half(0, 1), 10);  // frames 0 and 2
  EXPECT_DOUBLE_EQ(half(1, 1), 0);
}

}  // namespace
}  // namespace strobe::sampling::megsim
