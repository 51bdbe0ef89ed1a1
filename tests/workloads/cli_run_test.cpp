// `strobe list` and `strobe run` driven as a subprocess: every registered benchmark verifies at
// its small size, and each failure mode has its exit status and message.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "cli/cli_runner.h"

namespace strobe::clitest {
namespace {

/// `strobe list --json`, parsed; empty when the binary is missing.
nlohmann::json fetch_listing() {
  CliResult r = run_strobe("list --json");
  return r.rc == 0 ? nlohmann::json::parse(r.out) : nlohmann::json{{"benchmarks", nlohmann::json::array()}};
}

const nlohmann::json& listing() {
  static const nlohmann::json j = fetch_listing();
  return j;
}

std::vector<std::string> benchmark_names() {
  std::vector<std::string> v;
  for (const auto& b : listing()["benchmarks"]) v.push_back(b["name"]);
  return v;
}

/// One test per benchmark, named after it. ctest discovers tests right after this binary links,
/// possibly before `strobe` exists; then the single test "all" runs every benchmark instead, so
/// coverage never silently shrinks.
std::vector<std::string> test_params() {
  std::vector<std::string> v = benchmark_names();
  return v.empty() ? std::vector<std::string>{"all"} : v;
}

/// `--param` flags setting every parameter of `name` to its quick-test value.
std::string small_params(const std::string& name) {
  std::string s;
  for (const auto& b : listing()["benchmarks"])
    if (b["name"] == name)
      for (const auto& p : b["params"]) s += " --param " + p["name"].get<std::string>() + "=" + p["small"].dump();
  return s;
}

TEST(List, ShowsEveryBenchmarkWithParametersAndDefaults) {
  CliResult r = run_strobe("list");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("mm"), std::string::npos);
  EXPECT_NE(r.out.find("16x16 LDS tiles"), std::string::npos);
  for (const auto& b : listing()["benchmarks"]) {
    EXPECT_FALSE(b["description"].get<std::string>().empty());
    for (const auto& p : b["params"]) {
      EXPECT_LE(p["min"], p["default"]) << b["name"] << "." << p["name"];
      EXPECT_LE(p["default"], p["max"]) << b["name"] << "." << p["name"];
      EXPECT_LE(p["min"], p["small"]) << b["name"] << "." << p["name"];
      EXPECT_LE(p["small"], p["max"]) << b["name"] << "." << p["name"];
      EXPECT_FALSE(p["doc"].get<std::string>().empty());
    }
  }
}

TEST(List, RegressionJsonDashWritesTheListingToStdoutLikeEveryOtherCommand) {
  CliResult r = run_strobe("list --json -");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out), listing());
}

TEST(List, JsonFileWritesTheSameListing) {
  const std::string path = ::testing::TempDir() + "strobe_list.json";
  CliResult r = run_strobe("list --json " + path);
  ASSERT_EQ(r.rc, 0) << r.err;
  std::ifstream in(path);
  EXPECT_EQ(nlohmann::json::parse(in), listing());
}

TEST(List, DnnInferencesDefaultToOne224x224ImageAtFullWidth) {
  size_t dnns = 0;
  for (const auto& b : listing()["benchmarks"]) {
    std::string name = b["name"];
    if (name.rfind("vgg", 0) != 0 && name.rfind("resnet", 0) != 0) continue;
    ++dnns;
    std::map<std::string, nlohmann::json> defaults;
    for (const auto& p : b["params"]) defaults[p["name"]] = p["default"];
    EXPECT_EQ(defaults["input"], 224) << name;
    EXPECT_EQ(defaults["batch"], 1) << name;
    EXPECT_EQ(defaults["width_div"], 1) << name;
    EXPECT_EQ(defaults["classes"], 1000) << name;
  }
  EXPECT_EQ(dnns, 7u);
}

TEST(List, BenchmarksAreRegistered) { EXPECT_GE(benchmark_names().size(), 22u); }

class EveryBenchmark : public ::testing::TestWithParam<std::string> {};

