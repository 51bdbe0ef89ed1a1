// experiment::run: a validated spec runs its benchmark and comes back with one report, the same
// whether or not a sampling method (and its profiling pass) was involved.
#include "experiment/run.h"

#include <gtest/gtest.h>

#include "report/json.h"

namespace strobe::experiment {
namespace {

RunSpec kmeans() {
  RunSpec s;
  s.benchmark = "kmeans";
  s.params = {"points=4096", "iterations=3"};
  return s;
}

TEST(ExperimentRun, AFunctionalRunReportsItsLaunchesPhasesAndParameters) {
  ValidatedRun v = validate(kmeans());
  const RunResult r = run(v);
  EXPECT_EQ(r.report.benchmark, "kmeans");
  EXPECT_EQ(r.report.mode, "functional");
  EXPECT_EQ(r.report.launches.size(), r.outcome.launches.size());
  EXPECT_EQ(r.report.launches.size(), 3u);
  const nlohmann::json j = report::to_json(r.report);
  EXPECT_EQ(j["params"]["points"], 4096);
  for (const char* phase : {"setup", "run", "verify"}) EXPECT_TRUE(j["phase_seconds"].contains(phase)) << phase;
  EXPECT_FALSE(j.contains("cycles"));
  EXPECT_FALSE(j.contains("sampling_summary"));
}

TEST(ExperimentRun, AMultiPassMethodRunsEveryPassAndReportsItsSummary) {
  RunSpec s = kmeans();
  s.sampling = "pka";
  s.verify = true;
  ValidatedRun v = validate(s);
  const RunResult r = run(v);
  EXPECT_TRUE(r.outcome.verified);
  EXPECT_EQ(r.report.mode, "timing");
  EXPECT_EQ(r.report.sampling, "pka");
  ASSERT_TRUE(r.report.sampling_summary.is_object());
  EXPECT_EQ(r.report.sampling_summary["method"], "pka");
  EXPECT_EQ(r.report.sampling_summary["passes"].size(), 2u);
  // The run's time covers both passes, not only the one whose estimates count.
  double passes = 0;
  for (const auto& p : r.report.sampling_summary["passes"]) passes += p["run_seconds"].get<double>();
  EXPECT_DOUBLE_EQ(r.outcome.run_seconds, passes);
  EXPECT_FALSE(report::to_json(r.report)["config"].is_null());
}

}  // namespace
}  // namespace strobe::experiment
