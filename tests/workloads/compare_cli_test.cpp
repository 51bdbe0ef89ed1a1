// `strobe compare` and `strobe run --sampling` driven as a subprocess: the report's shape, the
// arithmetic of error and speedup, and the usage errors. Small sizes assert no accuracy.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <string>

#include "cli/cli_runner.h"

namespace strobe::clitest {
namespace {

nlohmann::json run_json(const std::string& args) {
  CliResult r = run_strobe(args + " --json -");
  EXPECT_EQ(r.rc, 0) << args << "\n" << r.err;
  if (r.rc != 0) return nlohmann::json::object();
  return nlohmann::json::parse(r.out);
}

/// Checks one method's entry of a compare report against the report's own numbers.
void check_method(const nlohmann::json& j, const std::string& name) {
  SCOPED_TRACE(name);
  ASSERT_TRUE(j["methods"].contains(name));
  const nlohmann::json& m = j["methods"][name];
  const double full = m["full_cycles"], est = m["estimated_cycles"];
  EXPECT_EQ(m["full_cycles"], j["cycles"]);
  EXPECT_GT(est, 0);
  EXPECT_NEAR(m["error_pct"].get<double>(), 100.0 * std::abs(est - full) / full, 1e-9);
  EXPECT_NEAR(m["speedup"].get<double>(), m["full_wall_seconds"].get<double>() / m["sampled_wall_seconds"].get<double>(),
              1e-9);
  ASSERT_EQ(m["kernels"].size(), j["kernels"].size());
  uint64_t sum_est = 0, sum_full = 0;
  for (size_t i = 0; i < m["kernels"].size(); ++i) {
    const nlohmann::json& k = m["kernels"][i];
    EXPECT_EQ(k["name"], j["kernels"][i]["name"]);
    EXPECT_EQ(k["full_cycles"], j["kernels"][i]["cycles"]);
    const double ke = k["estimated_cycles"], kf = k["full_cycles"];
    EXPECT_NEAR(k["error_pct"].get<double>(), 100.0 * std::abs(ke - kf) / kf, 1e-9);
    EXPECT_TRUE(k["level"].is_string());
    sum_est += k["estimated_cycles"].get<uint64_t>();
    sum_full += k["full_cycles"].get<uint64_t>();
  }
  EXPECT_EQ(sum_est, m["estimated_cycles"].get<uint64_t>());
  EXPECT_EQ(sum_full, m["full_cycles"].get<uint64_t>());
  const nlohmann::json& shares = m["sampling"]["shares"];
  EXPECT_NEAR(shares["detailed"].get<double>() + shares["predicted"].get<double>(), 1.0, 1e-9);
  EXPECT_EQ(m["verified"], true);
}

TEST(Compare, SingleKernelReportIsWellFormedAndErrorIsComputedFromItsCycles) {
  const nlohmann::json j = run_json("compare relu --param n=262144 --sampling photon,pka --verify");
  EXPECT_EQ(j["benchmark"], "relu");
  EXPECT_EQ(j["verified"], true);
  check_method(j, "photon");
  check_method(j, "pka");
}

TEST(Compare, ManyLaunchReportHasOneEntryPerLaunch) {
  const nlohmann::json j = run_json("compare fastwalsh --param n=4096 --sampling photon,pka --verify");
  EXPECT_EQ(j["kernels"].size(), 12u) << j["kernels"].size();
  check_method(j, "photon");
  check_method(j, "pka");
  // PKA clusters the launches in a profiling pass first: two passes over the workload.
  EXPECT_EQ(j["methods"]["pka"]["sampling"]["passes"].size(), 2u);
}

TEST(Compare, UsageErrorsExitTwoNamingTheProblem) {
  CliResult unknown = run_strobe("compare relu --param n=4096 --sampling photon,simpoint");
  EXPECT_EQ(unknown.rc, 2);
  EXPECT_NE(unknown.err.find("simpoint"), std::string::npos) << unknown.err;
  CliResult twice = run_strobe("compare relu --param n=4096 --sampling pka,pka");
  EXPECT_EQ(twice.rc, 2);
  CliResult key = run_strobe("compare relu --param n=4096 --sampling photon --sampling-set window=3");
  EXPECT_EQ(key.rc, 2);
  EXPECT_NE(key.err.find("unknown parameter 'window'"), std::string::npos) << key.err;
  CliResult value = run_strobe("compare relu --param n=4096 --sampling photon --sampling-set delta=big");
  EXPECT_EQ(value.rc, 2);
  EXPECT_NE(value.err.find("not a number"), std::string::npos) << value.err;
  CliResult range = run_strobe("compare relu --param n=4096 --sampling pka --sampling-set ipc_variance=-1");
  EXPECT_EQ(range.rc, 2);
  CliResult none = run_strobe("compare relu --param n=4096 --sampling none");
  EXPECT_EQ(none.rc, 2);
}

TEST(Compare, AMethodBesideItsVariantIsComparedAgainstOneReference) {
  // scan at 262,144 elements: PKA projects its 1-group scan_block launch from a 4-group one.
  // The variant with PKA's own projection (parallelism=0) takes a quarter of its cycles for
  // that launch (7.3% over the run); the default scales it by the groups each runs at once (0.4%).
  const nlohmann::json j = run_json("compare scan --param n=262144 --sampling pka,pka:parallelism=0 --verify");
  check_method(j, "pka");
  check_method(j, "pka:parallelism=0");
  const nlohmann::json& pka = j["methods"]["pka"];
  const nlohmann::json& paper = j["methods"]["pka:parallelism=0"];
  EXPECT_LT(pka["error_pct"].get<double>(), 2.0);
  EXPECT_GT(paper["error_pct"].get<double>(), 5.0) << "the variant's own setting was not applied";
  // A variant's setting wins over the one every method shares.
  const nlohmann::json k =
      run_json("compare scan --param n=262144 --sampling pka:parallelism=1 --sampling-set parallelism=0");
  EXPECT_EQ(k["methods"]["pka:parallelism=1"]["estimated_cycles"], pka["estimated_cycles"]);
}

TEST(Compare, AVariantsSettingsAreCheckedBeforeAnyRun) {
  const auto refused = [](const std::string& sampling, const std::string& says) {
    SCOPED_TRACE(sampling);
    const CliResult r = run_strobe("compare relu --param n=4096 --sampling " + sampling);
    EXPECT_EQ(r.rc, 2);
    EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("full detailed"), std::string::npos) << "it ran before refusing";
  };
  refused("pka:nope=1", "unknown parameter 'nope'");
  refused("pka:parallelism", "'parallelism' is not KEY=VALUE");
  refused("pka:parallelism=2", "must be in");
  refused("pka:=1", "is not KEY=VALUE");
  refused(":parallelism=1", "no method before ':'");
  refused("pak:parallelism=1", "unknown method");
  refused("pka:ipc_window=10,pka:ipc_window=10", "named twice");
}

TEST(SampledRun, VerifiesAndReportsTheLevelOfEveryLaunch) {
  const nlohmann::json j = run_json("run relu --param n=262144 --sampling photon --verify");
  EXPECT_EQ(j["verified"], true);
  EXPECT_EQ(j["mode"], "timing");
  EXPECT_EQ(j["sampling"], "photon");
  ASSERT_TRUE(j.contains("sampling_summary"));
  EXPECT_EQ(j["sampling_summary"]["emulated"], true);
  for (const auto& k : j["kernels"]) {
    EXPECT_EQ(k["sampling"]["method"], "photon");
    EXPECT_EQ(k["cycles"], k["sampling"]["estimated_cycles"]);
  }
}

TEST(SampledRun, SkippingFunctionalEmulationIsFlaggedUnverifiable) {
  const nlohmann::json j = run_json("run relu --param n=262144 --sampling pka --sampling-skip-functional");
  EXPECT_EQ(j["verified"], false);
  EXPECT_EQ(j["sampling_summary"]["emulated"], false);
  CliResult verify = run_strobe("run relu --param n=4096 --sampling pka --sampling-skip-functional --verify");
  EXPECT_EQ(verify.rc, 2);
  EXPECT_NE(verify.err.find("cannot be verified"), std::string::npos) << verify.err;
}

TEST(SampledRun, SamplingNeedsTheTimingModel) {
  CliResult r = run_strobe("run vecadd --param n=64 --mode functional --sampling photon");
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("needs --mode timing"), std::string::npos) << r.err;
  CliResult set = run_strobe("run vecadd --param n=64 --sampling-set delta=0.1");
  EXPECT_EQ(set.rc, 2);
}

}  // namespace
}  // namespace strobe::clitest
