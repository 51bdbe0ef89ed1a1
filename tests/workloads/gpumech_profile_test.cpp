// GPUMech re-run for another configuration from saved traces (`strobe profile --gpumech`, then
// `--sampling gpumech --profile FILE`, METHODS.md §2.7): the same configuration predicts what
// tracing predicts, another one redoes only the caches and the representative, work need not be
// executed then, and the ways in are refused with errors that say what to do.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>

#include "cli/cli_runner.h"

namespace strobe::clitest {
namespace {

/// pagerank: two kernels, several launches of each.
constexpr const char* kBench = "pagerank --param vertices=4096 --param iterations=2";

nlohmann::json run_json(const std::string& args) {
  const CliResult r = run_strobe(args + " --json -");
  EXPECT_EQ(r.rc, 0) << r.err;
  return r.rc == 0 ? nlohmann::json::parse(r.out) : nlohmann::json{};
}

TEST(GpumechProfile, SavedTracesPredictWhatTracingPredictsAtTheSameConfiguration) {
  TempDir t;
  const std::string prof = (t.path / "pr.prof").string();
  const CliResult p = run_strobe(std::string("profile ") + kBench + " -o " + prof + " --gpumech");
  ASSERT_EQ(p.rc, 0) << p.err;
  const auto traced = run_json(std::string("run ") + kBench + " --mode analytical --set cu.scheduler=gto");
  const auto saved =
      run_json(std::string("run ") + kBench + " --mode analytical --set cu.scheduler=gto --verify --profile " + prof);
  ASSERT_EQ(traced["kernels"].size(), saved["kernels"].size());
  ASSERT_GE(saved["kernels"].size(), 4u);
  EXPECT_TRUE(saved["verified"].get<bool>());  // executed functionally: results exact
  for (size_t i = 0; i < saved["kernels"].size(); ++i) {
    const auto& a = traced["kernels"][i];
    const auto& b = saved["kernels"][i];
    EXPECT_TRUE(b["sampling"]["detail"]["from_profile"].get<bool>());
    EXPECT_EQ(b["sampling"]["detail"]["representative_wave"], a["sampling"]["detail"]["representative_wave"]);
    EXPECT_EQ(b["cycles"], a["cycles"]) << "launch " << i;
  }
  EXPECT_EQ(saved["sampling_summary"]["method_summary"]["from_profile"], saved["kernels"].size());
}

TEST(GpumechProfile, AnotherConfigurationRedoesTheCachesAndRepresentativeWithoutExecuting) {
  TempDir t;
  const std::string prof = (t.path / "pr.prof").string();
  ASSERT_EQ(run_strobe(std::string("profile ") + kBench + " -o " + prof + " --gpumech").rc, 0);
  const std::string slow = " --mode analytical --set cu.scheduler=gto --set dram.bandwidth_gbs=64";
  const auto saved = run_json(std::string("run ") + kBench + slow + " --sampling-skip-functional --profile " + prof);
  const auto traced = run_json(std::string("run ") + kBench + slow);
  const auto fast = run_json(std::string("run ") + kBench + " --mode analytical --set cu.scheduler=gto --profile " + prof);
  ASSERT_EQ(saved["kernels"].size(), traced["kernels"].size());
  EXPECT_FALSE(saved["verified"].get<bool>());
  size_t same_rep = 0, slower = 0;
  for (size_t i = 0; i < saved["kernels"].size(); ++i) {
    const auto& s = saved["kernels"][i];
    EXPECT_FALSE(s["sampling"]["emulated"].get<bool>());
    EXPECT_EQ(s["wave_instructions"], traced["kernels"][i]["wave_instructions"]);  // the profile's counts
    slower += s["cycles"].get<uint64_t>() > fast["kernels"][i]["cycles"].get<uint64_t>();
    // The representative was chosen once, on the profiling configuration; where tracing at 64 GB/s
    // picks the same wave, the two predictions are the same.
    if (s["sampling"]["detail"]["representative_wave"] == traced["kernels"][i]["sampling"]["detail"]["representative_wave"]) {
      ++same_rep;
      EXPECT_EQ(s["cycles"], traced["kernels"][i]["cycles"]) << "launch " << i;
    }
  }
  EXPECT_GT(same_rep, 0u);
  EXPECT_GT(slower, 0u) << "an eighth of the DRAM bandwidth slows some launch down";
}

TEST(GpumechProfile, SkippingFunctionalWorkNeedsSavedTraces) {
  const CliResult r = run_strobe(std::string("run ") + kBench + " --mode analytical --set cu.scheduler=gto "
                                 "--sampling-skip-functional");
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("strobe profile --gpumech"), std::string::npos) << r.err;
}

TEST(GpumechProfile, AProfileWithoutTracesIsRefusedNamingTheCommandThatWritesThem) {
  TempDir t;
  const std::string prof = (t.path / "plain.prof").string();
  ASSERT_EQ(run_strobe(std::string("profile ") + kBench + " -o " + prof).rc, 0);
  const CliResult r =
      run_strobe(std::string("run ") + kBench + " --mode analytical --set cu.scheduler=gto --profile " + prof);
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("has no GPUMech trace for launch 0"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("strobe profile --gpumech"), std::string::npos) << r.err;
}

TEST(GpumechProfile, AHostProgramsTracesAreNotImplementedAndSaySo) {
  TempDir t;
  const CliResult r = run_strobe("profile -o " + (t.path / "x.prof").string() + " --gpumech -- /bin/true");
  EXPECT_NE(r.rc, 0);
  EXPECT_NE(r.err.find("not implemented: --gpumech for a host program"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace strobe::clitest
