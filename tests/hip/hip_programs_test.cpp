// Unmodified HIP programs, built by hipcc for gfx803, run under `strobe run --` on strobe's KFD
// thunk with the real ROCr and HIP runtimes: each checks its results against the CPU and prints
// PASS, in functional and in timing mode.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/cli_runner.h"

namespace {

using strobe::clitest::CliResult;
using strobe::clitest::run_strobe;
using strobe::clitest::TempDir;
using ::testing::HasSubstr;
using ::testing::Not;

std::string program(const std::string& name) { return std::string(STROBE_HIP_PROGRAM_DIR) + "/" + name; }

/// Skips the test when hipcc was not found at configure time (no programs were built).
#define REQUIRE_PROGRAM(name)                                                                        \
  do {                                                                                               \
    if (!std::filesystem::exists(program(name)))                                                     \
      GTEST_SKIP() << "hipcc is not installed, so the HIP test programs were not built (scripts/setup)"; \
  } while (0)

/// Runs `name` under strobe in `mode` and expects it to pass its own CPU check.
void expect_passes(const std::string& name, const std::string& mode) {
  const CliResult r = run_strobe("run --mode " + mode + " -- " + program(name));
  EXPECT_EQ(r.rc, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("PASS")) << r.err;
  EXPECT_THAT(r.err, HasSubstr(mode + " mode")) << "the run's summary line is missing";
}

void expect_passes_in_both_modes(const std::string& name) {
  expect_passes(name, "functional");
  expect_passes(name, "timing");
}

TEST(HipPrograms, VectorOpsOverRaggedSizesMatchTheCpu) {
  REQUIRE_PROGRAM("vector_ops");
  expect_passes_in_both_modes("vector_ops");
}

TEST(HipPrograms, ReductionsWithStaticAndDynamicSharedMemoryMatchTheCpu) {
  REQUIRE_PROGRAM("reductions");
  expect_passes_in_both_modes("reductions");
}

TEST(HipPrograms, ThirtyTwoAndSixtyFourBitAtomicsMatchTheCpu) {
  REQUIRE_PROGRAM("atomics");
  expect_passes_in_both_modes("atomics");
}

TEST(HipPrograms, DeviceMathMatchesTheHostLibm) {
  REQUIRE_PROGRAM("device_math");
  expect_passes_in_both_modes("device_math");
}

TEST(HipPrograms, TemplateKernelsMatchTheCpu) {
  REQUIRE_PROGRAM("templates");
  expect_passes_in_both_modes("templates");
}

TEST(HipPrograms, StreamsWithAsyncCopiesAndMemsetsMatchTheCpu) {
  REQUIRE_PROGRAM("streams");
  expect_passes_in_both_modes("streams");
}

TEST(HipPrograms, KernelsCallingOutOfLineFunctionsMatchTheCpu) {
  REQUIRE_PROGRAM("calls");
  expect_passes_in_both_modes("calls");
}

TEST(HipPrograms, DevicePrintfReachesTheProgramsOutput) {
  REQUIRE_PROGRAM("device_printf");
  const CliResult r = run_strobe("run -- " + program("device_printf"));
  EXPECT_EQ(r.rc, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("hello from block 0"));
  EXPECT_THAT(r.out, HasSubstr("hello from block 1"));
  EXPECT_THAT(r.out, HasSubstr("PASS"));
}

TEST(HipPrograms, EventsTimeSimulatedGpuTimeInTimingMode) {
  REQUIRE_PROGRAM("events");
  TempDir t;
  const std::string json = (t.path / "report.json").string();
  const CliResult r = run_strobe("run --mode timing --json " + json + " -- " + program("events"));
  ASSERT_EQ(r.rc, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("PASS"));
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.out, m, std::regex("elapsed_ms ([0-9.]+)"))) << r.out;
  const double elapsed_ms = std::stod(m[1]);
  // Four small kernels take microseconds of simulated time, while simulating them takes
  // milliseconds of host time: the events measured the former.
  nlohmann::json rep = nlohmann::json::parse(strobe::clitest::slurp(json));
  double step_seconds = 0;
  int steps = 0;
  for (const auto& k : rep["kernels"])
    if (k["name"] == "_Z4stepPfif") step_seconds += k["sim_seconds"].get<double>(), ++steps;
  EXPECT_EQ(steps, 4);
  // The events include the four steps. Slack: the GPU clock advances in whole nanoseconds per
  // launch (up to 0.5 ns short each) and the program prints 6 decimals of a millisecond (0.5 ns).
  EXPECT_GE(elapsed_ms, step_seconds * 1e3 - 3e-6);
  EXPECT_LT(elapsed_ms, 0.1) << "the events measured host time, not simulated time";
  EXPECT_GT(rep.value("cycles", uint64_t{0}), 0u);
}

