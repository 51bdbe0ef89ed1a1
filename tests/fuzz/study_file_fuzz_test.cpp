// Fuzzing the files a study reads and writes (fuzz_harness.h): sweep specs, set files, GPU
// configurations, journals, result files as `strobe report` reads them, and graphics run files
// that stand in for a comparison's reference or profile.
#include <gtest/gtest.h>

#include <string>

#include "cli/cli_runner.h"
#include "common/error.h"
#include "experiment/frame_run.h"
#include "experiment/frame_runs.h"
#include "experiment/journal.h"
#include "experiment/sweep.h"
#include "fuzz_harness.h"
#include "report/page.h"
#include "timing/config/gpu_config.h"
#include "workloads/bench_set.h"

namespace strobe::fuzz {
namespace {

using clitest::run_strobe;
using clitest::slurp;
using clitest::TempDir;

TEST(FileFuzz, SweepSpecsSetFilesAndGpuConfigurationsAreParsedOrRefusedWithInputError) {
  TempDir t;
  const std::string spec = "workloads = [\"vecadd --param n=1024\", \"hotspot --param rows=64\"]\n"
                           "methods = [\"photon\", \"tbpoint\"]\nrepeat = 1\n[grid]\n\"gpu.num_cus\" = [8, 16]\n"
                           "\"l2.size_kb\" = [512, 1024]\n";
  EXPECT_GT(fuzz("sweep_spec", spec, true, mutants(2000),
                 [](const std::string& b) { (void)experiment::expand(experiment::parse_sweep(b, "s.toml")); }),
            0u);
  const std::string set = slurp(fs::path(STROBE_SOURCE_DIR) / "configs/sets/smoke.toml");
  const fs::path set_file = t.path / "s.toml";
  EXPECT_GT(fuzz("set_file", set, true, mutants(1000),
                 [&](const std::string& b) { (void)workloads::load_set_file(put(set_file, b), "eval"); }),
            0u);
  const std::string arch = slurp(fs::path(STROBE_SOURCE_DIR) / "configs/r9nano.toml");
  const fs::path arch_file = t.path / "a.toml";
  EXPECT_GT(fuzz("gpu_config", arch, true, mutants(1000),
                 [&](const std::string& b) { (void)timing::load_config(put(arch_file, b)); }),
            0u);
}

TEST(FileFuzz, JournalsAndResultFilesAreReadOrRefusedWithInputError) {
  TempDir t;
  const std::string journal = (t.path / "j.jsonl").string(), set = (t.path / "set.json").string(),
                    run = (t.path / "run.json").string();
  ASSERT_EQ(run_strobe("compare --set smoke --size ci --sampling photon --repeat 1 --journal " + journal +
                       " --json " + set).rc, 0);
  ASSERT_EQ(run_strobe("run vecadd --param n=4096 --mode timing --json " + run).rc, 0);
  const fs::path file = t.path / "m.jsonl";
  EXPECT_GT(fuzz("journal", slurp(journal), true, mutants(1000),
                 [&](const std::string& b) { experiment::RunJournal j(put(file, b)); }),
            0u);
  const auto page = [](const std::string& b) {
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(b);
    } catch (const nlohmann::json::exception& e) {
      throw InputError(std::string("not JSON: ") + e.what());  // strobe report's own first check
    }
    (void)report::report_page({{"r.json", j}});
  };
  EXPECT_GT(fuzz("set_result", slurp(set), json_mutator("set_result"), mutants(1000), page), 0u);
  EXPECT_GT(fuzz("run_result", slurp(run), json_mutator("run_result"), mutants(1000), page), 0u);
}


TEST(FileFuzz, GraphicsRunFilesAreReadOrRefusedWithInputError) {
  TempDir t;
  // Graphics run files that stand in for a comparison's reference or profile
  // (--reference-runs, --profile-runs).
  const fs::path trace = fs::path(STROBE_BUILD_DIR) / "gfx-traces" / "glmark2-small.trace";
  if (!fs::exists(trace)) GTEST_SKIP() << "no " << trace << " (scripts/capture-gfx glmark2-small)";
  const std::string timed = (t.path / "r.json").string(), counted = (t.path / "p.json").string();
  ASSERT_EQ(run_strobe("run gfx:" + trace.string() + " --frames 0-1 --mode timing --json " + timed).rc, 0);
  ASSERT_EQ(run_strobe("run gfx:" + trace.string() + " --frames 0-1 --json " + counted).rc, 0);
  experiment::FrameSpec fs;
  fs.workload = "gfx:" + trace.string();
  fs.frames = "0-1";
  const experiment::FrameTarget target = experiment::resolve(fs);
  const fs::path run_file = t.path / "m.run.json";
  EXPECT_GT(fuzz("frame_timing_run", slurp(timed), json_mutator("frame_timing_run"), mutants(1000),
                 [&](const std::string& b) {
                   nlohmann::json sources;
                   (void)experiment::reference_from_runs({put(run_file, b)}, target, sources);
                 }),
            0u);
  EXPECT_GT(fuzz("frame_functional_run", slurp(counted), json_mutator("frame_functional_run"), mutants(1000),
                 [&](const std::string& b) {
                   nlohmann::json sources;
                   (void)experiment::profile_from_runs({put(run_file, b)}, target, sources);
                 }),
            0u);
}

}  // namespace
}  // namespace strobe::fuzz
