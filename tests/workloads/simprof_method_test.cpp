// SimProf and its baselines run end to end on a multi-launch benchmark (gaussian: 126 launches
// of two kernels on shrinking sizes), each estimate checked against full detailed simulation of
// the same launches. A SimProf that simulated every launch fails here, as does one whose
// interval or sample does not say what the method promises.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "cli/cli_runner.h"

namespace strobe::clitest {
namespace {

/// `strobe compare gaussian --param n=64 --sampling METHOD` with `sets`, the method's entry.
nlohmann::json compare(const std::string& method, const std::string& sets) {
  CliResult r = run_strobe("compare gaussian --param n=64 --sampling " + method + " " + sets + " --json -");
  EXPECT_EQ(r.rc, 0) << r.err;
  if (r.rc != 0) return nlohmann::json::object();
  return nlohmann::json::parse(r.out)["methods"][method];
}

/// `strobe compare relu --param n=8388608 --sampling simprof` with `sets`: one launch of 32768
/// groups, 51 GPU-fulls of 640 on the R9 Nano, cut into 25 ranges of two GPU-fulls and a last
/// one of 768 groups (over half of two fulls, so a range of its own).
nlohmann::json compare_ranges(const std::string& sets) {
  CliResult r = run_strobe("compare relu --param n=8388608 --sampling simprof --sampling-set unit_insts=1 "
                           "--sampling-set range_min_fulls=2 --sampling-set proxy=pilot " + sets + " --json -");
  EXPECT_EQ(r.rc, 0) << r.err;
  if (r.rc != 0) return nlohmann::json::object();
  return nlohmann::json::parse(r.out)["methods"]["simprof"];
}

/// The method's own summary in a compare entry.
const nlohmann::json& summary(const nlohmann::json& m) { return m["sampling"]["method_summary"]; }

TEST(SimprofMethod, TheEstimateHasAnIntervalAndMostLaunchesArePredicted) {
  // A 5% budget on 126 launches: the pilot (two per phase) and at most a few rounds. Bound 10%:
  // the measured units start from caches functional work warmed, not from the detailed run's.
  const nlohmann::json m = compare("simprof", "--sampling-set proxy=pilot --sampling-set error=5% --sampling-warming caches");
  ASSERT_TRUE(m.contains("sampling"));
  const nlohmann::json& s = summary(m);
  EXPECT_FALSE(m["fallback"].get<bool>());
  EXPECT_LT(s["sampled"].get<uint64_t>(), s["units"]["count"].get<uint64_t>());
  EXPECT_EQ(s["units"]["count"], 126);
  EXPECT_GE(s["phases"]["k"].get<int>(), 2);
  const nlohmann::json& iv = s["interval"];
  ASSERT_FALSE(iv["half_width"].is_null());
  EXPECT_TRUE(iv["met_budget"].get<bool>());
  EXPECT_LE(iv["rel_error"].get<double>(), 0.05);
  EXPECT_LT(iv["low"].get<double>(), iv["high"].get<double>());
  EXPECT_NE(iv["text"].get<std::string>().find("(95% CI;"), std::string::npos);
  EXPECT_LT(std::abs(m["error_pct"].get<double>()), 10.0);
  // The report's total is the method's estimate: the predicted launches carry their shares.
  EXPECT_NEAR(m["estimated_cycles"].get<double>(), iv["cycles"].get<double>(), 126.0);
  size_t phase = 0;
  for (const auto& k : m["kernels"]) phase += k["level"] == "phase";
  EXPECT_EQ(phase, 126 - s["sampled"].get<size_t>());
}

TEST(SimprofMethod, ATighterBudgetTakesALargerSample) {
  const nlohmann::json loose = compare("simprof", "--sampling-set proxy=pilot --sampling-set error=20%");
  const nlohmann::json tight = compare("simprof", "--sampling-set proxy=pilot --sampling-set error=1%");
  EXPECT_LT(summary(loose)["sampled"].get<uint64_t>(), summary(tight)["sampled"].get<uint64_t>());
  EXPECT_GE(summary(tight)["rounds"].size(), summary(loose)["rounds"].size());
  // Each round's sample is at least the last one's.
  uint64_t last = 0;
  for (const auto& r : summary(tight)["rounds"]) {
    EXPECT_GT(r["sampled"].get<uint64_t>(), last);
    last = r["sampled"].get<uint64_t>();
  }
}

TEST(SimprofMethod, ASampleOfEveryLaunchIsAFallbackAndExact) {
  // Every launch in detail in one round, as full detail runs them: the harness must count it as
  // a fallback, and the estimate is the full-detail total.
  const nlohmann::json m = compare("simprof", "--sampling-set proxy=pilot --sampling-set units=1000");
  EXPECT_EQ(summary(m)["sampled"], 126);
  EXPECT_TRUE(m["fallback"].get<bool>());
  EXPECT_EQ(m["error_pct"].get<double>(), 0);
  EXPECT_EQ(summary(m)["interval"]["half_width"].get<double>(), 0);
}

TEST(SimprofMethod, TheSameSeedDrawsTheSameSample) {
  const std::string sets = "--sampling-set proxy=pilot --sampling-set error=10% --sampling-set seed=";
  const nlohmann::json a = compare("simprof", sets + "7"), b = compare("simprof", sets + "7");
  EXPECT_EQ(a["estimated_cycles"], b["estimated_cycles"]);
  EXPECT_EQ(summary(a)["sampled"], summary(b)["sampled"]);
}

TEST(SimprofMethod, TheGpumechProxySelectsFeaturesAndSizesTheFirstSample) {
  const nlohmann::json m = compare("simprof", "--sampling-set proxy=gpumech --sampling-set error=5%");
  const nlohmann::json& s = summary(m);
  EXPECT_EQ(s["proxy"], "gpumech");
  EXPECT_NE(s["phases"]["feature_selection"].get<std::string>().find("GPUMech"), std::string::npos);
  EXPECT_TRUE(s["phases"].contains("proxy_cpi_cov"));
  EXPECT_LT(s["sampled"].get<uint64_t>(), 126u);
}

TEST(SimprofMethod, CodeTakesOneLaunchPerPhaseAndGivesNoInterval) {
  const nlohmann::json m = compare("simprof-code", "--sampling-set proxy=pilot");
  const nlohmann::json& s = summary(m);
  EXPECT_EQ(s["sampled"], s["phases"]["k"]);
  EXPECT_FALSE(s["interval"].contains("half_width"));
  EXPECT_NE(s["interval"]["text"].get<std::string>().find("no variance"), std::string::npos);
}

TEST(SimprofMethod, TheWindowIsContiguousAndItsIntervalMarkedInvalid) {
  const nlohmann::json m = compare("simprof-window", "--sampling-set proxy=pilot --sampling-set error=10%");
  const nlohmann::json& s = summary(m);
  EXPECT_FALSE(s["interval"]["valid"].get<bool>());
  std::set<size_t> detailed;
  for (size_t i = 0; i < m["kernels"].size(); ++i)
    if (m["kernels"][i]["level"] == "detailed") detailed.insert(i);
  ASSERT_FALSE(detailed.empty());
  EXPECT_EQ(*detailed.rbegin() - *detailed.begin() + 1, detailed.size());
  EXPECT_EQ(detailed.size(), s["sampled"].get<size_t>());
}

TEST(SimprofMethod, TheRandomBaselineHasOneStratumBesideTheColdStart) {
  const nlohmann::json m = compare("simprof-srs", "--sampling-set proxy=pilot --sampling-set error=10%");
  ASSERT_EQ(summary(m)["strata"].size(), 2u);
  EXPECT_TRUE(summary(m)["interval"]["valid"].get<bool>());
  const nlohmann::json plain =
      compare("simprof-srs", "--sampling-set proxy=pilot --sampling-set error=10% --sampling-set cold_start=0");
  EXPECT_EQ(summary(plain)["strata"].size(), 1u);
}

TEST(SimprofMethod, TheFirstLaunchIsATakeAllStratumMeasuredInTheFirstRound) {
  // gaussian's first launch runs on cold caches: it is a stratum of its own, always measured.
  const nlohmann::json m = compare("simprof", "--sampling-set proxy=pilot --sampling-set error=10%");
  const nlohmann::json& s = summary(m);
  EXPECT_EQ(s["cold_start"], 1);
  EXPECT_EQ(s["strata"].back(), (nlohmann::json{{"units", 1}, {"sampled", 1}}));
  EXPECT_EQ(m["kernels"][0]["level"], "detailed");
  EXPECT_EQ(m["kernels"][0]["detail"]["round"], 0);
  EXPECT_EQ(m["kernels"][0]["detail"]["stratum"].get<size_t>(), s["strata"].size() - 1);
}

TEST(SimprofMethod, WarmupLaunchesRunInDetailAndAreNotMeasured) {
  const nlohmann::json m =
      compare("simprof", "--sampling-set proxy=pilot --sampling-set error=10% --sampling-set warmup=1");
  const nlohmann::json& s = summary(m);
  EXPECT_EQ(s["warmup"], 1);
  const nlohmann::json& k = m["kernels"];
  const int last_round = int(s["rounds"].size()) - 1;
  size_t warmups = 0;
  for (size_t i = 0; i + 1 < k.size(); ++i) {
    if (!k[i]["detail"].value("warmup", false)) continue;
    ++warmups;
    // Run in detail (its cost counted), but its time is a share or its earlier measurement,
    // and the launch after it is one the last round measured.
    EXPECT_GT(k[i]["detailed_instructions"].get<uint64_t>(), 0u) << i;
    if (k[i]["level"] == "detailed") EXPECT_LT(k[i]["detail"]["round"].get<int>(), last_round) << i;
    else EXPECT_EQ(k[i]["level"], "phase") << i;
    EXPECT_EQ(k[i + 1]["level"], "detailed") << i;
    EXPECT_EQ(k[i + 1]["detail"]["round"].get<int>(), last_round) << i;
  }
  EXPECT_GT(warmups, 0u);
  // The estimate still holds: the warm-ups change what the measured launches start from.
  EXPECT_LT(std::abs(m["error_pct"].get<double>()), 10.0);
}

TEST(SimprofMethod, TheIntervalUsesStudentsTAtTheSatterthwaiteDfUnlessZIsAsked) {
  const nlohmann::json t = compare("simprof", "--sampling-set proxy=pilot --sampling-set error=10%");
  const nlohmann::json& q = summary(t)["interval"]["quantile"];
  EXPECT_EQ(q["kind"], "t");
  EXPECT_GT(q["df"].get<double>(), 0.0);
  EXPECT_GT(q["value"].get<double>(), 1.96);
  const nlohmann::json z =
      compare("simprof", "--sampling-set proxy=pilot --sampling-set error=10% --sampling-set interval=z");
  EXPECT_EQ(summary(z)["interval"]["quantile"]["kind"], "z");
  EXPECT_NEAR(summary(z)["interval"]["quantile"]["value"].get<double>(), 1.959964, 1e-6);
}

TEST(SimprofMethod, RangesOfOneLaunchAreUnitsAndMostOfThemAreFastForwarded) {
  const nlohmann::json m = compare_ranges("--sampling-set error=5%");
  ASSERT_TRUE(m.contains("sampling"));
  const nlohmann::json& s = summary(m);
  EXPECT_FALSE(m["fallback"].get<bool>());
  EXPECT_EQ(s["units"]["kind"], "launch or work-group range");
  EXPECT_EQ(s["units"]["launches"], 1);
  const uint64_t n = s["units"]["count"].get<uint64_t>();
  EXPECT_EQ(n, 26u);
  EXPECT_EQ(s["units"]["ranges"].get<uint64_t>(), n);
  EXPECT_LT(s["sampled"].get<uint64_t>(), n / 2);
  ASSERT_EQ(m["kernels"].size(), 1u);
  const nlohmann::json& k = m["kernels"][0];
  EXPECT_EQ(k["level"], "range");
  // The ranges cover the launch's groups in order, two GPU-fulls each but the last.
  uint64_t next = 0, measured = 0;
  for (const auto& u : k["detail"]["units"]) {
    EXPECT_EQ(u["first_workgroup"].get<uint64_t>(), next);
    EXPECT_EQ(u["end_workgroup"].get<uint64_t>() - next, next < 32000 ? 1280u : 768u);
    next = u["end_workgroup"].get<uint64_t>();
    measured += u.contains("cycles");
  }
  EXPECT_EQ(next, 32768u);
  EXPECT_EQ(measured, s["sampled"].get<uint64_t>());
  EXPECT_GT(k["detail"]["warmup_workgroups"].get<uint64_t>(), 0u);
  // Most groups were fast-forwarded, not simulated.
  EXPECT_LT(m["sampling"]["instructions"]["detailed"].get<double>(),
            0.6 * m["sampling"]["instructions"]["functional"].get<double>());
  EXPECT_TRUE(s["interval"]["met_budget"].get<bool>());
  // Measured: within 1% over seeds 1-4 (each range with two GPU-fulls of warm-up before it and
  // one after, and the launch's first GPU-full as a primer).
  EXPECT_LT(std::abs(m["error_pct"].get<double>()), 3.0);
}

TEST(SimprofMethod, EveryRangeMeasuredAddsUpToTheFullDetailedCycles) {
  // The ranges' cycles telescope: with every one simulated (in one round, so every group runs in
  // detail) they sum to the launch's cycles exactly.
  const nlohmann::json m = compare_ranges("--sampling-set units=1000");
  ASSERT_TRUE(m.contains("sampling"));
  EXPECT_EQ(summary(m)["sampled"], summary(m)["units"]["count"]);
  EXPECT_EQ(m["estimated_cycles"].get<double>(), m["full_cycles"].get<double>());
}

TEST(SimprofMethod, RangeUnitsFromAProfileFileAreRefusedByName) {
  TempDir t;
  const std::string f = (t.path / "r.prof").string();
  ASSERT_EQ(run_strobe("profile relu --param n=65536 -o " + f).rc, 0);
  const CliResult r = run_strobe("run relu --param n=65536 --mode timing --sampling simprof --sampling-set "
                                 "unit_insts=1000 --profile " + f);
  EXPECT_NE(r.rc, 0);
  EXPECT_NE(r.err.find("unit_insts=1000"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("without --profile"), std::string::npos) << r.err;
}

TEST(SimprofMethod, EveryMethodSaysWhetherItsEstimateHasAnInterval) {
  // Photon, TBPoint, PKA and GPUMech predict; only SimProf's estimate is a statistical sample.
  // The comparison says which is which, so a prediction is never read as having an interval.
  CliResult r = run_strobe("compare gaussian --param n=64 --sampling photon,tbpoint,pka,gpumech,simprof "
                           "--sampling-set proxy=pilot --sampling-set policy=gto");
  ASSERT_EQ(r.rc, 0) << r.err;
  for (const char* m : {"photon", "tbpoint", "pka", "gpumech"})
    EXPECT_NE(r.out.find(std::string(m) + ": no confidence interval: the estimate is "), std::string::npos)
        << m << "\n" << r.out;
  EXPECT_NE(r.out.find("simprof: cycles = "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("simprof: no confidence interval"), std::string::npos) << r.out;
}

TEST(SimprofMethod, ARunTextStatesTheInterval) {
  CliResult r = run_strobe("run gaussian --param n=64 --mode timing --sampling simprof --sampling-set proxy=pilot");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("simprof: cycles = "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(95% CI; "), std::string::npos) << r.out;
}

TEST(SimprofMethod, ATrainingOnTheSameInputReusesEveryPhaseAndSimulatesOnlyTheColdStart) {
  // The same input again: every phase's GPUMech CPI has the same moments, so Eq. 38 flags none,
  // and only the take-all cold-start launch is simulated; the estimate stays near full detail.
  TempDir t;
  const std::string f = (t.path / "train.json").string();
  const nlohmann::json train = compare("simprof", "--sampling-set error=5% --sampling-set save_training=" + f);
  ASSERT_TRUE(std::filesystem::exists(f));
  EXPECT_EQ(summary(train)["training_saved"], f);
  const nlohmann::json m = compare("simprof", "--sampling-set error=5% --sampling-set training=" + f);
  const nlohmann::json& s = summary(m);
  ASSERT_TRUE(s.contains("sensitivity")) << s.dump();
  EXPECT_EQ(s["sensitivity"]["reused_phases"], summary(train)["phases"]["k"]);
  EXPECT_EQ(s["sampled"], 1);
  EXPECT_EQ(s["sensitivity"]["reused_units"], 125);
  for (const auto& p : s["sensitivity"]["phases"]) EXPECT_FALSE(p["sensitive"].get<bool>()) << p.dump();
  EXPECT_FALSE(m["fallback"].get<bool>());
  EXPECT_LT(std::abs(m["error_pct"].get<double>()), 10.0);
  EXPECT_NE(s["interval"]["text"].get<std::string>().find("reused from " + f), std::string::npos);
}

TEST(SimprofMethod, AnotherInputReusesOnlyThePhasesEq38FindsInsensitive) {
  TempDir t;
  const std::string f = (t.path / "train.json").string();
  ASSERT_EQ(compare("simprof", "--sampling-set error=5% --sampling-set save_training=" + f).is_null(), false);
  CliResult r = run_strobe("compare gaussian --param n=80 --sampling simprof --sampling-set error=5% "
                           "--sampling-set training=" + f + " --json -");
  ASSERT_EQ(r.rc, 0) << r.err;
  const nlohmann::json m = nlohmann::json::parse(r.out)["methods"]["simprof"];
  const nlohmann::json& s = summary(m);
  const nlohmann::json& sens = s["sensitivity"];
  uint64_t reused = 0, sensitive = 0;
  for (const auto& p : sens["phases"]) {
    if (p["reused"].get<bool>()) reused += p["input"]["units"].get<uint64_t>();
    if (!p["sensitive"].get<bool>()) continue;
    ++sensitive;
    EXPECT_NE(p["reason"].get<std::string>(), "") << p.dump();
    EXPECT_FALSE(p["reused"].get<bool>()) << p.dump();
  }
  EXPECT_GT(sensitive, 0u) << sens.dump();  // a larger system: some phases' CPI moved
  EXPECT_GT(sens["reused_units"].get<uint64_t>(), 0u) << sens.dump();
  // No unit of a reused phase is simulated: the sample is drawn from the rest.
  EXPECT_LE(s["sampled"].get<uint64_t>(), s["units"]["count"].get<uint64_t>() - sens["reused_units"].get<uint64_t>());
  EXPECT_LT(std::abs(m["error_pct"].get<double>()), 10.0);
}

TEST(SimprofMethod, TheTrainingWorkflowIsRefusedWhereItCannotRun) {
  TempDir t;
  const std::string f = (t.path / "train.json").string();
  const std::string run = "run gaussian --param n=64 --mode timing --sampling ";
  auto err = [&](const std::string& args) {
    const CliResult r = run_strobe(run + args);
    EXPECT_NE(r.rc, 0) << args;
    return r.err;
  };
  EXPECT_NE(err("simprof-srs --sampling-set save_training=" + f).find("input-sensitivity workflow"), std::string::npos);
  EXPECT_NE(err("simprof --sampling-set proxy=pilot --sampling-set save_training=" + f).find("proxy=gpumech"),
            std::string::npos);
  EXPECT_NE(err("simprof --sampling-set training=" + f).find(f), std::string::npos);  // no such file
  std::ofstream(f) << R"({"format": "strobe-simprof-training", "version": 2})";
  EXPECT_NE(err("simprof --sampling-set training=" + f).find("SimProf training " + f + ": malformed"),
            std::string::npos);
}

}  // namespace
}  // namespace strobe::clitest
