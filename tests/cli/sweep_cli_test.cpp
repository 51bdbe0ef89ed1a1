// `strobe sweep`: a spec expands to one task per (workload, grid point), each task's result lands
// in its own file, the merged table has one row per task, a rerun runs only what is missing, bad
// specs stop before anything runs, failures are named, and the same sweep runs as a job array on
// a real one-node Slurm cluster that the test starts and stops.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "cli/cli_runner.h"

namespace strobe::clitest {
namespace {

/// Writes `text` to DIR/s.toml and returns the path.
std::string write_spec(const TempDir& t, const std::string& text) {
  const std::string path = (t.path / "s.toml").string();
  std::ofstream(path) << text;
  return path;
}

/// relu at two CU counts, compared with Photon: two tasks whose cycles differ.
constexpr const char* kSpec = R"(workloads = ["relu --param n=65536"]
methods = ["photon"]
[grid]
"gpu.num_cus" = [4, 8]
)";

nlohmann::json table(const TempDir& t) { return nlohmann::json::parse(slurp(t.path / "s.sweep" / "results.json")); }

TEST(SweepCli, EveryGridPointRunsOnceAndTheTableHasOneRowEach) {
  TempDir t;
  const std::string spec = write_spec(t, kSpec);
  const CliResult r = run_strobe("sweep " + spec + " -j 2");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.err.find("[2/2]"), std::string::npos) << r.err;
  const nlohmann::json j = table(t);
  ASSERT_EQ(j["rows"].size(), 2u);
  EXPECT_EQ(j["rows"][0]["gpu.num_cus"], "4");
  EXPECT_EQ(j["rows"][1]["gpu.num_cus"], "8");
  // More CUs, fewer cycles: each task ran its own configuration.
  EXPECT_GT(j["rows"][0]["cycles"].get<double>(), j["rows"][1]["cycles"].get<double>());
  EXPECT_TRUE(j["rows"][0].contains("photon.error_pct"));
  const std::string csv = slurp(t.path / "s.sweep" / "results.csv");
  EXPECT_EQ(csv.rfind("task,benchmark,params,gpu.num_cus,cycles,", 0), 0u) << csv;
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 3);
}

TEST(SweepCli, AGraphicsSweepComparesFrameMethodsAtEveryGridPoint) {
  // The small capture at two NoC latencies under MEGsim and its random baseline: each task is
  // `strobe compare gfx:...` on its own configuration, merged as benchmarks' tasks are.
  TempDir t;
  const std::string spec = write_spec(t, R"(workloads = ["gfx:glmark2-small", "gfx:glmark2-small --frames 4-11"]
methods = ["megsim", "random-frames"]
sampling_sets = ["seed=2"]
[grid]
"noc.latency" = [20, 200]
)");
  const CliResult r = run_strobe("sweep " + spec + " -j 2");
  ASSERT_EQ(r.rc, 0) << r.err;
  const nlohmann::json j = table(t);
  ASSERT_EQ(j["rows"].size(), 4u);
  EXPECT_EQ(j["rows"][0]["benchmark"], "gfx:glmark2-small");
  EXPECT_LT(j["rows"][0]["cycles"].get<double>(), j["rows"][1]["cycles"].get<double>()) << "a slower NoC, more cycles";
  EXPECT_EQ(j["rows"][2]["params"], "4-11");
  EXPECT_LT(j["rows"][2]["cycles"].get<double>(), j["rows"][0]["cycles"].get<double>()) << "8 of the 12 frames";
  for (const auto& row : j["rows"]) {
    EXPECT_TRUE(row["megsim.error_pct"].is_number()) << row.dump();
    EXPECT_GT(row["random-frames.estimated_cycles"].get<double>(), 0) << row.dump();
  }
  // A graphics sweep refuses what only benchmarks take, and compute methods, before running.
  const std::pair<const char*, const char*> bad[] = {
      {"workloads = [\"gfx:glmark2-small\"]\nmethods = [\"photon\"]\n", "unknown frame-sampling method 'photon'"},
      {"workloads = [\"gfx:glmark2-small\"]\nmethods = [\"megsim\"]\nprofile = true\n", "profile: not for graphics"},
      {"workloads = [\"gfx:glmark2-small\", \"relu\"]\n", "graphics captures and benchmarks in one sweep"},
      {"workloads = [\"gfx:glmark2-small --param n=4\"]\n", "expected 'gfx:NAME [--frames A-B]'"},
      {"workloads = [\"gfx:glmark2-small --frames 9-2\"]\n", "--frames '9-2'"},
  };
  for (const auto& [text, why] : bad) {
    TempDir u;
    const CliResult b = run_strobe("sweep " + write_spec(u, text) + " --dry-run");
    EXPECT_EQ(b.rc, 2) << text << ": " << b.err;
    EXPECT_NE(b.err.find(why), std::string::npos) << text << ": " << b.err;
  }
}

