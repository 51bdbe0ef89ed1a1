// Sampling methods that make several passes (PKA, TBPoint) on an OpenCL host program: the
// program runs once per pass, the profiling pass's state crossing to the sampled pass's process
// in a file, and a state or profile of another program or launch sequence is refused.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "opencl/opencl_test_support.h"

namespace strobe::opencl_test {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

const EnvChanges kCache = {{"STROBE_CACHE_DIR", STROBE_OPENCL_TEST_CACHE}};

/// A file name of this test process's own under the test temporary directory.
std::string temp_file(const std::string& name) {
  return (fs::path(::testing::TempDir()) / (name + "-" + std::to_string(::getpid()))).string();
}

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

/// The strobe platform's environment for running a program directly, with `extra` on top.
EnvChanges platform_env(const EnvChanges& extra) {
  EnvChanges env = strobe_env();
  env.insert(env.end(), extra.begin(), extra.end());
  return env;
}

TEST(StrobeCompareMultiPass, ComparesPhotonPkaAndTbpointWithAProfilingRunForEachMultiPassMethod) {
  RunResult r = run({STROBE_BINARY, "compare", "--sampling", "photon,pka,tbpoint", "--json", "-", "--",
                     program_path("repeated_launches")},
                    kCache);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("mismatches vs CPU=0"));
  const nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["kernels"].size(), 6u);
  for (const char* name : {"photon", "pka", "tbpoint"}) {
    SCOPED_TRACE(name);
    const nlohmann::json& m = j["methods"][name];
    ASSERT_EQ(m["kernels"].size(), 6u);
    EXPECT_GT(m["estimated_cycles"].get<uint64_t>(), 0u);
    EXPECT_GT(m["speedup"].get<double>(), 0.0);
    EXPECT_TRUE(m["levels"].is_object());
  }
  for (const char* name : {"pka", "tbpoint"}) {
    SCOPED_TRACE(name);
    const nlohmann::json& m = j["methods"][name];
    // The profiling run saw every launch the full run did, and its time is the method's.
    ASSERT_EQ(m["sampling"]["earlier_passes"].size(), 1u);
    EXPECT_EQ(m["sampling"]["earlier_passes"][0]["launches"], 6);
    EXPECT_GT(m["sampling"]["earlier_passes"][0]["functional_instructions"].get<uint64_t>(), 0u);
    // Six launches of one kernel with the same arguments are one cluster: one is timed (which
    // one is the method's choice), the rest take its rate.
    EXPECT_EQ(m["levels"].value("cluster", 0), 5) << m["levels"].dump();
    size_t timed = 0;
    for (const auto& k : m["kernels"]) timed += k["level"] != "cluster";
    EXPECT_EQ(timed, 1u);
  }
  EXPECT_FALSE(j["methods"]["photon"]["sampling"].contains("earlier_passes"));
}

TEST(StrobeCompareMultiPass, PkaTimesEveryLaunchOfAClusterAsItsRepresentative) {
  RunResult r = run({STROBE_BINARY, "compare", "--sampling", "pka", "--json", "-", "--",
                     program_path("repeated_launches")},
                    kCache);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json m = nlohmann::json::parse(r.out)["methods"]["pka"];
  // Equal instructions at the representative's IPC after its equal lead: the same cycles, which
  // only holds when the sampled run restored the profiling run's clusters.
  const double rep = m["kernels"][0]["estimated_cycles"].get<double>();
  for (size_t i = 1; i < 6; ++i) EXPECT_NEAR(m["kernels"][i]["estimated_cycles"].get<double>(), rep, rep * 0.01);
}

TEST(StrobeRunMultiPass, RunsTheProgramOncePerPassAndReportsTheSampledPass) {
  const std::string path = temp_file("strobe-pka-run.json");
  RunResult r = run({STROBE_BINARY, "run", "--sampling", "pka", "--json", path, "--", program_path("repeated_launches")},
                    kCache);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The program ran twice: the profiling pass and the sampled pass each printed its output.
  size_t runs = 0;
  for (size_t at = r.out.find("mismatches vs CPU=0"); at != std::string::npos; at = r.out.find("mismatches vs CPU=0", at + 1))
    ++runs;
  EXPECT_EQ(runs, 2u) << r.out;
  const nlohmann::json j = read_json(path);
  EXPECT_EQ(j["sampling"], "pka");
  ASSERT_EQ(j["kernels"].size(), 6u);
  for (const auto& k : j["kernels"]) EXPECT_EQ(k["sampling"]["method"], "pka");
  EXPECT_EQ(j["kernels"][5]["sampling"]["level"], "cluster");
  fs::remove(path);
}

TEST(StrobeRunMultiPass, SkippingFunctionalWorkLeavesThePredictedLaunchesResultsUncomputed) {
  // For programs that never read what they compute (clpeak): the launches PKA predicts do not
  // run at all, so this program, which checks its buffer, sees the work of the one launch
  // simulated in detail and fails; the report still estimates all six.
  const std::string path = temp_file("strobe-pka-skip.json");
  RunResult r = run({STROBE_BINARY, "run", "--sampling", "pka", "--sampling-skip-functional", "--json", path, "--",
                     program_path("repeated_launches")},
                    kCache);
  EXPECT_EQ(r.exit_code, 1) << r.err;  // the program's own status: mismatches found
  EXPECT_THAT(r.out, HasSubstr("mismatches vs CPU=0"));  // the profiling pass emulates everything
  EXPECT_THAT(r.out, HasSubstr("mismatches vs CPU=4096"));
  const nlohmann::json j = read_json(path);
  ASSERT_EQ(j["kernels"].size(), 6u);
  EXPECT_EQ(j["kernels"][5]["sampling"]["level"], "cluster");
  EXPECT_FALSE(j["kernels"][5]["sampling"]["emulated"].get<bool>());
  EXPECT_GT(j["kernels"][5]["sampling"]["estimated_cycles"].get<double>(), 0.0);
  fs::remove(path);
}