TEST(HipPrograms, ReportNamesTheProgramsKernelsAndTheRuntimesOwn) {
  REQUIRE_PROGRAM("streams");
  TempDir t;
  const std::string json = (t.path / "report.json").string();
  const CliResult r = run_strobe("run --json " + json + " -- " + program("streams"));
  ASSERT_EQ(r.rc, 0) << r.err;
  nlohmann::json rep = nlohmann::json::parse(strobe::clitest::slurp(json));
  std::set<std::string> names;
  for (const auto& k : rep["kernels"]) names.insert(k["name"].get<std::string>());
  EXPECT_TRUE(names.count("_Z9add_indexPiii")) << rep["kernels"].dump();
  EXPECT_TRUE(names.count("__amd_rocclr_fillBufferAligned")) << "hipMemsetAsync runs HIP's own fill kernel";
  EXPECT_EQ(rep["benchmark"], "streams");
}

/// The launch of `kernel` in the report at `json`.
nlohmann::json launch_of(const std::string& json, const std::string& kernel) {
  nlohmann::json rep = nlohmann::json::parse(strobe::clitest::slurp(json));
  for (const auto& k : rep["kernels"])
    if (k["name"] == kernel) return k;
  return {};
}

TEST(HipPrograms, MmRunsNextToTheOpenClBenchmarkOnTheSameGrid) {
  REQUIRE_PROGRAM("mm");
  TempDir t;
  const std::string hip_json = (t.path / "hip.json").string(), ocl_json = (t.path / "ocl.json").string();
  const CliResult hip = run_strobe("run --mode timing --json " + hip_json + " -- " + program("mm") + " 64 48 32");
  ASSERT_EQ(hip.rc, 0) << hip.out << hip.err;
  EXPECT_THAT(hip.out, HasSubstr("PASS"));
  const CliResult ocl = run_strobe("run mm --mode timing --param m=64 --param n=48 --param k=32 --json " + ocl_json);
  ASSERT_EQ(ocl.rc, 0) << ocl.err;
  const nlohmann::json h = launch_of(hip_json, "_Z2mmPKfS0_Pfjjj"), o = launch_of(ocl_json, "mm");
  ASSERT_FALSE(h.is_null());
  ASSERT_FALSE(o.is_null());
  EXPECT_EQ(h["workgroups"], o["workgroups"]);
  EXPECT_EQ(h["wavefronts"], o["wavefronts"]);
  // hipcc knows the __shared__ tile is 16-byte aligned and reads a row with ds_read_b128;
  // the OpenCL build pairs 32-bit reads (docs/hip.md): fewer LDS instructions, fewer cycles.
  EXPECT_LT(h["lds_instructions"].get<uint64_t>(), o["lds_instructions"].get<uint64_t>());
  EXPECT_LT(h["cycles"].get<uint64_t>(), o["cycles"].get<uint64_t>());
}

TEST(HipPrograms, CompareGivesPkaAndTbpointAProfilingRunOfTheProgramEach) {
  REQUIRE_PROGRAM("mm");
  const CliResult r = run_strobe("compare --sampling pka,tbpoint --json - -- " + program("mm") + " 64 48 32");
  ASSERT_EQ(r.rc, 0) << r.out << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  const size_t launches = j["kernels"].size();
  ASSERT_GT(launches, 0u);
  for (const char* name : {"pka", "tbpoint"}) {
    SCOPED_TRACE(name);
    const nlohmann::json& m = j["methods"][name];
    EXPECT_EQ(m["kernels"].size(), launches);
    ASSERT_EQ(m["sampling"]["earlier_passes"].size(), 1u);
    EXPECT_EQ(m["sampling"]["earlier_passes"][0]["launches"], launches);
    EXPECT_GT(m["estimated_cycles"].get<uint64_t>(), 0u);
  }
}

TEST(HipPrograms, DeviceMemoryFreedAndAllocatedAgainAroundStreamsAndPinnedCopies) {
  // The thunk once kept pageable memory HIP had pinned and the program then freed: the kernel
  // handed the address out again for device memory, and hipStreamCreate stopped with "overlap a
  // range already mapped".
  REQUIRE_PROGRAM("alloc_reuse");
  expect_passes_in_both_modes("alloc_reuse");
}

