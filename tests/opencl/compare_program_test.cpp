// `strobe compare --sampling M -- PROGRAM`: an OpenCL program in full detail against sampling
// methods, refused when the program's launches vary (multi-pass methods: multipass_program_test).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "opencl/opencl_test_support.h"

namespace strobe::opencl_test {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

const EnvChanges kCache = {{"STROBE_CACHE_DIR", STROBE_OPENCL_TEST_CACHE}};

TEST(StrobeCompareProgram, ReportsFullAndEstimatedCyclesOfEveryLaunch) {
  RunResult r =
      run({STROBE_BINARY, "compare", "--sampling", "photon", "--json", "-", "--", program_path("matmul")}, kCache);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("mismatches vs CPU=0"));  // the program's output stays off stdout
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["mode"], "timing");
  EXPECT_EQ(j["sampling"], "photon");
  const nlohmann::json& m = j["methods"]["photon"];
  ASSERT_EQ(m["kernels"].size(), 2u);
  uint64_t full = 0, estimated = 0;
  for (size_t i = 0; i < 2; ++i) {
    const nlohmann::json& k = m["kernels"][i];
    EXPECT_EQ(k["launch"], i);
    EXPECT_EQ(k["name"], j["kernels"][i]["name"]);
    EXPECT_EQ(k["full_cycles"], j["kernels"][i]["cycles"]);
    EXPECT_GT(k["estimated_cycles"].get<uint64_t>(), 0u);
    const double f = k["full_cycles"].get<double>(), e = k["estimated_cycles"].get<double>();
    EXPECT_NEAR(k["error_pct"].get<double>(), 100.0 * (e - f) / f, 1e-9);
    full += k["full_cycles"].get<uint64_t>();
    estimated += k["estimated_cycles"].get<uint64_t>();
  }
  EXPECT_EQ(m["full_cycles"], full);
  EXPECT_EQ(m["estimated_cycles"], estimated);
  EXPECT_NEAR(m["error_pct"].get<double>(), 100.0 * (double(estimated) - double(full)) / double(full), 1e-9);
  EXPECT_GT(m["speedup"].get<double>(), 0.0);
  EXPECT_EQ(m["repeats"], 1);
  EXPECT_TRUE(m.contains("levels"));
  EXPECT_TRUE(m.contains("fallback"));
}

TEST(StrobeCompareProgram, PrintsTheMethodTable) {
  RunResult r = run({STROBE_BINARY, "compare", "--sampling", "photon", "--", program_path("matmul")}, kCache);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("matmul: full detailed simulation"));
  EXPECT_THAT(r.out, HasSubstr("est. cycles"));
  EXPECT_THAT(r.out, HasSubstr("photon"));
}

TEST(StrobeCompareProgram, RefusesAProgramWhoseLaunchesDifferBetweenRuns) {
  const std::string counter =
      (fs::path(::testing::TempDir()) / ("strobe-run-counter-" + std::to_string(::getpid()))).string();
  fs::remove(counter);
  EnvChanges env = kCache;
  env.emplace_back("STROBE_TEST_RUN_COUNTER", counter);
  RunResult r = run({STROBE_BINARY, "compare", "--sampling", "photon", "--", program_path("varying_launches")}, env);
  fs::remove(counter);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("launches differently from run to run: launch 0: grid [64,1,1] in the full detailed "
                               "run, [128,1,1] in the photon run"));
}

TEST(StrobeCompareProgram, PhotonTimesChainsThatSaturateTheValuAsFullDetailDoes) {
  // Double-precision multiply-adds hold a SIMD's VALU 64 cycles each and 32-bit integer
  // multiplies 16: ten waves a SIMD saturate it, and oldest-first issue serves one at a time, so
  // the blocks Photon times are the served waves' and not what a predicted group shares. Two
  // generations of groups on 8 CUs: with the paper's rule the estimates are 30% and 40% off
  // (at 64 CUs and 2 M work-items, 7x); the throughput bound gives full detail's cycles.
  RunResult r = run({STROBE_BINARY, "compare", "--sampling", "photon", "--set", "gpu.num_cus=8", "--json", "-",
                     "--", program_path("peak_chains"), "40960"},
                    kCache);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  const nlohmann::json& kernels = j["methods"]["photon"]["kernels"];
  ASSERT_EQ(kernels.size(), 3u);
  for (size_t i : {1, 2}) {
    const nlohmann::json& k = kernels[i];
    SCOPED_TRACE(k["name"].get<std::string>());
    EXPECT_EQ(k["level"], "basic-block");
    EXPECT_LT(std::abs(k["error_pct"].get<double>()), 1.0);
  }
}

TEST(StrobeCompareProgram, RunsAProgramWhoseLaunchesAreStable) {
  RunResult r =
      run({STROBE_BINARY, "compare", "--sampling", "photon", "--repeat", "2", "--", program_path("varying_launches")},
          kCache);
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST(StrobeCompareProgram, RefusesBenchmarkOnlyOptions) {
  RunResult param = run({STROBE_BINARY, "compare", "--sampling", "photon", "--param", "n=4", "--", "/bin/true"}, {});
  EXPECT_EQ(param.exit_code, 2);
  EXPECT_THAT(param.err, HasSubstr("--param: not for a program"));
  RunResult bench = run({STROBE_BINARY, "compare", "vecadd", "--sampling", "photon", "--", "/bin/true"}, {});
  EXPECT_EQ(bench.exit_code, 2);
  EXPECT_THAT(bench.err, HasSubstr("benchmark 'vecadd' given with a program"));
  RunResult unused = run({STROBE_BINARY, "compare", "--sampling", "photon", "--", "/bin/true"}, {});
  EXPECT_EQ(unused.exit_code, 2);
  EXPECT_THAT(unused.err, HasSubstr("made no use of the strobe OpenCL platform"));
}

}  // namespace
}  // namespace strobe::opencl_test
