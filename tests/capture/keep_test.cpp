// Captures that keep only the checkpoints a selection needs (capture/keep.h,
// experiment/keep.h): the methods they were kept for run from them in the cycles they take from
// the whole capture, reading no other checkpoint, and anything that needs a dropped checkpoint
// is one InputError naming the launch and what the capture keeps.
#include "experiment/keep.h"

#include <unistd.h>

#include <filesystem>
#include <functional>

#include <fmt/format.h>

#include <gtest/gtest.h>

#include "capture/capture_file.h"
#include "common/error.h"
#include "experiment/capture.h"

namespace strobe::experiment {
namespace {

namespace fs = std::filesystem;

class CaptureKeep : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("strobe-keep-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    CaptureSpec s;
    s.run.benchmark = "hotspot";
    s.run.params = {"rows=64", "cols=64", "iterations=8"};
    s.run.threads = 2;
    s.output = path("hotspot.cap");
    capture(s);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  static RunSpec replay_spec(const std::string& file, const std::string& mode, const std::string& sampling = "none") {
    RunSpec s;
    s.workload = Workload::Capture;
    s.capture = file;
    s.mode = mode;
    s.sampling = sampling;
    s.threads = 1;
    return s;
  }
  static RunResult replay_of(const RunSpec& s) {
    ValidatedRun v = validate(s);
    return replay(v);
  }
  static std::vector<uint64_t> cycles(const RunResult& r) {
    std::vector<uint64_t> c;
    for (const auto& l : r.outcome.launches) c.push_back(l.result.timing ? l.result.timing->cycles : 0);
    return c;
  }
  /// The InputError `f` throws (empty if it throws none).
  static std::string input_error(const std::function<void()>& f) {
    try {
      f();
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  }

  fs::path dir_;
};

TEST_F(CaptureKeep, TheMethodsKeptForRunInTheirCyclesFromASmallerFileAndNothingElseDoes) {
  KeepSpec k;
  k.run.capture = path("hotspot.cap");
  k.methods = {"tbpoint", "pka"};
  k.output = path("kept.cap");
  const KeepOutcome out = keep(k);
  EXPECT_EQ(out.file.launches, 8u);
  EXPECT_GE(out.file.chosen, 1u);
  EXPECT_LT(out.file.chosen, 8u);  // the methods predict some launches: their pages go
  EXPECT_LT(out.file.bytes_out, out.file.bytes_in);
  EXPECT_EQ(out.kept_for, "tbpoint, pka on r9nano");
  const auto kept = capture::CaptureFile::open(k.output);
  EXPECT_EQ(kept->index().kept_for, out.kept_for);

  for (const char* m : {"tbpoint", "pka"}) {
    SCOPED_TRACE(m);
    const RunResult whole = replay_of(replay_spec(k.run.capture, "timing", m));
    const RunResult from_kept = replay_of(replay_spec(k.output, "timing", m));
    EXPECT_EQ(cycles(from_kept), cycles(whole));
    EXPECT_EQ(from_kept.capture_ran, whole.capture_ran);
    for (uint64_t i : whole.capture_ran) EXPECT_TRUE(kept->keeps_checkpoint(i)) << "launch " << i;
    // On another configuration the same launches are chosen, so the kept capture serves it too.
    RunSpec other = replay_spec(k.output, "timing", m);
    other.sets = {"gpu.num_cus=16", "l2.size_kb=512"};
    RunSpec other_whole = other;
    other_whole.capture = k.run.capture;
    EXPECT_EQ(cycles(replay_of(other)), cycles(replay_of(other_whole)));
  }

  // Full detail replays every launch: the first dropped one stops it, named with what the file keeps.
  uint64_t dropped = 0;
  while (kept->keeps_checkpoint(dropped)) ++dropped;
  const std::string e = input_error([&] { replay_of(replay_spec(k.output, "timing")); });
  EXPECT_NE(e.find(fmt::format("launch {} (hotspot) needs its checkpoint", dropped)), std::string::npos) << e;
  EXPECT_NE(e.find("it keeps the checkpoints of tbpoint, pka on r9nano"), std::string::npos) << e;
}

TEST_F(CaptureKeep, KeptLaunchesReplayAloneAndVerifyAndADroppedOneCannotBeKeptAgain) {
  KeepSpec k;
  k.run.capture = path("hotspot.cap");
  k.launches = "1,5";
  k.output = path("two.cap");
  const KeepOutcome out = keep(k);
  EXPECT_EQ(out.file.chosen, 2u);
  EXPECT_EQ(out.kept_for, "launches 1,5");
  for (const char* mode : {"functional", "timing"}) {
    RunSpec s = replay_spec(k.output, mode);
    s.launches = "1,5";
    s.verify = true;
    RunSpec w = s;
    w.capture = k.run.capture;
    const RunResult r = replay_of(s);
    EXPECT_TRUE(r.outcome.verified);
    EXPECT_EQ(cycles(r), cycles(replay_of(w))) << mode;
  }
  RunSpec s = replay_spec(k.output, "functional");
  s.launches = "2";
  EXPECT_NE(input_error([&] { replay_of(s); }).find("launch 2 (hotspot) needs its checkpoint"), std::string::npos);

  KeepSpec again;
  again.run.capture = k.output;
  again.launches = "1,2";
  again.output = path("again.cap");
  const std::string e = input_error([&] { keep(again); });
  EXPECT_NE(e.find("launch 2's checkpoint is not in it (it keeps those of launches 1,5)"), std::string::npos) << e;
  EXPECT_FALSE(fs::exists(again.output));
  // Keeping what is there from a kept capture works, and says what it keeps now.
  again.launches = "5";
  EXPECT_EQ(keep(again).kept_for, "launches 5");
}

TEST_F(CaptureKeep, AKeptCaptureRunsWhereThreadsFirstTouchEveryPage) {
  // Needleman-Wunsch's launches each read their own diagonal band of an 8 MiB matrix: pages the
  // launches TBPoint predicts read, and no kept launch does, are dropped. Threads of the quantum
  // engine first touch every page of every allocation (GlobalMemory::begin_concurrent), which must
  // not reach a dropped page that only a launch that did not run would have read.
  CaptureSpec c;
  c.run.benchmark = "nw";
  c.run.threads = 2;
  c.output = path("nw.cap");
  capture(c);
  KeepSpec k;
  k.run.capture = c.output;
  k.methods = {"tbpoint"};
  k.output = path("nw-tbpoint.cap");
  const KeepOutcome out = keep(k);
  ASSERT_LT(out.file.chosen, out.file.launches);
  RunSpec s = replay_spec(k.output, "timing", "tbpoint");
  s.sets = {"sim.engine=quantum"};
  s.threads = 2;
  RunSpec whole = s;
  whole.capture = c.output;
  EXPECT_EQ(cycles(replay_of(s)), cycles(replay_of(whole)));
}

}  // namespace
}  // namespace strobe::experiment
