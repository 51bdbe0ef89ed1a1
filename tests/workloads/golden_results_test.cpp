// The recorded results of every benchmark at its quick-test size, in functional mode, in timing
// mode and under each sampling method: cycles, instruction counts and a digest of device memory
// after the run. Every value is deterministic, so a refactor that changes any of them changed
// what strobe computes, not only how the code is arranged. An intended change of results is
// re-recorded with `scripts/record-golden` and reviewed as a diff of golden_results.json.
// Functional runs are checked on every core (the default), on one thread and on three, and the
// quantum engine's runs, alone and under each method that observes launches, on one thread and on
// three: the record holds for any thread count.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
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

/// What a sampled run is pinned by.
const std::vector<const char*> kSampled = {"/cycles", "/sampling_summary/instructions/detailed",
                                           "/sampling_summary/launch_levels", "/memory_digest"};

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
      {"tbpoint", " --sampling tbpoint",
       {"/cycles", "/sampling_summary/instructions/detailed", "/sampling_summary/launch_levels", "/memory_digest"}},
      {"simprof", " --sampling simprof",
       {"/cycles", "/sampling_summary/instructions/detailed", "/sampling_summary/launch_levels", "/memory_digest"}},
      // The functional record again, on a thread count given outright.
      {"functional", " --threads 1", {"/wave_instructions", "/thread_instructions", "/memory_digest"}},
      {"functional", " --threads 3", {"/wave_instructions", "/thread_instructions", "/memory_digest"}},
      // The quantum engine, alone and under each method that observes launches: recorded on
      // one host thread, and checked again on three.
      {"quantum", " --mode timing --set sim.engine=quantum --threads 1",
       {"/cycles", "/wave_instructions", "/memory_digest"}},
      {"quantum-photon", " --sampling photon --set sim.engine=quantum --threads 1", kSampled},
      {"quantum-pka", " --sampling pka --set sim.engine=quantum --threads 1", kSampled},
      {"quantum-tbpoint", " --sampling tbpoint --set sim.engine=quantum --threads 1", kSampled},
      {"quantum-simprof", " --sampling simprof --set sim.engine=quantum --threads 1", kSampled},
      {"quantum", " --mode timing --set sim.engine=quantum --threads 3",
       {"/cycles", "/wave_instructions", "/memory_digest"}},
      {"quantum-photon", " --sampling photon --set sim.engine=quantum --threads 3", kSampled},
      {"quantum-pka", " --sampling pka --set sim.engine=quantum --threads 3", kSampled},
      {"quantum-tbpoint", " --sampling tbpoint --set sim.engine=quantum --threads 3", kSampled},
      {"quantum-simprof", " --sampling simprof --set sim.engine=quantum --threads 3", kSampled},
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

/// FNV-1a of a file's bytes: an image's digest (std::hash is not promised to stay the same).
std::string file_digest(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  uint64_t h = 14695981039346656037ull;
  for (std::istreambuf_iterator<char> it(in), end; it != end; ++it) h = (h ^ uint8_t(*it)) * 1099511628211ull;
  return std::to_string(h);
}

/// The graphics record: the small capture timed frame by frame (each frame's counts, cycles,
/// MEGsim statistics and image) and compared under every frame-sampling method (each one's
/// frames and estimate). Wall-clock seconds are left out: they are not deterministic.
nlohmann::json measure_graphics() {
  nlohmann::json got = nlohmann::json::object();
  const std::string images = ::testing::TempDir() + "golden-gfx-images";
  std::filesystem::remove_all(images);
  CliResult run = run_strobe("run gfx:glmark2-small --mode timing --json - --images " + images);
  EXPECT_EQ(run.rc, 0) << run.err;
  if (run.rc != 0) return nullptr;
  const nlohmann::json timed = nlohmann::json::parse(run.out);  // kept: the loop reads into it
  got["trace"] = file_digest(timed["trace"].get<std::string>());
  for (const nlohmann::json& f : timed["frames"]) {
    nlohmann::json frame{{"vs_invocations", f["vs_invocations"]}, {"ps_invocations", f["ps_invocations"]},
                         {"pixels_written", f["pixels_written"]}, {"cycles", f["timing"]["cycles"]},
                         {"wave_instructions", f["timing"]["wave_instructions"]},
                         {"statistics", f["timing"]["statistics"]}, {"image", file_digest(f["image"])}};
    got["timing"][std::to_string(f["frame"].get<uint64_t>())] = std::move(frame);
  }
  for (const char* sets : {"", " --sampling-set strata_frames=8 --sampling-set seed=3"}) {
    CliResult cmp = run_strobe(std::string("compare gfx:glmark2-small --warm-frames 1 --json - --sampling "
                                           "megsim,megsim-activity,megsim-stratified,random-frames") + sets);
    EXPECT_EQ(cmp.rc, 0) << cmp.err;
    if (cmp.rc != 0) return nullptr;
    const nlohmann::json j = nlohmann::json::parse(cmp.out);
    nlohmann::json c{{"reference", j["reference"]["totals"]}};
    for (const auto& [name, m] : j["methods"].items())
      c[name] = {{"frames_simulated", m["frames_simulated"]}, {"estimate", m["estimate"]},
                 {"representative_frames", m.value("representative_frames", nlohmann::json())}};
    got[std::string("compare") + (*sets ? " strata_frames=8 seed=3" : "")] = std::move(c);
  }
  return got;
}

