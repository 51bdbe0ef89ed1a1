// `strobe capture` and `strobe run FILE.cap`: a capture is written with a one-line summary and
// replays verified; a damaged capture, a launch out of range and replay options on a benchmark
// each exit 2 with an error naming the file or the option.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "cli/cli_runner.h"

namespace strobe::clitest {
namespace {

const char* const kBench = "hotspot --param rows=64 --param cols=64 --param iterations=3";

TEST(CaptureCli, CapturesAndReplaysEveryOrOneLaunchVerified) {
  TempDir t;
  const std::string f = (t.path / "h.cap").string();
  auto c = run_strobe(std::string("capture ") + kBench + " -o " + f);
  ASSERT_EQ(c.rc, 0) << c.err;
  EXPECT_NE(c.out.find("3 launches of hotspot"), std::string::npos) << c.out;
  auto all = run_strobe("run " + f + " --verify --json -");
  ASSERT_EQ(all.rc, 0) << all.err;
  EXPECT_NE(all.out.find("\"capture_launch\": 2"), std::string::npos) << all.out;
  auto one = run_strobe("run " + f + " --launches 2 --mode timing --alone --verify --json -");
  ASSERT_EQ(one.rc, 0) << one.err;
  EXPECT_NE(one.out.find("\"replayed\": 1"), std::string::npos) << one.out;
  EXPECT_NE(one.out.find("\"cycles\""), std::string::npos) << one.out;
}

TEST(CaptureCli, BadCapturesAndOptionsExitTwoNamingTheFileOrOption) {
  TempDir t;
  const std::string f = (t.path / "h.cap").string();
  ASSERT_EQ(run_strobe(std::string("capture ") + kBench + " -o " + f).rc, 0);
  const std::string good = slurp(f);
  auto expect = [&](const std::string& args, const std::string& reason) {
    auto r = run_strobe(args);
    EXPECT_EQ(r.rc, 2) << args << ": " << r.err;
    EXPECT_NE(r.err.find(reason), std::string::npos) << args << ": " << r.err;
  };
  const std::string bad = (t.path / "bad.cap").string();
  std::ofstream(bad, std::ios::binary) << good.substr(0, good.size() / 2);
  expect("run " + bad, bad);
  expect("run " + bad, "truncated");
  expect("run " + (t.path / "missing.cap").string(), "missing.cap");
  expect("run " + f + " --launches 3", "out of range");
  expect("run " + f + " --launches ''", "--launches");
  expect("run " + f + " --warm-state lukewarm", "--warm-state");
  expect("run " + f + " --alone", "--alone");
  expect("run " + f + " --param rows=8", "--param");
  expect(std::string("run ") + kBench + " --launches 1", "capture");
  expect("capture vecadd -o " + t.path.string(), "directory");
  // A capture that cannot be written is refused before the run, and leaves nothing behind.
  expect("capture vecadd -o " + (t.path / "no" / "such.cap").string(), "such.cap");
}

TEST(CaptureCli, TheLargestHistoryBoundOnTheFinestGranuleReplaysWithinFourGiB) {
  // --history-mib 65536 at 16-byte granules bounds the warm walk at 2^32 distinct lines. The walk
  // once sized its set of seen lines for the bound, 64 GiB, before reading a line, and a replay
  // warmed from the whole history ran out of memory; it is sized for the lines the launches
  // hold. The replay runs under a 4 GiB address-space limit, a bound no launch here comes near.
  TempDir t;
  const std::string f = (t.path / "h.cap").string();
  ASSERT_EQ(run_strobe(std::string("capture ") + kBench + " --granule 16 --history-mib 65536 -o " + f).rc, 0);
  const std::string rc = shell("ulimit -v 4194304; " + std::string(STROBE_BINARY) + " run " + f +
                               " --mode timing --alone --warm-state history >/dev/null 2>&1; "
                               "echo $?");
  EXPECT_EQ(rc, "0\n");
  auto big = run_strobe(std::string("capture ") + kBench + " --history-mib 65537 -o " + f);
  EXPECT_EQ(big.rc, 2);
  EXPECT_NE(big.err.find("--history-mib"), std::string::npos) << big.err;
}

TEST(CaptureCli, KeepWritesACaptureForItsMethodsAndEveryBadInputExitsTwo) {
  TempDir t;
  const std::string f = (t.path / "h.cap").string(), k = (t.path / "k.cap").string();
  ASSERT_EQ(run_strobe(std::string("capture ") + kBench + " -o " + f).rc, 0);
  auto kept = run_strobe("keep " + f + " --sampling tbpoint -o " + k);
  ASSERT_EQ(kept.rc, 0) << kept.err;
  EXPECT_NE(kept.out.find("for tbpoint on r9nano"), std::string::npos) << kept.out;
  auto run = run_strobe("run " + k + " --sampling tbpoint --json -");
  ASSERT_EQ(run.rc, 0) << run.err;
  EXPECT_EQ(nlohmann::json::parse(run.out)["capture"]["kept_for"], "tbpoint on r9nano");

  const std::string one = (t.path / "one.cap").string();
  ASSERT_EQ(run_strobe("keep " + f + " --launches 1 -o " + one).rc, 0);
  auto expect = [&](const std::string& args, const std::string& reason) {
    auto r = run_strobe(args);
    EXPECT_EQ(r.rc, 2) << args << ": " << r.err;
    EXPECT_NE(r.err.find(reason), std::string::npos) << args << ": " << r.err;
  };
  expect("run " + one + " --mode timing", "launch 0 (hotspot) needs its checkpoint, which this capture does not keep");
  auto alone = run_strobe("run " + one + " --launches 1 --verify");  // the launch it keeps replays, verified
  EXPECT_EQ(alone.rc, 0) << alone.err;
  expect("keep " + f + " -o " + k, "--sampling");
  expect("keep " + f + " --sampling nosuch -o " + k, "nosuch");
  expect("keep " + f + " --launches 7 -o " + k, "out of range");
  expect("keep " + (t.path / "missing.cap").string() + " --launches 0 -o " + k, "missing.cap");
  expect("keep " + one + " --launches 0 -o " + k, "launch 0's checkpoint is not in it");
}

TEST(CaptureCli, AFittedWarmWindowGivesTheHistorysCyclesWhereTheHistoryFits) {
  // hotspot at 64x64 touches far fewer lines than four times the R9 Nano's caches hold, so the
  // fitted walk stops where the full one does: the same caches, the same cycles. On 4 CUs with
  // 16 KiB of L2 the fitted window is smaller than the footprint, and the run still completes.
  TempDir t;
  const std::string f = (t.path / "h.cap").string();
  ASSERT_EQ(run_strobe(std::string("capture ") + kBench + " -o " + f).rc, 0);
  auto cycles = [&](const std::string& extra) {
    auto r = run_strobe("run " + f + " --launches 2 --mode timing --alone --json -" + extra);
    EXPECT_EQ(r.rc, 0) << extra << ": " << r.err;
    return r.rc == 0 ? nlohmann::json::parse(r.out)["cycles"].get<uint64_t>() : 0;
  };
  EXPECT_EQ(cycles(" --warm-state fitted"), cycles(" --warm-state history"));
  EXPECT_NE(cycles(" --warm-state fitted"), cycles(" --warm-state none")) << "the history warms nothing here";
  EXPECT_GT(cycles(" --warm-state fitted --set gpu.num_cus=4 --set l2.size_kb=16 --set l1v.size_kb=1"), 0u);
  auto bad = run_strobe("run " + f + " --warm-state tepid");
  EXPECT_EQ(bad.rc, 2);
  EXPECT_NE(bad.err.find("history, fitted or none"), std::string::npos) << bad.err;
  auto cmp = run_strobe("compare relu --sampling sieve --warm-state history");
  EXPECT_EQ(cmp.rc, 2);
  EXPECT_NE(cmp.err.find("only for a capture"), std::string::npos) << cmp.err;
}

TEST(CaptureCli, StemTakesGpuMechsCyclesAsItsSignatureFromACaptureWithTraces) {
  TempDir t;
  const std::string plain = (t.path / "h.cap").string(), traced = (t.path / "g.cap").string();
  ASSERT_EQ(run_strobe(std::string("capture ") + kBench + " -o " + plain).rc, 0);
  ASSERT_EQ(run_strobe(std::string("capture ") + kBench + " --gpumech -o " + traced).rc, 0);
  const std::string stem = " --sampling stem --sampling-set signature=gpumech --json -";
  auto r = run_strobe("run " + traced + stem);
  ASSERT_EQ(r.rc, 0) << r.err;
  const nlohmann::json s = nlohmann::json::parse(r.out)["sampling_summary"]["method_summary"];
  EXPECT_EQ(s["variant"]["signature"], "gpumech");
  // The signature is GPUMech's cycles, not the launch's wave instructions.
  const nlohmann::json k = nlohmann::json::parse(r.out)["kernels"][0];
  EXPECT_NE(s["clusters_detail"][0]["signature_mean"].get<double>(), k["wave_instructions"].get<double>()) << s;
  EXPECT_NE(s["interval"]["text"].get<std::string>().find("GPUMech-cycle"), std::string::npos) << s;
  // A capture without traces cannot give it: one error naming the fix.
  auto bad = run_strobe("run " + plain + stem);
  EXPECT_EQ(bad.rc, 2) << bad.err;
  EXPECT_NE(bad.err.find("strobe capture --gpumech"), std::string::npos) << bad.err;
}

TEST(CaptureCli, AGraphicsCaptureReplaysItsFramesAndServesFrameSampling) {
  TempDir t;
  const std::string f = (t.path / "g.cap").string();
  const std::string trace = "gfx:" STROBE_BUILD_DIR "/gfx-traces/glmark2-small.trace";
  auto c = run_strobe("capture " + trace + " --frames 2-9 -o " + f);
  ASSERT_EQ(c.rc, 0) << c.err;
  EXPECT_NE(c.out.find("8 frames of " + trace), std::string::npos) << c.out;
  // In order, the capture's frames take the trace's cycles.
  auto cycles = [](const std::string& json) {
    std::vector<uint64_t> out;
    const nlohmann::json j = nlohmann::json::parse(json);
    for (const auto& fr : j["frames"]) out.push_back(fr["timing"]["cycles"]);
    return out;
  };
  auto from_trace = run_strobe("run " + trace + " --frames 2-9 --mode timing --json -");
  auto from_capture = run_strobe("run " + f + " --mode timing --json -");
  ASSERT_EQ(from_trace.rc, 0) << from_trace.err;
  ASSERT_EQ(from_capture.rc, 0) << from_capture.err;
  EXPECT_EQ(cycles(from_capture.out), cycles(from_trace.out));
  auto alone = run_strobe("run " + f + " --frames 5,8 --mode timing --alone --json -");
  ASSERT_EQ(alone.rc, 0) << alone.err;
  EXPECT_EQ(cycles(alone.out).size(), 2u);
  auto cmp = run_strobe("compare " + f + " --sampling megsim --json -");
  ASSERT_EQ(cmp.rc, 0) << cmp.err;
  const auto j = nlohmann::json::parse(cmp.out);
  EXPECT_EQ(j["capture"]["file"], f);
  EXPECT_TRUE(j["methods"]["megsim"].contains("speedup_one_shot"));
  auto expect = [&](const std::string& args, const std::string& reason) {
    auto r = run_strobe(args);
    EXPECT_EQ(r.rc, 2) << args << ": " << r.err;
    EXPECT_NE(r.err.find(reason), std::string::npos) << args << ": " << r.err;
  };
  expect("run " + f + " --launches 1", "--launches");
  expect("run " + f + " --frames 1 --mode timing", "frame 1 was not captured");
  expect("run " + f + " --alone", "--alone");
  expect("compare " + f + " --sampling megsim --warm-frames 2", "--warm-frames 2");
  expect("compare " + trace + " --sampling megsim --warm-state history", "--warm-state");
  expect("run " + f + " --mode timing --set gfx.tile_size=32", "gfx.tile_size=32");
}

TEST(CaptureCli, ASetComparedFromCapturesTakesTheBenchmarksCyclesAndCapturesEachRunOnce) {
  TempDir t;
  const std::string dir = (t.path / "caps").string();
  const std::string args = "compare --set smoke --size ci --sampling photon --repeat 1 --json -";
  auto captured = run_strobe(args + " --captures " + dir);
  ASSERT_EQ(captured.rc, 0) << captured.err;
  auto plain = run_strobe(args);
  ASSERT_EQ(plain.rc, 0) << plain.err;
  const nlohmann::json a = nlohmann::json::parse(captured.out), b = nlohmann::json::parse(plain.out);
  ASSERT_EQ(a["runs"].size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(a["runs"][i]["full_cycles"], b["runs"][i]["full_cycles"]) << i;
    EXPECT_EQ(a["runs"][i]["methods"]["photon"]["estimated_cycles"], b["runs"][i]["methods"]["photon"]["estimated_cycles"]);
    EXPECT_GT(a["runs"][i]["capture_seconds"].get<double>(), 0);
    EXPECT_TRUE(a["runs"][i]["methods"]["photon"].contains("one_shot_speedup"));
    EXPECT_FALSE(b["runs"][i].contains("capture_seconds"));
  }
  EXPECT_GT(a["aggregates"]["photon"]["one_shot_total_speedup"].get<double>(), 0);
  // A second comparison reuses the captures it finds.
  std::vector<std::pair<std::string, std::filesystem::file_time_type>> made;
  for (const auto& f : std::filesystem::directory_iterator(dir)) made.emplace_back(f.path().string(), f.last_write_time());
  ASSERT_EQ(made.size(), 2u);
  ASSERT_EQ(run_strobe(args + " --captures " + dir).rc, 0);
  for (const auto& [f, when] : made) EXPECT_EQ(std::filesystem::last_write_time(f), when) << f;
  auto one = run_strobe("compare relu --sampling photon --captures " + dir);
  EXPECT_EQ(one.rc, 2);
  EXPECT_NE(one.err.find("--captures: only for --set"), std::string::npos) << one.err;
}

}  // namespace
}  // namespace strobe::clitest
