// GPUMech as a method a user runs: `--sampling gpumech` at each Table 8 level, `--mode
// analytical`, the CPI stacks beside the detailed model's in `strobe compare`, a set comparison,
// and the usage errors (a scheduler without a model, analytical mode with another method, a
// launch past the trace cap).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cmath>
#include <set>
#include <string>

#include "cli/cli_runner.h"

namespace strobe::clitest {
namespace {

/// vecadd large enough to fill every CU's wave slots, so that MSHR and DRAM queueing both bite.
constexpr const char* kFull = "vecadd --param n=262144 --set cu.scheduler=gto";

/// The sum of a run report's predicted CPI stack (its seven categories).
double stack_sum(const nlohmann::json& cpi) {
  double s = 0;
  for (const auto& [name, v] : cpi["stack"].items()) s += v.get<double>();
  return s;
}

TEST(GpumechMethod, EveryAblationLevelPredictsAFiniteDistinctCpiWhoseStackSumsToIt) {
  std::set<double> cpis;
  for (const char* level : {"naive", "mt", "mt_mshr", "gpumech"}) {
    SCOPED_TRACE(level);
    const CliResult r =
        run_strobe(std::string("run ") + kFull + " --sampling gpumech --sampling-set level=" + level + " --verify --json -");
    ASSERT_EQ(r.rc, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_TRUE(j["verified"].get<bool>());  // predicted work is emulated, so its results are exact
    ASSERT_EQ(j["kernels"].size(), 1u);
    const auto& k = j["kernels"][0];
    const auto& s = k["sampling"];
    EXPECT_EQ(s["method"], "gpumech");
    EXPECT_EQ(s["level"], "analytical");
    EXPECT_EQ(s["detail"]["ablation"], level);
    const double cpi = s["detail"]["cpi"]["cpi"].get<double>();
    EXPECT_TRUE(std::isfinite(cpi) && cpi > 0) << cpi;
    EXPECT_NEAR(stack_sum(s["detail"]["cpi"]), cpi, 1e-9 * cpi);
    EXPECT_GT(k["cycles"].get<uint64_t>(), 0u);
    EXPECT_EQ(s["predicted_instructions"], k["wave_instructions"]);
    cpis.insert(cpi);
  }
  EXPECT_EQ(cpis.size(), 4u) << "each level adds a term that changes vecadd's CPI";
}

TEST(GpumechMethod, IsRegisteredAndListedAmongTheMethods) {
  const CliResult r = run_strobe("run --help");
  EXPECT_NE(r.out.find("gpumech"), std::string::npos) << r.out;
}

TEST(GpumechMethod, AnalyticalModeReportsPredictedCyclesCpiAndStackPerLaunch) {
  const CliResult r = run_strobe("run vecadd --mode analytical --set cu.scheduler=rr --json -");
  ASSERT_EQ(r.rc, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["mode"], "analytical");
  EXPECT_EQ(j["sampling"], "gpumech");
  const auto& k = j["kernels"][0];
  EXPECT_EQ(k["sampling"]["level"], "analytical");
  EXPECT_EQ(k["sampling"]["detail"]["policy"], "rr");
  EXPECT_GT(k["cycles"].get<uint64_t>(), 0u);
  for (const char* c : {"BASE", "DEP", "L1", "L2", "DRAM", "MSHR", "QUEUE"}) EXPECT_TRUE(k["sampling"]["detail"]["cpi"]["stack"].contains(c)) << c;

  const CliResult t = run_strobe("run vecadd --mode analytical --set cu.scheduler=rr");
  ASSERT_EQ(t.rc, 0) << t.err;
  EXPECT_NE(t.out.find("CPI"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("BASE"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("analytical mode"), std::string::npos) << t.out;
}

TEST(GpumechMethod, AnalyticalModeWithAnotherMethodExits2NamingBoth) {
  const CliResult r = run_strobe("run vecadd --mode analytical --sampling photon --set cu.scheduler=rr");
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("--mode analytical"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--sampling photon"), std::string::npos) << r.err;
}

TEST(GpumechMethod, ASchedulerWithoutAGpumechModelExits2NamingIt) {
  for (const char* args : {"run vecadd --sampling gpumech", "run vecadd --mode analytical",
                           "compare vecadd --sampling gpumech,photon"}) {
    SCOPED_TRACE(args);
    const CliResult r = run_strobe(args);
    EXPECT_EQ(r.rc, 2);
    EXPECT_NE(r.err.find("cu.scheduler=oldest"), std::string::npos) << r.err;
  }
}

TEST(GpumechMethod, ALaunchPastTheTraceCapStopsTheRunNamingTheKernel) {
  const CliResult r = run_strobe("run vecadd --sampling gpumech --set cu.scheduler=gto --sampling-set max_trace_instructions=1000");
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("trace cap"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("vecadd"), std::string::npos) << r.err;
}

TEST(GpumechMethod, AnEnumerationParameterTakesANameAndRefusesOthersListingThem) {
  const CliResult r = run_strobe("run vecadd --sampling gpumech --set cu.scheduler=gto --sampling-set level=fast");
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("naive, mt, mt_mshr, gpumech"), std::string::npos) << r.err;
}

TEST(GpumechMethod, PerWNormalisationDividesTheContentionCpiByTheWavesPerSimd) {
  const auto contention = [](const std::string& norm) {
    const CliResult r = run_strobe(std::string("run ") + kFull + " --sampling gpumech --sampling-set rc_normalisation=" +
                                   norm + " --json -");
    EXPECT_EQ(r.rc, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    const auto& s = j["kernels"][0]["sampling"];
    return std::pair{s["detail"]["cpi"]["stack"]["MSHR"].get<double>() + s["detail"]["cpi"]["stack"]["QUEUE"].get<double>(),
                     s["detail"]["waves_per_simd"].get<double>()};
  };
  const auto [as_written, w] = contention("as_written");
  const auto [per_w, w2] = contention("per_w");
  ASSERT_GT(as_written, 0);
  EXPECT_NEAR(per_w, as_written / w, 1e-9 * as_written);
  EXPECT_EQ(w, w2);
}

TEST(GpumechMethod, CompareShowsBothCpiStacksSideBySideAndTheCpiError) {
  const CliResult r =
      run_strobe("compare vecadd --param n=65536 --set cu.scheduler=gto --sampling gpumech,photon --verify --json -");
  ASSERT_EQ(r.rc, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  const auto& g = j["methods"]["gpumech"];
  EXPECT_TRUE(g["verified"].get<bool>());
  EXPECT_TRUE(g.contains("mean_abs_cpi_error_pct"));
  const auto& k = g["kernels"][0];
  EXPECT_EQ(k["level"], "analytical");
  const auto& c = k["cpi"];
  const double predicted = c["predicted"].get<double>(), detailed = c["detailed"].get<double>();
  EXPECT_GT(predicted, 0);
  EXPECT_GT(detailed, 0);
  EXPECT_NEAR(c["error_pct"].get<double>(), 100 * (predicted - detailed) / detailed, 1e-9);
  ASSERT_EQ(c["stack"].size(), 10u);
  double p = 0, d = 0;
  std::set<std::string> unmodelled;
  for (const auto& row : c["stack"]) {
    d += row["detailed"].get<double>();
    if (row["modelled"].get<bool>()) p += row["predicted"].get<double>();
    else unmodelled.insert(row["detailed_category"].get<std::string>());
  }
  EXPECT_NEAR(p, predicted, 1e-9 * predicted);
  EXPECT_NEAR(d, detailed, 1e-9 * detailed);
  EXPECT_EQ(unmodelled, (std::set<std::string>{"barrier", "fetch", "other"}));
  EXPECT_EQ(c["stack"][0]["category"], "BASE");
  EXPECT_EQ(c["stack"][0]["detailed_category"], "issue");
  // Photon predicts no CPI stack, so its launches carry none.
  EXPECT_FALSE(j["methods"]["photon"]["kernels"][0].contains("cpi"));

  const CliResult t = run_strobe("compare vecadd --param n=65536 --set cu.scheduler=gto --sampling gpumech");
  ASSERT_EQ(t.rc, 0) << t.err;
  EXPECT_NE(t.out.find("CPI stacks, predicted beside detailed"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("(unmodelled)"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("mean |CPI error|"), std::string::npos) << t.out;
}

TEST(GpumechMethod, ASetComparisonRunsGpumechOnEveryRun) {
  const CliResult r =
      run_strobe("compare --set smoke --size ci --set cu.scheduler=gto --sampling gpumech --repeat 1 --json -");
  ASSERT_EQ(r.rc, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j["aggregates"].contains("gpumech"));
  EXPECT_EQ(j["aggregates"]["gpumech"]["runs"].get<size_t>(), j["runs"].size());
  for (const auto& run : j["runs"]) {
    const auto& m = run["methods"]["gpumech"];
    EXPECT_TRUE(m.contains("mean_abs_cpi_error_pct")) << run["benchmark"];
    EXPECT_EQ(m["levels"].value("analytical", 0), run["launches"].get<int>()) << run["benchmark"];
  }
}

}  // namespace
}  // namespace strobe::clitest
