// The recorded results of every benchmark at its quick-test size, in functional mode, in timing
// mode and under each sampling method: cycles, instruction counts and a digest of device memory
// after the run. Every value is deterministic, so a refactor that changes any of them changed
// what strobe computes, not only how the code is arranged. An intended change of results is
// re-recorded with `scripts/record-golden` and reviewed as a diff of golden_results.json.
// Functional runs are checked on every core (the default), on one thread and on three: the
// record holds for any thread count.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "cli/cli_runner.h"

namespace strobe::clitest {
namespace {

const char* kGoldenFile = STROBE_SOURCE_DIR "/tests/workloads/golden_results.json";

/// One way of running a benchmark, and the report fields it is pinned by.
struct Mode {
  const char* name;
  const char* flags;
  std::vector<const char*> fields;  ///< JSON pointers into the run report
};

const std::vector<Mode>& modes() {
  static const std::vector<Mode> kModes = {
      {"functional", "", {"/wave_instructions", "/thread_instructions", "/memory_digest"}},
      {"timing", " --mode timing", {"/cycles", "/wave_instructions", "/memory_digest"}},
      {"photon", " --sampling photon",
       {"/cycles", "/sampling_summary/instructions/detailed", "/sampling_summary/launch_levels", "/memory_digest"}},
      {"pka", " --sampling pka",
       {"/cycles", "/sampling_summary/instructions/detailed", "/sampling_summary/launch_levels", "/memory_digest"}},
      {"sieve", " --sampling sieve",
       {"/cycles", "/sampling_summary/instructions/detailed", "/sampling_summary/launch_levels", "/memory_digest"}},
      {"stem", " --sampling stem",
       {"/cycles", "/sampling_summary/instructions/detailed", "/sampling_summary/launch_levels", "/memory_digest"}},
      // The functional record again, on a thread count given outright.
      {"functional", " --threads 1", {"/wave_instructions", "/thread_instructions", "/memory_digest"}},
      {"functional", " --threads 3", {"/wave_instructions", "/thread_instructions", "/memory_digest"}},
  };
  return kModes;
}

/// Every benchmark with `--param` flags setting each parameter to its quick-test value.
std::vector<std::pair<std::string, std::string>> quick_runs() {
  CliResult l = run_strobe("list --json -");
  EXPECT_EQ(l.rc, 0) << l.err;
  const nlohmann::json listing = nlohmann::json::parse(l.out);
  std::vector<std::pair<std::string, std::string>> runs;
  for (const auto& b : listing["benchmarks"]) {
    std::string params;
    for (const auto& p : b["params"]) params += " --param " + p["name"].get<std::string>() + "=" + p["small"].dump();
    runs.emplace_back(b["name"].get<std::string>(), params);
  }
  return runs;
}

/// The pinned fields of `bench` run in `mode`.
nlohmann::json measure(const std::string& bench, const std::string& params, const Mode& mode) {
  CliResult c = run_strobe("run " + bench + params + mode.flags + " --digest --json -");
  EXPECT_EQ(c.rc, 0) << bench << " " << mode.name << ": " << c.err;
  if (c.rc != 0) return nullptr;
  const nlohmann::json report = nlohmann::json::parse(c.out);
  nlohmann::json got = nlohmann::json::object();
  for (const char* f : mode.fields) got[f] = report.value(nlohmann::json::json_pointer(f), nlohmann::json());
  return got;
}

/// Checks every benchmark in `mode` against the record, or (with STROBE_GOLDEN_RECORD set to a
/// file) writes what was measured into that file's entry for the mode.
void check_mode(const Mode& mode) {
  std::ifstream in(kGoldenFile);
  nlohmann::json golden = in ? nlohmann::json::parse(in) : nlohmann::json::object();
  const char* record = std::getenv("STROBE_GOLDEN_RECORD");
  if (!record) {
    ASSERT_TRUE(golden.contains(mode.name)) << kGoldenFile << " has no record of mode " << mode.name;
  }
  nlohmann::json measured = nlohmann::json::object();
  const auto runs = quick_runs();
  ASSERT_GE(runs.size(), 41u) << "strobe list lost benchmarks";
  for (const auto& [bench, params] : runs) {
    SCOPED_TRACE(bench + " in " + mode.name);
    measured[bench] = measure(bench, params, mode);
    if (record) continue;
    ASSERT_TRUE(golden[mode.name].contains(bench)) << "no record of " << bench << "; re-record with scripts/record-golden";
    EXPECT_EQ(measured[bench].dump(), golden[mode.name][bench].dump());
  }
  if (record) {
    std::ofstream(std::string(record) + "." + mode.name) << measured.dump(1) << "\n";
  } else {
    EXPECT_EQ(measured.size(), golden[mode.name].size()) << "a recorded benchmark no longer exists";
  }
}

TEST(GoldenResults, FunctionalRunsKeepInstructionCountsAndOutputs) { check_mode(modes()[0]); }
TEST(GoldenResults, TimingRunsKeepCyclesInstructionCountsAndOutputs) { check_mode(modes()[1]); }
TEST(GoldenResults, PhotonRunsKeepEstimatesLevelsAndOutputs) { check_mode(modes()[2]); }
TEST(GoldenResults, PkaRunsKeepEstimatesLevelsAndOutputs) { check_mode(modes()[3]); }
TEST(GoldenResults, SieveRunsKeepEstimatesLevelsAndOutputs) { check_mode(modes()[4]); }
TEST(GoldenResults, StemRunsKeepEstimatesLevelsAndOutputs) { check_mode(modes()[5]); }
TEST(GoldenResults, FunctionalRunsOnOneThreadKeepTheRecord) { check_mode(modes()[6]); }
TEST(GoldenResults, FunctionalRunsOnThreeThreadsKeepTheRecord) { check_mode(modes()[7]); }

}  // namespace
}  // namespace strobe::clitest
