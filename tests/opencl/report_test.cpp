// The platform's exit report (STROBE_JSON), timing mode's simulated profiling clock, and
// `strobe run -- PROGRAM`.
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "opencl/opencl_test_support.h"

namespace strobe::opencl_test {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

std::string report_path(const std::string& name) {
  return (fs::path(::testing::TempDir()) / ("strobe-opencl-" + name + "-" + std::to_string(::getpid()) + ".json")).string();
}

TEST(Report, AFunctionalRunListsEveryLaunchLikeStrobeRunJson) {
  const std::string path = report_path("functional");
  EnvChanges env = strobe_env();
  env.emplace_back("STROBE_JSON", path);
  RunResult r = run({program_path("vector_ops")}, env);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json j = read_json(path);
  EXPECT_EQ(j["benchmark"], "vector_ops");
  EXPECT_EQ(j["mode"], "functional");
  EXPECT_EQ(j["arch"], "r9nano");
  EXPECT_EQ(j["sampling"], "none");
  EXPECT_FALSE(j.contains("cycles"));
  ASSERT_EQ(j["kernels"].size(), 5u);
  std::vector<std::string> names;
  for (const auto& k : j["kernels"]) names.push_back(k["name"]);
  EXPECT_EQ(names, (std::vector<std::string>{"vadd", "axpy", "mixbits", "offset2d", "scale4"}));
  EXPECT_EQ(j["kernels"][0]["grid"], (std::vector<int>{4096, 1, 1}));
  EXPECT_EQ(j["kernels"][0]["local"], (std::vector<int>{64, 1, 1}));
  EXPECT_EQ(j["kernels"][1]["local"], (std::vector<int>{250, 1, 1}));  // chosen by strobe for 1000
  EXPECT_EQ(j["kernels"][3]["grid"], (std::vector<int>{32, 16, 1}));
  uint64_t wave = 0;
  for (const auto& k : j["kernels"]) wave += k["wave_instructions"].get<uint64_t>();
  EXPECT_EQ(j["wave_instructions"], wave);
  EXPECT_GT(wave, 0u);
  fs::remove(path);
}

TEST(Report, TimingModeProfilingTimesAreTheSimulatedKernelTimes) {
  const std::string path = report_path("timing");
  EnvChanges env = strobe_env();
  env.emplace_back("STROBE_MODE", "timing");
  env.emplace_back("STROBE_JSON", path);
  RunResult r = run({program_path("profile"), "8"}, env);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json j = read_json(path);
  EXPECT_EQ(j["mode"], "timing");
  ASSERT_EQ(j["kernels"].size(), 2u);
  EXPECT_TRUE(j.contains("config"));
  unsigned long long ns0, ns1, start0, start1;
  ASSERT_EQ(std::sscanf(r.out.c_str(), "kernel ns: %llu %llu\nstart ns: %llu %llu", &ns0, &ns1, &start0, &start1), 4)
      << r.out;
  // One nanosecond per cycle at the R9 Nano's 1000 MHz clock.
  EXPECT_EQ(ns0, j["kernels"][0]["cycles"].get<uint64_t>());
  EXPECT_EQ(ns1, j["kernels"][1]["cycles"].get<uint64_t>());
  EXPECT_NEAR(double(ns0), j["kernels"][0]["sim_seconds"].get<double>() * 1e9, 1.0);
  EXPECT_EQ(start1, start0 + ns0);  // the simulated clock advances by each launch
  EXPECT_THAT(r.out, HasSubstr("second starts after first ends: 1"));
  fs::remove(path);
}

TEST(Report, StrobeSetOverridesReachTheTimingModel) {
  const std::string path = report_path("set");
  EnvChanges env = strobe_env();
  env.emplace_back("STROBE_MODE", "timing");
  env.emplace_back("STROBE_SET", "gpu.clock_mhz=500\ngpu.num_cus=4");
  env.emplace_back("STROBE_JSON", path);
  RunResult r = run({program_path("profile"), "8"}, env);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json j = read_json(path);
  EXPECT_EQ(j["config"]["gpu"]["num_cus"], 4);
  unsigned long long ns0;
  ASSERT_EQ(std::sscanf(r.out.c_str(), "kernel ns: %llu", &ns0), 1);
  EXPECT_EQ(ns0, 2 * j["kernels"][0]["cycles"].get<uint64_t>());  // 2 ns per cycle at 500 MHz
  fs::remove(path);
}

TEST(StrobeRun, RunsAnOpenCLProgramAndSummarisesItsLaunches) {
  RunResult r = run({STROBE_BINARY, "run", "--", program_path("matmul")}, {{"STROBE_CACHE_DIR", STROBE_OPENCL_TEST_CACHE}});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("mismatches vs CPU=0"));
  EXPECT_THAT(r.err, HasSubstr("strobe: matmul: functional mode, 2 kernel launches"));
}