/// Runs `name` at its small size with --verify (plus `extra` options) and checks the report.
void verify_small(const std::string& name, const std::string& extra = "") {
  SCOPED_TRACE(name + extra);
  TempDir t;
  std::string json = (t.path / "r.json").string();
  CliResult r = run_strobe("run " + name + small_params(name) + extra + " --verify --json " + json);
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("verification passed"), std::string::npos);
  auto j = nlohmann::json::parse(slurp(json));
  EXPECT_EQ(j["benchmark"], name);
  EXPECT_EQ(j["verified"], true);
  ASSERT_FALSE(j["kernels"].empty());
  uint64_t wave = 0;
  for (const auto& k : j["kernels"]) wave += k["wave_instructions"].get<uint64_t>();
  EXPECT_EQ(j["wave_instructions"], wave);
  if (!extra.empty()) {
    EXPECT_GT(j["cycles"].get<uint64_t>(), 0u);
  }
}

TEST_P(EveryBenchmark, VerifiesAtSmallSize) {
  if (GetParam() != "all") return verify_small(GetParam());
  auto names = benchmark_names();
  ASSERT_FALSE(names.empty()) << "strobe list --json failed";
  for (const auto& n : names) verify_small(n);
}

// The timing model executes kernels itself, so every benchmark must verify under it too.
TEST_P(EveryBenchmark, VerifiesAtSmallSizeInTimingMode) {
  if (GetParam() != "all") return verify_small(GetParam(), " --mode timing");
  auto names = benchmark_names();
  ASSERT_FALSE(names.empty()) << "strobe list --json failed";
  for (const auto& n : names) verify_small(n, " --mode timing");
}

INSTANTIATE_TEST_SUITE_P(Registered, EveryBenchmark, ::testing::ValuesIn(test_params()),
                         [](const auto& info) { return info.param; });

TEST(Run, JsonCarriesTheContractFields) {
  CliResult r = run_strobe("run fastwalsh --param n=256 --json -");
  ASSERT_EQ(r.rc, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  for (const char* k : {"benchmark", "mode", "arch", "sampling", "verified", "wall_seconds", "wave_instructions",
                        "thread_instructions", "kernels", "params"})
    EXPECT_TRUE(j.contains(k)) << k;
  EXPECT_EQ(j["mode"], "functional");
  EXPECT_EQ(j["arch"], "r9nano");
  EXPECT_EQ(j["sampling"], "none");
  EXPECT_EQ(j["verified"], false);
  EXPECT_EQ(j["params"]["n"], 256);
  ASSERT_EQ(j["kernels"].size(), 8u);  // log2(256) butterfly stages
  for (size_t i = 0; i < 8; ++i) {
    const auto& k = j["kernels"][i];
    EXPECT_EQ(k["name"], "fastwalsh");
    EXPECT_EQ(k["launch"], i);
    EXPECT_EQ(k["grid"], (std::vector<int>{128, 1, 1}));
    EXPECT_EQ(k["local"], (std::vector<int>{128, 1, 1}));
    EXPECT_GT(k["thread_instructions"].get<uint64_t>(), k["wave_instructions"].get<uint64_t>());
    EXPECT_GT(k["vector_memory_instructions"].get<uint64_t>(), 0u);
  }
}

TEST(Run, JsonSplitsWallTimeIntoSetupRunAndVerify) {
  CliResult plain = run_strobe("run fastwalsh --param n=256 --json -");
  ASSERT_EQ(plain.rc, 0) << plain.err;
  auto p = nlohmann::json::parse(plain.out)["phase_seconds"];
  EXPECT_GT(p["run"].get<double>(), 0.0);
  EXPECT_EQ(p["verify"].get<double>(), 0.0);  // nothing verified, nothing timed
  CliResult checked = run_strobe("run fastwalsh --param n=256 --verify --json -");
  ASSERT_EQ(checked.rc, 0) << checked.err;
  auto j = nlohmann::json::parse(checked.out);
  auto c = j["phase_seconds"];
  EXPECT_GT(c["verify"].get<double>(), 0.0);
  double sum = c["setup"].get<double>() + c["run"].get<double>() + c["verify"].get<double>();
  EXPECT_LE(sum, j["wall_seconds"].get<double>() + 1e-9);
}

TEST(Run, DefaultSizeRunsWithNoArguments) {
  CliResult r = run_strobe("run vecadd");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("vecadd: functional mode, 1 launch"), std::string::npos) << r.out;
}

TEST(Run, FailedVerificationExitsOneWithTheFirstMismatch) {
  CliResult r = run_strobe("run vecadd --param n=100 --verify --test-corrupt-output");
  EXPECT_EQ(r.rc, 1);
  EXPECT_NE(r.err.find("verification failed: c[0]: expected"), std::string::npos) << r.err;
}

