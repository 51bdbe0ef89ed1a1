// Every suite benchmark run on gfx942 code (clang-19's build of the same kernels), functionally
// and on the detailed timing model, and checked against its CPU reference. A benchmark either verifies or stops at the first
// instruction strobe does not yet execute on gfx942 ("not implemented: ..."): a wrong result,
// any other fault or a crash fails the test.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "cli/cli_runner.h"
#include "common/error.h"
#include "runtime/device.h"
#include "workloads/benchmark.h"
#include "workloads/context.h"
#include "workloads/runner.h"

namespace strobe::workloads {
namespace {

namespace fs = std::filesystem;

/// The quick-run assignments of every parameter of `b`.
std::vector<std::string> small_params(const BenchmarkInfo& b) {
  std::vector<std::string> out;
  for (const ParamSpec& p : b.params) out.push_back(fmt::format("{}={}", p.name, p.small));
  return out;
}

/// Runs `b` at its quick size on a gfx942 device with verification, functionally or (`timing`)
/// on the default detailed timing model.
RunOutcome run_gfx942(const BenchmarkInfo& b, bool timing) {
  RunRequest req;
  req.benchmark = b.name;
  req.params = small_params(b);
  req.verify = true;
  req.prepare_device = [timing](runtime::Device& d) {
    if (!timing) return d.set_isa(isa::Target::Gfx942);
    timing::GpuConfig cfg;  // the default GPU, executing gfx942 (enable_timing takes gpu.isa)
    cfg.isa = "gfx942";
    d.enable_timing(cfg);
  };
  return run_benchmark(std::move(req));
}

/// Runs every registered benchmark on gfx942; each must verify or stop at "not implemented".
/// Prints which verified and where the others stopped.
void survey(bool timing) {
  if (!fs::exists(workload_kernel_dir(isa::Target::Gfx942)))
    GTEST_SKIP() << "no clang-19 build: " << workload_kernel_dir(isa::Target::Gfx942) << " is missing";
  std::vector<std::string> verified;
  std::map<std::string, std::vector<std::string>> missing;  // "not implemented: X" -> benchmarks
  for (const BenchmarkInfo* b : Registry::instance().all()) {
    try {
      RunOutcome out = run_gfx942(*b, timing);
      EXPECT_TRUE(out.verified) << b->name;
      for (const auto& m : out.context->device().modules())
        EXPECT_EQ(m->code_object().processor(), "gfx942") << b->name << " ran " << m->code_object().name();
      for (const LaunchStat& l : out.launches) {
        EXPECT_GT(l.result.stats.wave_instructions, 0u) << b->name << " launch " << l.index;
        if (timing) EXPECT_TRUE(l.result.timing && l.result.timing->cycles > 0) << b->name << " launch " << l.index;
      }
      verified.push_back(b->name);
    } catch (const InputError& e) {
      // The one refusal allowed: an operation gfx942 code uses that has no semantics yet.
      const std::string what = e.what();
      const size_t at = what.find("not implemented: ");
      if (at == std::string::npos || what.find(" on gfx942") == std::string::npos) {
        ADD_FAILURE() << b->name << " was refused on gfx942: " << what;
        continue;
      }
      missing[what.substr(at)].push_back(b->name);
    } catch (const std::exception& e) {
      ADD_FAILURE() << b->name << " failed on gfx942: " << e.what();
    }
  }
  std::string gaps;
  for (const auto& [why, names] : missing) gaps += fmt::format("\n  {}: {}", why, fmt::join(names, " "));
  std::printf("GFX942 %s: %zu of %zu benchmarks verified: %s\nstopped:%s\n", timing ? "timing" : "functional",
              verified.size(), Registry::instance().all().size(), fmt::format("{}", fmt::join(verified, " ")).c_str(),
              gaps.c_str());
  ::testing::Test::RecordProperty("verified", static_cast<int>(verified.size()));
}

TEST(Gfx942Functional, EverySuiteBenchmarkVerifiesOrStopsAtAnInstructionNotYetExecuted) { survey(false); }

TEST(Gfx942Timing, EverySuiteBenchmarkVerifiesOnTheDetailedModelOrStopsAtAnInstructionNotYetExecuted) {
  survey(true);
}

TEST(Gfx942Cli, APresetOrSetSelectsGfx942ForTheSuiteInEveryModeAndRefusesTheRest) {
  if (!fs::exists(workload_kernel_dir(isa::Target::Gfx942))) GTEST_SKIP() << "no clang-19 build";
  using clitest::CliResult;
  using clitest::run_strobe;
  const auto waves = [](const CliResult& r) { return nlohmann::json::parse(r.out).at("wave_instructions").get<uint64_t>(); };
  const CliResult gfx803 = run_strobe("run vecadd --param n=4096 --mode timing --verify --json -");
  const CliResult gfx942 = run_strobe("run vecadd --param n=4096 --mode timing --set gpu.isa=gfx942 --verify --json -");
  ASSERT_EQ(gfx803.rc, 0) << gfx803.err;
  ASSERT_EQ(gfx942.rc, 0) << gfx942.err;
  EXPECT_EQ(nlohmann::json::parse(gfx942.out).at("config").at("gpu").at("isa"), "gfx942");
  EXPECT_NE(waves(gfx942), waves(gfx803)) << "the same code ran twice: gfx942's is clang-19's other program";
  // A preset file selects it for a functional run, which reads no other key of it.
  const fs::path preset = fs::temp_directory_path() / "strobe_gfx942_preset.toml";
  std::ofstream(preset) << "[gpu]\nisa = \"gfx942\"\n";
  const CliResult functional = run_strobe("run vecadd --param n=4096 --arch " + preset.string() + " --verify --json -");
  ASSERT_EQ(functional.rc, 0) << functional.err;
  EXPECT_EQ(waves(functional), waves(gfx942));
  EXPECT_EQ(nlohmann::json::parse(functional.out).at("isa"), "gfx942") << "the report names the instruction set";
  EXPECT_EQ(nlohmann::json::parse(gfx803.out).at("isa"), "gfx803");
  // The MI300X preset runs gfx942 code.
  const CliResult mi300x = run_strobe("run vecadd --param n=4096 --arch mi300x --mode timing --verify --json -");
  ASSERT_EQ(mi300x.rc, 0) << mi300x.err;
  EXPECT_EQ(nlohmann::json::parse(mi300x.out).at("isa"), "gfx942");
  EXPECT_EQ(waves(mi300x), waves(gfx942));
  // mm's matrix-core path (v_mfma_f32_16x16x4_f32) verifies; gfx803 has no matrix cores.
  const CliResult mfma = run_strobe("run mm --param m=64 --param n=96 --param k=48 --param matrix_cores=1 --arch mi300x --mode timing --verify --json -");
  ASSERT_EQ(mfma.rc, 0) << mfma.err;
  EXPECT_EQ(nlohmann::json::parse(mfma.out).at("kernels").at(0).at("name"), "mm_mfma");
  const CliResult no_mfma = run_strobe("run mm --param m=64 --param n=48 --param k=32 --param matrix_cores=1");
  EXPECT_EQ(no_mfma.rc, 2);
  EXPECT_NE(no_mfma.err.find("matrix_cores=1 needs gfx942's matrix cores"), std::string::npos) << no_mfma.err;
  const CliResult sampled = run_strobe("run hotspot --mode timing --sampling photon --set gpu.isa=gfx942 --verify");
  EXPECT_EQ(sampled.rc, 0) << sampled.err;
  fs::remove(preset);
  // What is not built for gfx942 is refused before anything runs.
  const CliResult frames = run_strobe("run gfx:glmark2-small --mode timing --set gpu.isa=gfx942");
  EXPECT_EQ(frames.rc, 1);
  EXPECT_NE(frames.err.find("not implemented: gpu.isa gfx942 for graphics frames"), std::string::npos) << frames.err;
  const CliResult bad = run_strobe("run vecadd --mode timing --set gpu.isa=gfx90a");
  EXPECT_EQ(bad.rc, 2);
  EXPECT_NE(bad.err.find("gpu.isa=gfx90a: expected one of gfx803, gfx942"), std::string::npos) << bad.err;
}

TEST(Gfx942Functional, CodeObjectForTheOtherTargetIsRefusedNamingBoth) {
  if (!fs::exists(workload_kernel_dir(isa::Target::Gfx942))) GTEST_SKIP() << "no clang-19 build";
  runtime::Device gfx942;
  gfx942.set_isa(isa::Target::Gfx942);
  try {
    gfx942.load(workload_kernel_dir(isa::Target::Gfx803) + "/vecadd.hsaco");
    FAIL() << "a gfx803 code object loaded on a gfx942 device";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("code object built for gfx803; the device simulates gfx942"),
              std::string::npos)
        << e.what();
  }
  runtime::Device gfx803;
  try {
    gfx803.load(workload_kernel_dir(isa::Target::Gfx942) + "/vecadd.hsaco");
    FAIL() << "a gfx942 code object loaded on a gfx803 device";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("code object built for gfx942; strobe simulates gfx803"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace strobe::workloads