TEST(GoldenResults, GraphicsFramesKeepCyclesImagesAndEstimates) {
  std::ifstream in(kGoldenFile);
  nlohmann::json golden = in ? nlohmann::json::parse(in) : nlohmann::json::object();
  const nlohmann::json measured = measure_graphics();
  if (const char* record = std::getenv("STROBE_GOLDEN_RECORD")) {
    std::ofstream(std::string(record) + ".graphics") << measured.dump(1) << "\n";
    return;
  }
  ASSERT_TRUE(golden.contains("graphics")) << kGoldenFile << " has no graphics record";
  // glmark2 animates by wall-clock time, so no two captures of it are alike: the record is of the
  // committed capture (tests/gfx/traces/, which scripts/capture-gfx copies into the build), and
  // holds only for it. Another trace there is a setup fault, not a change of results.
  ASSERT_EQ(measured.value("trace", ""), golden["graphics"].value("trace", ""))
      << "gfx-traces/glmark2-small.trace is not the committed capture the graphics record was made from: "
         "run scripts/capture-gfx glmark2-small BUILD/gfx-traces (or, for a new capture, re-record with "
         "scripts/record-golden and commit both)";
  for (const auto& [key, value] : golden["graphics"].items()) EXPECT_EQ(measured.value(key, nlohmann::json()).dump(), value.dump()) << key;
  EXPECT_EQ(measured.size(), golden["graphics"].size());
}

TEST(GoldenResults, FunctionalRunsKeepInstructionCountsAndOutputs) { check_mode(modes()[0]); }
TEST(GoldenResults, TimingRunsKeepCyclesInstructionCountsAndOutputs) { check_mode(modes()[1]); }
TEST(GoldenResults, PhotonRunsKeepEstimatesLevelsAndOutputs) { check_mode(modes()[2]); }
TEST(GoldenResults, PkaRunsKeepEstimatesLevelsAndOutputs) { check_mode(modes()[3]); }
TEST(GoldenResults, SieveRunsKeepEstimatesLevelsAndOutputs) { check_mode(modes()[4]); }
TEST(GoldenResults, StemRunsKeepEstimatesLevelsAndOutputs) { check_mode(modes()[5]); }
TEST(GoldenResults, TbpointRunsKeepEstimatesLevelsAndOutputs) { check_mode(modes()[6]); }
TEST(GoldenResults, SimprofRunsKeepEstimatesLevelsAndOutputs) { check_mode(modes()[7]); }
TEST(GoldenResults, FunctionalRunsOnOneThreadKeepTheRecord) { check_mode(modes()[8]); }
TEST(GoldenResults, FunctionalRunsOnThreeThreadsKeepTheRecord) { check_mode(modes()[9]); }
TEST(GoldenResults, QuantumEngineRunsKeepCyclesInstructionCountsAndOutputs) { check_mode(modes()[10]); }
TEST(GoldenResults, PhotonOnTheQuantumEngineKeepsEstimatesLevelsAndOutputs) { check_mode(modes()[11]); }
TEST(GoldenResults, PkaOnTheQuantumEngineKeepsEstimatesLevelsAndOutputs) { check_mode(modes()[12]); }
TEST(GoldenResults, TbpointOnTheQuantumEngineKeepsEstimatesLevelsAndOutputs) { check_mode(modes()[13]); }
TEST(GoldenResults, SimprofOnTheQuantumEngineKeepsEstimatesLevelsAndOutputs) { check_mode(modes()[14]); }
TEST(GoldenResults, QuantumEngineRunsOnThreeThreadsKeepTheRecord) { check_mode(modes()[15]); }
TEST(GoldenResults, PhotonOnTheQuantumEngineOnThreeThreadsKeepsTheRecord) { check_mode(modes()[16]); }
TEST(GoldenResults, PkaOnTheQuantumEngineOnThreeThreadsKeepsTheRecord) { check_mode(modes()[17]); }
TEST(GoldenResults, TbpointOnTheQuantumEngineOnThreeThreadsKeepsTheRecord) { check_mode(modes()[18]); }
TEST(GoldenResults, SimprofOnTheQuantumEngineOnThreeThreadsKeepsTheRecord) { check_mode(modes()[19]); }

}  // namespace
}  // namespace strobe::clitest
