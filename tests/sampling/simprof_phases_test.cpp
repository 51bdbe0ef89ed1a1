// SimProf's phases: launch signatures from the profile's basic-block vectors, phases that
// separate distinct launches, feature selection only with a proxy, and the homogeneity numbers.
#include "sampling/simprof/phases.h"

#include <gtest/gtest.h>

#include <cmath>

#include "common/error.h"

namespace strobe::sampling::simprof {
namespace {

namespace col = profile::column;

profile::LaunchRecord launch(const std::string& kernel, std::vector<uint64_t> pcs, std::vector<uint64_t> insts) {
  profile::LaunchRecord l;
  l.id.kernel = kernel;
  l.blocks.rows = pcs.size();
  l.blocks.u64[col::kStartPc] = std::move(pcs);
  l.blocks.u64[col::kWaveInsts] = std::move(insts);
  return l;
}

TEST(SimprofPhases, ALaunchSignatureIsItsBlockVectorAndAKernelIndicator) {
  const std::vector<profile::LaunchRecord> ls = {launch("b", {0, 4}, {10, 20}), launch("a", {0}, {7}),
                                                 launch("b", {4}, {30})};
  const Signatures s = launch_signatures(ls, "profile p");
  EXPECT_EQ(s.names, (std::vector<std::string>{"a@0", "b@0", "b@4", "kernel:a", "kernel:b"}));
  ASSERT_EQ(s.x.rows(), 3);
  EXPECT_EQ(s.x(0, 1), 10);
  EXPECT_EQ(s.x(0, 2), 20);
  EXPECT_EQ(s.x(0, 4), 1);
  EXPECT_EQ(s.x(1, 0), 7);
  EXPECT_EQ(s.x(1, 3), 1);
  EXPECT_EQ(s.x(2, 1), 0);
  EXPECT_EQ(s.x(2, 2), 30);
}

TEST(SimprofPhases, AKernelWeightSeparatesSmallUnitsOfDifferentKernelsThatRawCountsLump) {
  // Three small units of kernel a, three of b, three large ones of a: by raw counts the small
  // units of both kernels sit together near the origin, a million instructions from the large.
  std::vector<profile::LaunchRecord> ls;
  for (uint64_t v : {10, 11, 12}) ls.push_back(launch("a", {0}, {v}));
  for (uint64_t v : {11, 12, 13}) ls.push_back(launch("b", {0}, {v}));
  for (uint64_t v : {1000000, 1010000, 990000}) ls.push_back(launch("a", {0}, {v}));
  std::vector<UnitCode> code;
  for (size_t i = 0; i < ls.size(); ++i) code.push_back(launch_code(ls[i], i, "p"));
  PhaseOptions o;
  o.features = 0;
  const Phases raw = form_phases(code_signatures(code), {}, o);
  EXPECT_EQ(raw.phase[0], raw.phase[3]) << "raw counts should lump the small units of both kernels";
  const Signatures weighted = code_signatures(code, 1.0);
  EXPECT_EQ(weighted.x(0, Eigen::Index(weighted.names.size() - 2)), 1010000.0);  // kernel:a at the largest count
  const Phases p = form_phases(weighted, {}, o);
  EXPECT_EQ(p.k, 3);
  EXPECT_NE(p.phase[0], p.phase[3]);
  EXPECT_NE(p.phase[0], p.phase[6]);
  EXPECT_EQ(p.phase[0], p.phase[2]);
  EXPECT_EQ(p.phase[3], p.phase[5]);
}

TEST(SimprofPhases, AProfileWithoutBlockVectorsIsRefusedNamingIt) {
  profile::LaunchRecord old;
  old.id.kernel = "k";
  const std::vector<profile::LaunchRecord> ls = {old};
  try {
    launch_signatures(ls, "profile old.prof");
    ADD_FAILURE() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("profile old.prof has no basic-block vector for launch 0 (k)"),
              std::string::npos)
        << e.what();
  }
}

/// Twelve launches of three shapes (four each), interleaved.
Signatures three_shapes() {
  std::vector<profile::LaunchRecord> ls;
  for (int i = 0; i < 12; ++i) {
    if (i % 3 == 0) ls.push_back(launch("conv", {0, 8}, {1000u + i, 5000}));
    if (i % 3 == 1) ls.push_back(launch("conv", {0, 8}, {9000u + i, 100}));
    if (i % 3 == 2) ls.push_back(launch("relu", {0}, {300u + i}));
  }
  return launch_signatures(ls, "test");
}

TEST(SimprofPhases, DistinctLaunchesFormOnePhaseEachAndCentresAreTheirMeans) {
  const Signatures s = three_shapes();
  const Phases p = form_phases(s, {}, PhaseOptions{});
  EXPECT_EQ(p.k, 3);
  EXPECT_TRUE(p.fallback.empty());
  EXPECT_FALSE(p.selected);
  EXPECT_EQ(p.kept.size(), s.names.size());
  for (size_t i = 3; i < 12; ++i) EXPECT_EQ(p.phase[i], p.phase[i % 3]) << i;
  EXPECT_NE(p.phase[0], p.phase[1]);
  EXPECT_NE(p.phase[1], p.phase[2]);
  ASSERT_EQ(p.nearest.size(), 3u);
  for (int h = 0; h < 3; ++h) EXPECT_EQ(p.phase[p.nearest[size_t(h)]], h);
  // Columns: conv@0, conv@8, relu@0, kernel:conv, kernel:relu. Launch 0's phase holds
  // launches 0, 3, 6, 9: conv@0 counts 1000, 1003, 1006, 1009.
  const int h = p.phase[0];
  EXPECT_DOUBLE_EQ(p.centres(h, 0), 1004.5);
  EXPECT_DOUBLE_EQ(p.centres(h, 2), 0);  // conv launches run no relu block
}

TEST(SimprofPhases, AProxyKeepsOnlyTheMostCorrelatedFeatures) {
  const Signatures s = three_shapes();
  std::vector<double> cpi(12);
  for (size_t i = 0; i < 12; ++i) cpi[i] = i % 3 == 1 ? 4.0 : 1.0;  // only the second shape is slow
  PhaseOptions o;
  o.features = 2;
  const Phases p = form_phases(s, cpi, o);
  EXPECT_TRUE(p.selected);
  EXPECT_EQ(p.kept.size(), 2u);
  EXPECT_EQ(p.features.cols(), 2);
}

TEST(SimprofPhases, OneOrTwoUnitsFallBackToOnePhaseAndSaySo) {
  std::vector<profile::LaunchRecord> ls = {launch("k", {0}, {5}), launch("k", {0}, {9})};
  const Phases p = form_phases(launch_signatures(ls, "test"), {}, PhaseOptions{});
  EXPECT_EQ(p.k, 1);
  EXPECT_FALSE(p.fallback.empty());
  EXPECT_EQ(p.phase, (std::vector<int>{0, 0}));
}

TEST(SimprofPhases, HomogeneityIsLowerWithinPhasesThanOverall) {
  Phases p;
  p.k = 2;
  p.phase = {0, 0, 1, 1};
  const double cpi[] = {1, 1, 3, 5};
  const Homogeneity h = homogeneity(cpi, p);
  // Overall: mean 2.5, population sd sqrt(2.75). Phase 1: mean 4, sd 1, CoV 0.25; phase 0: 0.
  EXPECT_NEAR(h.population_cov, std::sqrt(2.75) / 2.5, 1e-12);
  EXPECT_NEAR(h.weighted_cov, 0.125, 1e-12);
  EXPECT_NEAR(h.max_phase_cov, 0.25, 1e-12);
}

}  // namespace
}  // namespace strobe::sampling::simprof