TEST(StrobeRun, PassesModeArchAndJsonToThePlatform) {
  const std::string path = report_path("run");
  RunResult r = run({STROBE_BINARY, "run", "--mode", "timing", "--arch", "mi100", "--set", "gpu.num_cus=60", "--json",
                     path, "--", program_path("profile"), "4"},
                    {{"STROBE_CACHE_DIR", STROBE_OPENCL_TEST_CACHE}});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json j = read_json(path);
  EXPECT_EQ(j["mode"], "timing");
  EXPECT_EQ(j["arch"], "mi100");
  EXPECT_EQ(j["config"]["gpu"]["num_cus"], 60);
  EXPECT_EQ(j["params"]["argv"][1], "4");
  EXPECT_THAT(r.err, HasSubstr("cycles"));
  EXPECT_THAT(r.err, HasSubstr("report: " + path));
  fs::remove(path);
}

TEST(StrobeRun, SinglePassSamplingRunsTheProgramUnderTheMethod) {
  const std::string path = report_path("sampling");
  RunResult r = run({STROBE_BINARY, "run", "--sampling", "photon", "--json", path, "--", program_path("matmul")},
                    {{"STROBE_CACHE_DIR", STROBE_OPENCL_TEST_CACHE}});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("mismatches vs CPU=0"));
  nlohmann::json j = read_json(path);
  EXPECT_EQ(j["mode"], "timing");
  EXPECT_EQ(j["sampling"], "photon");
  ASSERT_EQ(j["kernels"].size(), 2u);
  for (const auto& k : j["kernels"]) {
    EXPECT_EQ(k["sampling"]["method"], "photon");
    EXPECT_EQ(k["cycles"], k["sampling"]["estimated_cycles"]);
  }
  fs::remove(path);
  // PKA profiles the whole workload before sampling it: a program that never uses the
  // platform leaves its sampled pass nothing to start from.
  RunResult pka = run({STROBE_BINARY, "run", "--sampling", "pka", "--", "/bin/true"}, {});
  EXPECT_EQ(pka.exit_code, 1);
  EXPECT_THAT(pka.err, HasSubstr("made no use of the strobe OpenCL platform or HIP, so pass 0 of pka left no state"));
  RunResult functional = run({STROBE_BINARY, "run", "--mode", "functional", "--sampling", "photon", "--", "/bin/true"}, {});
  EXPECT_EQ(functional.exit_code, 2);
}

TEST(StrobeRun, JsonDashPrintsTheReportAfterTheProgramsOutput) {
  RunResult r = run({STROBE_BINARY, "run", "--json", "-", "--", program_path("profile")},
                    {{"STROBE_CACHE_DIR", STROBE_OPENCL_TEST_CACHE}});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  size_t brace = r.out.find('{');
  ASSERT_NE(brace, std::string::npos);
  EXPECT_THAT(r.out.substr(0, brace), HasSubstr("kernel ns:"));
  EXPECT_EQ(nlohmann::json::parse(r.out.substr(brace))["kernels"].size(), 2u);
}

TEST(StrobeRun, ReturnsTheProgramsExitStatus) {
  RunResult r = run({STROBE_BINARY, "run", "--", "/bin/sh", "-c", "exit 7"}, {});
  EXPECT_EQ(r.exit_code, 7);
  EXPECT_THAT(r.err, HasSubstr("made no use of the strobe OpenCL platform"));
}

TEST(StrobeRun, BadOptionsAreUsageErrorsBeforeTheProgramStarts) {
  RunResult bad_arch = run({STROBE_BINARY, "run", "--arch", "no-such-gpu", "--", "/bin/true"}, {});
  EXPECT_EQ(bad_arch.exit_code, 2);
  EXPECT_THAT(bad_arch.err, HasSubstr("no-such-gpu"));
  RunResult set_without_timing = run({STROBE_BINARY, "run", "--set", "gpu.num_cus=4", "--", "/bin/true"}, {});
  EXPECT_EQ(set_without_timing.exit_code, 2);
  RunResult nothing = run({STROBE_BINARY, "run", "--"}, {});
  EXPECT_EQ(nothing.exit_code, 2);
  RunResult both = run({STROBE_BINARY, "run", "vecadd", "--", "/bin/true"}, {});
  EXPECT_EQ(both.exit_code, 2);
  RunResult verify = run({STROBE_BINARY, "run", "--verify", "--", "/bin/true"}, {});
  EXPECT_EQ(verify.exit_code, 2);
  RunResult missing = run({STROBE_BINARY, "run", "--", "/no/such/program"}, {});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_THAT(missing.err, HasSubstr("cannot run '/no/such/program'"));
}

}  // namespace
}  // namespace strobe::opencl_test
