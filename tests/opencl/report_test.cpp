// The platform's exit report (STROBE_JSON), timing mode's simulated profiling clock, and
// `strobe run -- PROGRAM`.
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

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

/// One command's profiling times, as host_link prints them.
struct Times {
  uint64_t queued = 0, submit = 0, start = 0, end = 0;
};

std::map<std::string, Times> command_times(const std::string& out) {
  std::map<std::string, Times> t;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    char name[64];
    unsigned long long q, s, b, e;
    if (std::sscanf(line.c_str(), "%63s %llu %llu %llu %llu", name, &q, &s, &b, &e) == 5) t[name] = {q, s, b, e};
  }
  return t;
}

TEST(Report, TimingModeTimesHostCopiesOnTheLinkAndKernelsAfterTheLaunchLatency) {
  const std::string path = report_path("host-link");
  EnvChanges env = strobe_env();
  env.emplace_back("STROBE_MODE", "timing");
  // Round rates: a byte takes 0.1 ns to the device and 0.2 ns back; the DRAM moves 512 per ns.
  env.emplace_back("STROBE_SET", "host.to_device_gbs=10\nhost.to_host_gbs=5\nhost.transfer_latency_us=1\n"
                                 "host.launch_latency_us=3");
  env.emplace_back("STROBE_JSON", path);
  RunResult r = run({program_path("host_link")}, env);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("data ok: 1"));
  auto t = command_times(r.out);
  ASSERT_EQ(t.size(), 11u) << r.out;
  const uint64_t mib = 1 << 20, to_device = 1000 + mib / 10 + 1, to_host = 1000 + mib / 5 + 1;  // rounded up
  // A blocking write starts when queued and takes the latency plus its bytes at the link's rate.
  EXPECT_EQ(t["write"].start, t["write"].queued);
  EXPECT_EQ(t["write"].end - t["write"].start, to_device);
  // The host waited for the write, so the kernel is queued when it ended and starts 3 us later.
  nlohmann::json j = read_json(path);
  EXPECT_EQ(t["kernel"].queued, t["write"].end);
  EXPECT_EQ(t["kernel"].submit, t["kernel"].queued);
  EXPECT_EQ(t["kernel"].start - t["kernel"].queued, 3000u);
  EXPECT_EQ(t["kernel"].end - t["kernel"].start, j["kernels"][0]["cycles"].get<uint64_t>());  // 1 ns per cycle
  EXPECT_EQ(t["read"].end - t["read"].start, to_host);
  // A device-local copy is a blit: the launch latency, then 2 MiB at the DRAM's 512 GB/s.
  EXPECT_EQ(t["copy"].start - t["copy"].queued, 3000u);
  EXPECT_EQ(t["copy"].end - t["copy"].start, 2 * mib / 512);
  // Mapping a device buffer copies it to the host; unmapping after a write copies it back.
  EXPECT_EQ(t["map"].end - t["map"].start, to_host);
  EXPECT_EQ(t["unmap"].end - t["unmap"].start, to_device);
  // A buffer in host memory (ALLOC_HOST_PTR) maps and unmaps without a copy.
  EXPECT_EQ(t["pinned-map"].end, t["pinned-map"].start);
  EXPECT_EQ(t["pinned-unmap"].end, t["pinned-unmap"].start);
  // Out of order: the link is full duplex, so a write and a read overlap; two writes share the
  // one engine of their direction and follow each other.
  EXPECT_EQ(t["ooo-read"].start, t["ooo-write"].start);
  EXPECT_LT(t["ooo-read"].start, t["ooo-write"].end);
  EXPECT_EQ(t["ooo-write2"].start, t["ooo-write"].end);
  // The report sets the copies beside the kernels, and spans the whole program.
  const auto& h = j["host"];
  EXPECT_EQ(h["to_device"]["commands"], 4);  // write, unmap and the two out-of-order writes
  EXPECT_EQ(h["to_device"]["bytes"], 4 * mib);
  EXPECT_EQ(h["to_host"]["commands"], 4);  // read, map, a 4-byte read, the out-of-order read
  EXPECT_NEAR(h["to_device"]["busy_seconds"].get<double>(), 4 * to_device * 1e-9, 1e-12);
  EXPECT_NEAR(h["span_seconds"].get<double>(), double(t["ooo-write2"].end) * 1e-9, 1e-12);
  EXPECT_DOUBLE_EQ(h["link"]["to_device_gbs"].get<double>(), 10.0);
  fs::remove(path);
}

TEST(Report, AFunctionalRunKeepsHostTimeAndReportsNoLink) {
  const std::string path = report_path("host-link-functional");
  EnvChanges env = strobe_env();
  env.emplace_back("STROBE_JSON", path);
  RunResult r = run({program_path("host_link")}, env);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("data ok: 1"));
  EXPECT_FALSE(read_json(path).contains("host"));
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