TEST(Run, BadParametersExitTwoWithOneClearMessage) {
  CliResult unknown = run_strobe("run mm --param size=3");
  EXPECT_EQ(unknown.rc, 2);
  EXPECT_NE(unknown.err.find("valid: m, n, k"), std::string::npos) << unknown.err;
  CliResult nonnum = run_strobe("run mm --param m=big");
  EXPECT_EQ(nonnum.rc, 2);
  EXPECT_NE(nonnum.err.find("not a number"), std::string::npos) << nonnum.err;
  CliResult range = run_strobe("run mm --param m=100000");
  EXPECT_EQ(range.rc, 2);
  EXPECT_NE(range.err.find("must be in [16, 8192]"), std::string::npos) << range.err;
  CliResult shape = run_strobe("run mm --param m=17");
  EXPECT_EQ(shape.rc, 2);
  EXPECT_NE(shape.err.find("multiple of 16"), std::string::npos) << shape.err;
  CliResult unknown_bench = run_strobe("run no_such_bench");
  EXPECT_EQ(unknown_bench.rc, 2);
  EXPECT_NE(unknown_bench.err.find("available:"), std::string::npos) << unknown_bench.err;
  CliResult arch = run_strobe("run vecadd --arch nosuch");
  EXPECT_EQ(arch.rc, 2);
}

TEST(Run, TimingModeVerifiesAndReportsCycles) {
  CliResult r = run_strobe("run fastwalsh --param n=256 --mode timing --set gpu.num_cus=4 --verify --json -");
  ASSERT_EQ(r.rc, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["mode"], "timing");
  EXPECT_EQ(j["verified"], true);
  EXPECT_GT(j["cycles"].get<uint64_t>(), 0u);
  EXPECT_GT(j["sim_seconds"].get<double>(), 0.0);
  EXPECT_EQ(j["config"]["gpu"]["num_cus"], 4);  // the effective configuration travels with the result
  ASSERT_EQ(j["kernels"].size(), 8u);
  uint64_t sum = 0;
  for (const auto& k : j["kernels"]) sum += k["cycles"].get<uint64_t>();
  EXPECT_EQ(j["cycles"], sum);
}

TEST(Run, ConfigurationErrorsAreUsageErrors) {
  CliResult unknown_key = run_strobe("run vecadd --param n=64 --mode timing --set no.such=1");
  EXPECT_EQ(unknown_key.rc, 2);
  EXPECT_NE(unknown_key.err.find("no.such"), std::string::npos) << unknown_key.err;
  // Functional emulation has no configuration: an override there would be silently ignored.
  CliResult functional = run_strobe("run vecadd --param n=64 --set gpu.num_cus=4");
  EXPECT_EQ(functional.rc, 2);
  EXPECT_NE(functional.err.find("needs --mode timing"), std::string::npos) << functional.err;
  CliResult mode = run_strobe("run vecadd --param n=64 --mode fast");
  EXPECT_EQ(mode.rc, 2);
}

TEST(Run, TheReportSaysHowManyHostThreadsFunctionalLaunchesHad) {
  CliResult three = run_strobe("run vecadd --param n=64 --threads 3 --json -");
  ASSERT_EQ(three.rc, 0) << three.err;
  EXPECT_EQ(nlohmann::json::parse(three.out)["host_threads"], 3);
  CliResult every = run_strobe("run vecadd --param n=64 --json -");
  ASSERT_EQ(every.rc, 0) << every.err;
  EXPECT_GE(nlohmann::json::parse(every.out)["host_threads"].get<int>(), 1);  // every core
}

TEST(Run, AThreadCountOutsideItsRangeIsAUsageErrorNamingTheOption) {
  CliResult big = run_strobe("run vecadd --param n=64 --threads 5000");
  EXPECT_EQ(big.rc, 2);
  EXPECT_NE(big.err.find("--threads"), std::string::npos) << big.err;
  CliResult word = run_strobe("run vecadd --param n=64 --threads many");
  EXPECT_EQ(word.rc, 2);
  EXPECT_NE(word.err.find("--threads"), std::string::npos) << word.err;
}

TEST(Run, ProgressGoesToStderrOnlyWhenAsked) {
  CliResult quiet = run_strobe("run fastwalsh --param n=64");
  EXPECT_EQ(quiet.err, "");
  CliResult loud = run_strobe("run fastwalsh --param n=64 --progress");
  EXPECT_NE(loud.err.find("kernel 6 of 6"), std::string::npos) << loud.err;
}

}  // namespace
}  // namespace strobe::clitest