TEST(StrobeCompareMultiPass, RefusesAProgramWhoseLaunchesDifferBetweenItsPasses) {
  const std::string counter = temp_file("strobe-pass-counter");
  fs::remove(counter);
  EnvChanges env = kCache;
  env.emplace_back("STROBE_TEST_RUN_COUNTER", counter);
  RunResult r = run({STROBE_BINARY, "compare", "--sampling", "pka", "--", program_path("varying_launches")}, env);
  fs::remove(counter);
  EXPECT_EQ(r.exit_code, 2);
  // The sampled pass (run 3) finds another grid than its profiling pass (run 2) recorded, and
  // the profiling pass another than the full run (run 1).
  EXPECT_THAT(r.err, HasSubstr("does not match the workload: launch 0 (fill) has grid 128x1x1 in the profile, "
                               "192x1x1 in this run"));
  EXPECT_THAT(r.err, HasSubstr("launches differently from run to run: launch 0: grid [64,1,1] in the full detailed "
                               "run, [128,1,1] in pass 0 of the pka run"));
}

TEST(StrobePassState, ACorruptPassStateIsRefusedNamingTheFile) {
  const std::string state = temp_file("strobe-corrupt-state.json");
  std::ofstream(state) << "{\"format\": \"strobe-pka-pass-state\", \"version\"";
  RunResult r = run({program_path("repeated_launches")},
                    platform_env({{"STROBE_MODE", "timing"}, {"STROBE_SAMPLING", "pka"}, {"STROBE_PASS", "1"},
                                  {"STROBE_PASS_STATE", state}, {"STROBE_CACHE_DIR", STROBE_OPENCL_TEST_CACHE}}));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_THAT(r.err, HasSubstr("pass state " + state + ": not valid JSON"));
  fs::remove(state);
}

TEST(StrobePassState, AStateOfAnotherProgramIsRefusedNamingTheDifference) {
  const std::string state = temp_file("strobe-foreign-state.json");
  const EnvChanges pass0 = platform_env({{"STROBE_MODE", "timing"}, {"STROBE_SAMPLING", "pka"}, {"STROBE_PASS", "0"},
                                         {"STROBE_PASS_STATE", state}, {"STROBE_CACHE_DIR", STROBE_OPENCL_TEST_CACHE}});
  ASSERT_EQ(run({program_path("matmul")}, pass0).exit_code, 0);
  ASSERT_TRUE(fs::exists(state));
  EnvChanges pass1 = pass0;
  for (auto& [name, value] : pass1)
    if (name == "STROBE_PASS") value = "1";
  RunResult r = run({program_path("repeated_launches")}, pass1);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_THAT(r.err, HasSubstr("pass state " + state + " does not match the workload: it profiles program '"));
  EXPECT_THAT(r.err, HasSubstr("/matmul', this run program '"));
  fs::remove(state);
}

TEST(StrobeProfileProgram, WritesAProfileThatTbpointReusesAndThatChecksAgainstTheProgram) {
  const std::string prof = temp_file("strobe-program.prof");
  RunResult p = run({STROBE_BINARY, "profile", "-o", prof, "--", program_path("repeated_launches")}, kCache);
  ASSERT_EQ(p.exit_code, 0) << p.err;
  EXPECT_THAT(p.out, HasSubstr("profile " + prof + ": 6 launches, 384 work-groups"));
  RunResult check = run({STROBE_BINARY, "profile", "--check", prof, "--", program_path("repeated_launches")}, kCache);
  EXPECT_EQ(check.exit_code, 0) << check.err;
  EXPECT_THAT(check.out, HasSubstr("matches"));

  const std::string json = temp_file("strobe-tbpoint-reuse.json");
  RunResult reuse = run({STROBE_BINARY, "run", "--sampling", "tbpoint", "--profile", prof, "--json", json, "--",
                         program_path("repeated_launches")},
                        kCache);
  ASSERT_EQ(reuse.exit_code, 0) << reuse.err;
  const nlohmann::json j = read_json(json);
  ASSERT_EQ(j["kernels"].size(), 6u);
  EXPECT_EQ(j["kernels"][5]["sampling"]["level"], "cluster");
  fs::remove(json);

  RunResult other =
      run({STROBE_BINARY, "run", "--sampling", "tbpoint", "--profile", prof, "--", program_path("matmul")}, kCache);
  EXPECT_EQ(other.exit_code, 2);
  EXPECT_THAT(other.err, HasSubstr("profile " + prof + " does not match the workload: it profiles program '"));
  RunResult args = run({STROBE_BINARY, "compare", "--sampling", "tbpoint", "--profile", prof, "--",
                        program_path("repeated_launches"), "extra"},
                       kCache);
  EXPECT_EQ(args.exit_code, 2);
  EXPECT_THAT(args.err, HasSubstr("profile " + prof + " does not match the workload: parameters '(none)' in the "
                                  "profile, 'extra' in this run"));
  fs::remove(prof);
}

TEST(StrobeProfileProgram, ACorruptProfileIsRefusedBeforeTheProgramRuns) {
  const std::string prof = temp_file("strobe-corrupt.prof");
  std::ofstream(prof) << "not a profile";
  RunResult r = run({STROBE_BINARY, "run", "--sampling", "tbpoint", "--profile", prof, "--",
                     program_path("repeated_launches")},
                    kCache);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("profile " + prof));
  EXPECT_THAT(r.out, Not(HasSubstr("mismatches")));
  fs::remove(prof);
}

}  // namespace
}  // namespace strobe::opencl_test