TEST(SweepCli, AGraphicsCaptureSweepCapturesTheFramesOnceAndReplaysThemAtEveryPoint) {
  // The frames captured once, each grid point's reference replayed from the capture and MEGsim
  // timing its frames warm from the capture's history: the same full-detail cycles as the trace's
  // own sweep, and each method's one-shot speedup beside its per-configuration one.
  TempDir t;
  const std::string points = "[grid]\n\"noc.latency\" = [20, 200]\n";
  const std::string captured = write_spec(t, "workloads = [\"gfx:glmark2-small --frames 2-11\"]\nmethods = [\"megsim\"]\n"
                                             "capture = true\n" + points);
  const CliResult r = run_strobe("sweep " + captured + " -j 2");
  ASSERT_EQ(r.rc, 0) << r.err;
  const nlohmann::json j = table(t);
  ASSERT_EQ(j["rows"].size(), 2u);
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(t.path / "s.sweep" / "captures"),
                          std::filesystem::directory_iterator()),
            1);
  TempDir u;
  const CliResult plain = run_strobe("sweep " + write_spec(u, "workloads = [\"gfx:glmark2-small --frames 2-11\"]\n"
                                                               "methods = [\"megsim\"]\n" + points));
  ASSERT_EQ(plain.rc, 0) << plain.err;
  const nlohmann::json k = table(u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(j["rows"][i]["cycles"], k["rows"][i]["cycles"]) << "row " << i;
    EXPECT_GT(j["rows"][i]["megsim.one_shot_speedup"].get<double>(), 0) << j["rows"][i].dump();
    EXPECT_GT(j["rows"][i]["capture_seconds"].get<double>(), 0) << j["rows"][i].dump();
  }
}

TEST(SweepCli, ARerunRunsOnlyTheTasksWithoutAResult) {
  TempDir t;
  const std::string spec = write_spec(t, kSpec);
  ASSERT_EQ(run_strobe("sweep " + spec + " -j 2").rc, 0);
  const CliResult again = run_strobe("sweep " + spec);
  EXPECT_NE(again.err.find("2 done before, 0 to run"), std::string::npos) << again.err;
  std::filesystem::remove(*std::filesystem::directory_iterator(t.path / "s.sweep" / "tasks"));
  const CliResult third = run_strobe("sweep " + spec);
  EXPECT_EQ(third.rc, 0) << third.err;
  EXPECT_NE(third.err.find("1 done before, 1 to run"), std::string::npos) << third.err;
  EXPECT_EQ(table(t)["rows"].size(), 2u);
}