TEST(HipPrograms, TenThousandRandomAllocateFreeAndStreamOperations) {
  REQUIRE_PROGRAM("alloc_reuse");
  const CliResult r = run_strobe("run -- " + program("alloc_reuse") + " 10000");
  EXPECT_EQ(r.rc, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("PASS"));
}

TEST(HipPrograms, B06_AProgramEndingWithoutItsExitHandlersIsToldSoAndLosesNoFinishedLaunch) {
  // It was told it "made no use of the strobe OpenCL platform", no report was written, and
  // after _exit(0) strobe exited 0 with the --json file missing.
  REQUIRE_PROGRAM("exit_early");
  TempDir t;
  const std::string json = (t.path / "report.json").string();
  const CliResult exited = run_strobe("run --json " + json + " -- " + program("exit_early") + " exit");
  EXPECT_EQ(exited.rc, 1) << exited.err;
  EXPECT_THAT(exited.err, HasSubstr("ended before its exit handlers ran (it crashed, was killed or called _exit)"));
  EXPECT_THAT(exited.err, Not(HasSubstr("made no use")));
  const std::string log = strobe::clitest::slurp(json + ".partial");
  EXPECT_THAT(log, HasSubstr("\"kernel\":\"_Z5twicePi\"")) << "the finished launch was lost";
  const CliResult aborted = run_strobe("run --mode timing --json " + json + " -- " + program("exit_early") + " abort");
  EXPECT_EQ(aborted.rc, 128 + 6) << aborted.err;
  EXPECT_THAT(aborted.err, HasSubstr("ended before its exit handlers ran"));
  EXPECT_THAT(strobe::clitest::slurp(json + ".partial"), HasSubstr("\"cycles\""));
  // A run that ends normally keeps its report and no launch log.
  const CliResult normal = run_strobe("run --json " + json + " -- " + program("vector_ops"));
  ASSERT_EQ(normal.rc, 0) << normal.err;
  EXPECT_FALSE(std::filesystem::exists(json + ".partial"));
}

TEST(HipPrograms, AQueueTakesMorePacketsThanItsRingHolds) {
  // ROCr's gfx8 rings are double-mapped: past the ring's size, packets are read from the upper
  // half, which must alias the lower (it once read another allocation: "AQL: packet type 127").
  REQUIRE_PROGRAM("queue_wrap");
  expect_passes("queue_wrap", "functional");
}

/// Every launch's kernel name in the report at `json`, in launch order.
std::vector<std::string> kernel_names(const std::string& json) {
  std::vector<std::string> names;
  nlohmann::json rep = nlohmann::json::parse(strobe::clitest::slurp(json));
  for (const auto& k : rep["kernels"]) names.push_back(k["name"].get<std::string>());
  return names;
}

TEST(HipPrograms, ACaptureReplaysEveryLaunchWithTheValuesItWroteWithoutTheProgram) {
  // streams feeds its kernels by host copies, async copies and memsets between launches: a
  // change the capture missed leaves a replayed launch other inputs, and its written pages
  // then differ from the captured ones (--verify).
  REQUIRE_PROGRAM("streams");
  TempDir t;
  const std::string cap = (t.path / "w.cap").string(), direct = (t.path / "direct.json").string(),
                    replayed = (t.path / "replayed.json").string();
  const CliResult c = run_strobe("capture -o " + cap + " -- " + program("streams"));
  ASSERT_EQ(c.rc, 0) << c.out << c.err;
  EXPECT_THAT(c.err, HasSubstr("PASS")) << "the program's own output goes on (to stderr) while it is captured";
  const CliResult v = run_strobe("run " + cap + " --verify");
  ASSERT_EQ(v.rc, 0) << v.out << v.err;
  EXPECT_THAT(v.out + v.err, HasSubstr("verification passed"));

  // In order and in detail, the replay times the program's launches: the same kernels, and
  // nearly its cycles (the program's addresses differ from one run to the next, and with them
  // cache sets and DRAM rows, so equality is not expected).
  const CliResult d = run_strobe("run --mode timing --json " + direct + " -- " + program("streams"));
  ASSERT_EQ(d.rc, 0) << d.err;
  const CliResult r = run_strobe("run " + cap + " --mode timing --json " + replayed);
  ASSERT_EQ(r.rc, 0) << r.err;
  // Its streams make the launch order itself vary from run to run; the launches do not.
  std::vector<std::string> replayed_names = kernel_names(replayed), direct_names = kernel_names(direct);
  std::sort(replayed_names.begin(), replayed_names.end());
  std::sort(direct_names.begin(), direct_names.end());
  EXPECT_EQ(replayed_names, direct_names);
  const double a = double(nlohmann::json::parse(strobe::clitest::slurp(replayed))["cycles"].get<uint64_t>());
  const double b = double(nlohmann::json::parse(strobe::clitest::slurp(direct))["cycles"].get<uint64_t>());
  EXPECT_NEAR(a / b, 1.0, 0.03) << a << " replayed against " << b << " run";

  // Copies through pageable memory HIP pins: heap pages that other threads write while a copy
  // runs. Only the lines a launch wrote are verified, so every launch verifies (this failed about
  // every second capture when whole pages were).
  REQUIRE_PROGRAM("alloc_reuse");
  const std::string reuse = (t.path / "reuse.cap").string();
  ASSERT_EQ(run_strobe("capture -o " + reuse + " -- " + program("alloc_reuse") + " 400").rc, 0);
  const CliResult rv = run_strobe("run " + reuse + " --verify");
  EXPECT_EQ(rv.rc, 0) << rv.err;

  // Any launch alone, from its checkpoint and its warm state.
  const size_t last = kernel_names(direct).size() - 1;
  const CliResult alone =
      run_strobe("run " + cap + " --mode timing --alone --verify --launches " + std::to_string(last));
  EXPECT_EQ(alone.rc, 0) << alone.out << alone.err;
}

