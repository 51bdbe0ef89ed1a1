// Sweep specs: every (workload, grid point) is one task, the last axis varies fastest, a task's
// name depends on what it runs and not on the order the spec lists things in, and every mistake
// in a spec is an InputError naming the file and the key.
#include "experiment/sweep.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "common/error.h"
#include "workloads/bench_set.h"

namespace strobe::experiment {
namespace {

std::string error_of(const std::string& text) {
  try {
    expand(parse_sweep(text, "s.toml"));
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(SweepSpec, EveryWorkloadAndGridPointIsOneTaskTheLastAxisFastest) {
  const SweepSpec s = parse_sweep(R"(workloads = ["relu --param n=4096", "vecadd"]
methods = ["photon"]
[grid]
"gpu.num_cus" = [4, 8]
"l2.size_kb" = [512, 1024, 2048]
)", "s.toml");
  const auto tasks = expand(s);
  ASSERT_EQ(tasks.size(), 12u);
  EXPECT_EQ(tasks[0].label, "relu n=4096 gpu.num_cus=4 l2.size_kb=512");
  EXPECT_EQ(tasks[1].label, "relu n=4096 gpu.num_cus=4 l2.size_kb=1024");
  EXPECT_EQ(tasks[3].label, "relu n=4096 gpu.num_cus=8 l2.size_kb=512");
  EXPECT_EQ(tasks[6].label, "vecadd gpu.num_cus=4 l2.size_kb=512");
  EXPECT_EQ(tasks[0].args[0], "compare");
  std::set<std::string> ids;
  for (const auto& t : tasks) ids.insert(t.id);
  EXPECT_EQ(ids.size(), 12u);
  EXPECT_FALSE(s.profile);  // Photon reads no profile
}

TEST(SweepSpec, ATasksNameDoesNotDependOnTheOrderTheSpecListsThingsIn) {
  const auto a = expand(parse_sweep(R"(workloads = ["relu", "vecadd"]
[grid]
"gpu.num_cus" = [4, 8]
"l2.size_kb" = [512, 1024]
)", "a.toml"));
  const auto b = expand(parse_sweep(R"(workloads = ["vecadd", "relu"]
[grid]
"l2.size_kb" = [1024, 512]
"gpu.num_cus" = [8, 4]
)", "b.toml"));
  std::set<std::string> ia, ib;
  for (const auto& t : a) ia.insert(t.id);
  for (const auto& t : b) ib.insert(t.id);
  EXPECT_EQ(ia, ib);
  EXPECT_EQ(a[0].args[0], "run");  // no methods: timing runs
}

TEST(SweepSpec, AMethodThatReadsAProfileGetsOneUnlessTheSpecSaysNo) {
  EXPECT_TRUE(parse_sweep("workloads = [\"relu\"]\nmethods = [\"tbpoint\"]\n", "s.toml").profile);
  EXPECT_FALSE(parse_sweep("workloads = [\"relu\"]\nmethods = [\"tbpoint\"]\nprofile = false\n", "s.toml").profile);
  const SweepSpec g = parse_sweep("workloads = [\"relu\"]\nmethods = [\"gpumech\"]\n", "s.toml");
  EXPECT_TRUE(profile_with_traces(g));
  SweepLayout l{"d"};
  EXPECT_EQ(l.profile(g, 0).rfind("d/profiles/relu-", 0), 0u);
}

TEST(SweepSpec, EveryMistakeNamesTheFileAndTheKey) {
  EXPECT_NE(error_of("workloads = [").find("s.toml:"), std::string::npos);
  EXPECT_NE(error_of("workload = [\"relu\"]").find("s.toml: unknown key 'workload'"), std::string::npos);
  EXPECT_NE(error_of("workloads = []").find("at least one"), std::string::npos);
  EXPECT_NE(error_of("workloads = [\"nosuch\"]").find("nosuch"), std::string::npos);
  EXPECT_NE(error_of("workloads = [\"relu --param zz=1\"]").find("zz"), std::string::npos);
  EXPECT_NE(error_of("workloads = [\"relu\"]\nmethods = [\"photon\"]\nsampling_sets = [\"nokey=1\"]")
                .find("unknown parameter 'nokey'"),
            std::string::npos);
  EXPECT_NE(error_of("workloads = [\"relu\"]\n[grid]\n\"gpu.num_cus\" = []").find("grid.gpu.num_cus must be a non-empty"),
            std::string::npos);
  EXPECT_NE(error_of("workloads = [\"relu\"]\n[grid]\n\"gpu.num_cus\" = [0]").find("task 'relu gpu.num_cus=0'"),
            std::string::npos);
  EXPECT_NE(error_of("workloads = [\"relu\"]\n[grid]\narch = [\"nosuch\"]").find("nosuch"), std::string::npos);
  EXPECT_NE(error_of("workloads = [\"relu\"]\nrepeat = 0").find("repeat"), std::string::npos);
  EXPECT_NE(error_of("workloads = [\"relu\"]\nprofile = true").find("none of the methods reads a profile"),
            std::string::npos);
}

TEST(SweepSpec, AHistoryWarmStateIsPassedToEveryTaskAndNamesOtherResults) {
  // The fitted window is the default and names no argument; the capture's whole bound does.
  const std::string base = "workloads = [\"relu\"]\nmethods = [\"sieve\"]\ncapture = true\n";
  const std::vector<SweepTask> fitted = expand(parse_sweep(base, "s.toml"));
  const std::vector<SweepTask> history = expand(parse_sweep(base + "warm_state = \"history\"\n", "s.toml"));
  const std::vector<SweepTask> named = expand(parse_sweep(base + "warm_state = \"fitted\"\n", "s.toml"));
  ASSERT_EQ(history.size(), 1u);
  ASSERT_EQ(fitted.size(), 1u);
  EXPECT_EQ(std::count(fitted[0].args.begin(), fitted[0].args.end(), "--warm-state"), 0);
  EXPECT_EQ(named[0].id, fitted[0].id);
  const auto at = std::find(history[0].args.begin(), history[0].args.end(), "--warm-state");
  ASSERT_NE(at, history[0].args.end());
  EXPECT_EQ(*(at + 1), "history");
  EXPECT_NE(history[0].id, fitted[0].id);
  EXPECT_NE(error_of(base + "warm_state = \"tepid\"\n").find("warm_state must be"), std::string::npos);
  EXPECT_NE(error_of("workloads = [\"relu\"]\nmethods = [\"sieve\"]\nwarm_state = \"fitted\"\n").find("capture sweep"),
            std::string::npos);
}

TEST(SweepSpec, TheMlStudyRunsExactlyTheMlSet) {
  // docs/ml-results.md reports the study as the ML set's: the two lists must not drift apart.
  const SweepSpec s = load_sweep(std::string(STROBE_SOURCE_DIR) + "/configs/studies/ml.toml");
  const workloads::BenchSet set = workloads::load_named_set("ml", "eval");
  ASSERT_EQ(s.workloads.size(), set.runs.size());
  for (size_t i = 0; i < set.runs.size(); ++i) {
    EXPECT_EQ(s.workloads[i].benchmark, set.runs[i].benchmark) << i;
    EXPECT_EQ(s.workloads[i].params, set.runs[i].params) << i;
  }
  EXPECT_TRUE(s.capture);
}

}  // namespace
}  // namespace strobe::experiment