TEST(SweepCli, ACaptureSweepCapturesEachWorkloadOnceAndEveryPointReplaysIt) {
  TempDir t;
  const std::string spec = write_spec(t, R"(workloads = ["hotspot --param rows=64 --param cols=64 --param iterations=3"]
methods = ["tbpoint", "photon"]
capture = true
[grid]
"gpu.num_cus" = [4, 8]
)");
  const CliResult r = run_strobe("sweep " + spec + " -j 2");
  ASSERT_EQ(r.rc, 0) << r.err;
  size_t captures = 0;
  for (const auto& e : std::filesystem::directory_iterator(t.path / "s.sweep" / "captures"))
    captures += e.path().extension() == ".cap";
  EXPECT_EQ(captures, 1u);
  const nlohmann::json j = table(t);
  ASSERT_EQ(j["rows"].size(), 2u);
  EXPECT_GT(j["rows"][0]["cycles"].get<double>(), j["rows"][1]["cycles"].get<double>());
  for (const auto& row : j["rows"]) {
    EXPECT_GT(row["capture_seconds"].get<double>(), 0) << row;
    EXPECT_GT(row["tbpoint.one_shot_speedup"].get<double>(), 0) << row;
    EXPECT_LT(row["tbpoint.one_shot_speedup"].get<double>(), row["tbpoint.speedup"].get<double>()) << row;
  }
  // The same sweep without the capture is other tasks: its results are not taken for these.
  const std::string plain = write_spec(t, R"(workloads = ["hotspot --param rows=64 --param cols=64 --param iterations=3"]
methods = ["tbpoint", "photon"]
[grid]
"gpu.num_cus" = [4, 8]
)");
  const CliResult d = run_strobe("sweep " + plain + " --dry-run");
  EXPECT_EQ(std::count(d.out.begin(), d.out.end(), '\n'), 2);
  EXPECT_EQ(d.out.find("done"), std::string::npos) << d.out;
  // What a capture cannot serve is refused before anything runs.
  const std::string bad =
      write_spec(t, "workloads = [\"relu\"]\nmethods = [\"tbpoint\"]\nwarming = \"caches\"\ncapture = true\n");
  const CliResult b = run_strobe("sweep " + bad);
  EXPECT_EQ(b.rc, 2);
  EXPECT_NE(b.err.find("a capture's history warms the caches"), std::string::npos) << b.err;
}

TEST(SweepCli, ACaptureSweepWithSimProfCapturesGpuMechsTraces) {
  // SimProf's proxy reads GPUMech's traces: the sweep's capture must carry them, or every task
  // would fail naming the missing trace.
  TempDir t;
  const std::string spec = write_spec(t, R"(workloads = ["hotspot --param rows=64 --param cols=64 --param iterations=3"]
methods = ["simprof", "sieve", "stem"]
capture = true
)");
  const CliResult r = run_strobe("sweep " + spec);
  ASSERT_EQ(r.rc, 0) << r.err;
  const nlohmann::json row = table(t)["rows"].at(0);
  for (const char* m : {"simprof", "sieve", "stem"})
    EXPECT_GT(row[std::string(m) + ".speedup"].get<double>(), 0) << m << ": " << row;
}

TEST(SweepCli, ACorruptResultIsNamedWhenCollecting) {
  TempDir t;
  const std::string spec = write_spec(t, kSpec);
  ASSERT_EQ(run_strobe("sweep " + spec + " -j 2").rc, 0);
  const auto file = std::filesystem::directory_iterator(t.path / "s.sweep" / "tasks")->path();
  std::ofstream(file) << "{\"cycles\": 1}";  // no methods
  const CliResult r = run_strobe("sweep " + spec + " --collect");
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find(file.string()), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("delete it to run the task again"), std::string::npos) << r.err;
}

TEST(SweepCli, ABadGridKeyStopsBeforeAnythingRuns) {
  TempDir t;
  const std::string spec = write_spec(t, "workloads = [\"relu --param n=65536\"]\n[grid]\n\"l2.size_kbb\" = [1]\n");
  const CliResult r = run_strobe("sweep " + spec);
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("unknown config key 'l2.size_kbb'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(spec), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(t.path / "s.sweep"));
}

TEST(SweepCli, AnUnknownSpecKeyOrMethodIsNamed) {
  TempDir t;
  const std::string spec = write_spec(t, "workloads = [\"relu\"]\nmethod = [\"photon\"]\n");
  const CliResult r = run_strobe("sweep " + spec);
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("unknown key 'method'"), std::string::npos) << r.err;
  write_spec(t, "workloads = [\"relu\"]\nmethods = [\"fotn\"]\n");
  EXPECT_NE(run_strobe("sweep " + spec).err.find("unknown method 'fotn'"), std::string::npos);
}