TEST(HipPrograms, AReplayRefusesALaunchThatCalledTheHostNamingIt) {
  // Device printf waits for the program's hostcall thread to answer; a replay has none.
  REQUIRE_PROGRAM("device_printf");
  TempDir t;
  const std::string cap = (t.path / "w.cap").string();
  const CliResult c = run_strobe("capture -o " + cap + " -- " + program("device_printf"));
  ASSERT_EQ(c.rc, 0) << c.out << c.err;
  const CliResult r = run_strobe("run " + cap);
  EXPECT_NE(r.rc, 0);
  EXPECT_THAT(r.err, HasSubstr("(_Z5helloPi) of capture"));
  EXPECT_THAT(r.err, HasSubstr("called the host"));
}

TEST(HipPrograms, DevicePropertiesComeFromTheConfiguration) {
  REQUIRE_PROGRAM("device_props");
  const CliResult r9 = run_strobe("run -- " + program("device_props"));
  ASSERT_EQ(r9.rc, 0) << r9.err;
  EXPECT_THAT(r9.out, HasSubstr("name=gfx803 (strobe r9nano) arch=gfx803 cus=64 clock_khz=1000000 "
                                "global_mem=4294967296 shared_per_block=65536 wavefront=64 l2=2097152"));
  const CliResult small = run_strobe("run --mode timing --set gpu.num_cus=32 --set l2.size_kb=1024 -- " +
                                     program("device_props"));
  ASSERT_EQ(small.rc, 0) << small.err;
  EXPECT_THAT(small.out, HasSubstr("cus=32 "));
  EXPECT_THAT(small.out, HasSubstr("l2=1048576"));
}

TEST(HipPrograms, ProgramBuiltForAnotherGpuIsRefusedNamingItsTarget) {
  REQUIRE_PROGRAM("vector_ops_gfx906");
  const CliResult r = run_strobe("run -- " + program("vector_ops_gfx906"));
  EXPECT_EQ(r.rc, 2);
  EXPECT_THAT(r.err, HasSubstr("built for gfx906 only; strobe simulates gfx803"));
  EXPECT_THAT(r.out, Not(HasSubstr("PASS")));
}

TEST(HipPrograms, UnsupportedThunkServiceStopsTheProgramNamingIt) {
  REQUIRE_PROGRAM("ipc_handle");
  const CliResult r = run_strobe("run -- " + program("ipc_handle"));
  EXPECT_NE(r.rc, 0);
  EXPECT_THAT(r.err, HasSubstr("not implemented: hsaKmtShareMemory"));
  EXPECT_THAT(r.out, Not(HasSubstr("PASS")));
}

TEST(HipPrograms, KernelStoringOutsideEveryAllocationFaultsNamingTheKernel) {
  REQUIRE_PROGRAM("wild_store");
  const CliResult r = run_strobe("run -- " + program("wild_store"));
  EXPECT_EQ(r.rc, 1);
  EXPECT_THAT(r.err, HasSubstr("kernel _Z13store_throughPi"));
  EXPECT_THAT(r.err, HasSubstr("outside every live allocation"));
  EXPECT_THAT(r.out, Not(HasSubstr("PASS")));
}

}  // namespace