TEST(SweepCli, AFailedTaskIsReportedByNameAndTheOthersStillMerge) {
  // SimProf refuses sssp, whose launch sequence depends on timing; relu runs.
  TempDir t;
  const std::string spec = write_spec(t, R"(workloads = ["sssp --param vertices=2000", "relu --param n=65536"]
methods = ["simprof"]
sampling_sets = ["proxy=pilot"]
)");
  const CliResult r = run_strobe("sweep " + spec + " -j 2");
  EXPECT_EQ(r.rc, 1);
  EXPECT_NE(r.err.find("sweep task failed: sssp vertices=2000: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("not implemented"), std::string::npos) << r.err;
  const nlohmann::json j = table(t);
  ASSERT_EQ(j["rows"].size(), 1u);
  EXPECT_EQ(j["rows"][0]["benchmark"], "relu");
  EXPECT_EQ(j["failed"].size(), 1u);
}

/// A one-node Slurm cluster under `dir`, stopped when the object dies.
struct SlurmCluster {
  std::string dir, conf, why;
  explicit SlurmCluster(const std::string& d) : dir(d) {
    std::filesystem::create_directories(dir);
    const std::string script = std::string(STROBE_SOURCE_DIR) + "/tests/support/slurm-cluster";
    const int rc = std::system((script + " start " + dir + " >" + dir + "/start.out 2>" + dir + "/start.err").c_str());
    if (WIFEXITED(rc) && WEXITSTATUS(rc) == 0) {
      conf = dir + "/slurm.conf";
      ::setenv("SLURM_CONF", conf.c_str(), 1);  // for sbatch, run by the strobe processes below
    } else {
      why = slurp(dir + "/start.err");
    }
  }
  ~SlurmCluster() {
    ::unsetenv("SLURM_CONF");
    std::system((std::string(STROBE_SOURCE_DIR) + "/tests/support/slurm-cluster stop " + dir).c_str());
  }
};

TEST(SweepCli, ASlurmJobArrayRunsTheTasksAndAResubmissionOnlyTheMissingOnes) {
  TempDir t;
  SlurmCluster cluster((t.path / "slurm").string());
  if (cluster.conf.empty()) GTEST_SKIP() << "no Slurm here: " << cluster.why;
  // TBPoint reads a functional profile: one profile job, which the tasks' array waits for.
  const std::string spec = write_spec(t, R"(workloads = ["relu --param n=65536"]
methods = ["tbpoint"]
[grid]
"gpu.num_cus" = [4, 8]
)");
  CliResult r = run_strobe("sweep " + spec + " --slurm");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("submitted 1 profile as Slurm job "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("submitted 2 of 2 tasks as Slurm job "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("after the profiles"), std::string::npos) << r.out;
  const std::string script = slurp(t.path / "s.sweep" / "sweep.sbatch");
  EXPECT_NE(script.find("#SBATCH --array=0,1\n"), std::string::npos) << script;
  EXPECT_NE(slurp(t.path / "s.sweep" / "profiles.sbatch").find("--profile-of"), std::string::npos);
  // The array ends when both results are there.
  for (int i = 0; i < 240 && run_strobe("sweep " + spec + " --collect").rc != 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  CliResult c = run_strobe("sweep " + spec + " --collect");
  ASSERT_EQ(c.rc, 0) << c.err;
  EXPECT_EQ(table(t)["rows"].size(), 2u);
  std::filesystem::remove(*std::filesystem::directory_iterator(t.path / "s.sweep" / "tasks"));
  r = run_strobe("sweep " + spec + " --slurm");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("submitted 1 of 2 tasks"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("profile"), std::string::npos) << r.out;  // made once, already there
}

}  // namespace
}  // namespace strobe::clitest
