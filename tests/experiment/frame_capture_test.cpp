// Captures of graphics frames (capture/frames.h): a frame replayed from its checkpoint renders
// and times as it does from the trace, the capture's counts are the functional pass's, a frame
// timed alone starts warm from the history of the frames before it, and a configuration the
// capture cannot serve is refused by name.
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "common/error.h"
#include "experiment/capture.h"
#include "experiment/frame_compare.h"
#include "experiment/frames.h"

namespace strobe::experiment {
namespace {

const std::string kTrace = "gfx:" STROBE_BUILD_DIR "/gfx-traces/glmark2-small.trace";

/// glmark2-small captured once for the tests of this file (removed at exit).
const std::string& small_capture() {
  static const struct Captured {
    std::string path = std::filesystem::temp_directory_path().string() + "/strobe-frames-" +
                       std::to_string(::getpid()) + ".cap";
    Captured() {
      CaptureSpec s;
      s.run.benchmark = kTrace;
      s.output = path;
      EXPECT_EQ(capture(s).frames, 12u);
    }
    ~Captured() {
      std::error_code ec;
      std::filesystem::remove(path, ec);
    }
  } c;
  return c.path;
}

FrameTarget target(const std::string& workload, std::vector<std::string> sets = {},
                   std::string warm_state = kDefaultWarmState,
                   std::string frames = "") {
  FrameSpec s;
  s.workload = workload;
  s.sets = std::move(sets);
  s.warm_state = std::move(warm_state);
  s.frames = std::move(frames);
  return resolve(s);
}

TEST(FrameCapture, EveryFrameReplayedInOrderTakesTheTracesCyclesAndStatistics) {
  const FrameTarget trace = target(kTrace), cap = target(small_capture());
  ASSERT_TRUE(cap.capture);
  EXPECT_EQ(cap.trace, trace.trace);
  const sampling::TimedFrames a = render_and_time(trace, trace.ranges, 0, nullptr);
  const sampling::TimedFrames b = render_and_time(cap, cap.ranges, 0, nullptr);
  ASSERT_EQ(a.by_frame.size(), 12u);
  ASSERT_EQ(b.by_frame.size(), 12u);
  for (const auto& [f, t] : a.by_frame) EXPECT_EQ(b.by_frame.at(f).measure, t.measure) << "frame " << f;
}

TEST(FrameCapture, TheCapturesCountsAreTheFunctionalPasss) {
  const FrameTarget trace = target(kTrace), cap = target(small_capture());
  const CountedFrames a = render_counts(trace, trace.ranges), b = render_counts(cap, cap.ranges);
  ASSERT_EQ(a.frames.size(), b.frames.size());
  for (size_t i = 0; i < a.frames.size(); ++i) {
    EXPECT_EQ(a.frames[i].frame, b.frames[i].frame);
    EXPECT_EQ(a.frames[i].primitives, b.frames[i].primitives);
    EXPECT_EQ(a.frames[i].quads, b.frames[i].quads);
    const sampling::FrameCounts x = frame_counts(a.frames[i]), y = frame_counts(b.frames[i]);
    EXPECT_EQ(x.vertex, y.vertex);
    EXPECT_EQ(x.pixel, y.pixel);
  }
}

TEST(FrameCapture, AFrameTimedAloneStartsWarmFromTheHistoryOfTheFramesBeforeIt) {
  // The reference: every frame in order on one GPU. Each frame then alone on a fresh GPU,
  // warmed from the capture's history, and cold. Cold, these small frames take 1.5-2.8x their
  // cycles (everything they touch fits in the caches); the history brings them to a few percent.
  const FrameTarget ref_target = target(small_capture());
  const sampling::TimedFrames ref = render_and_time(ref_target, ref_target.ranges, 0, nullptr);
  double warm_error = 0, cold_error = 0;
  for (uint64_t f = 1; f < 12; ++f) {
    const std::string one = std::to_string(f);
    const FrameTarget warm = target(small_capture(), {}, "history", one), cold = target(small_capture(), {}, "none", one);
    const double r = ref.by_frame.at(f).measure[0];
    const double w = render_and_time(warm, warm.ranges, 0, nullptr).by_frame.at(f).measure[0];
    const double c = render_and_time(cold, cold.ranges, 0, nullptr).by_frame.at(f).measure[0];
    EXPECT_LT(std::abs(w - r), std::abs(c - r)) << "frame " << f;
    warm_error += std::abs(w - r) / r / 11, cold_error += std::abs(c - r) / r / 11;
  }
  EXPECT_GT(cold_error, 0.5);
  EXPECT_LT(warm_error, 0.05) << "mean |error| " << warm_error << " (cold " << cold_error << ")";
}

TEST(FrameCapture, MegsimFromTheCaptureChoosesTheSameFramesAsFromTheTrace) {
  FrameCompareSpec s;
  s.frames.workload = kTrace;
  s.frames.warm_frames = "0";
  s.methods = {"megsim"};
  const report::FrameComparison a = compare_frames(validate(s));
  s.frames.workload = small_capture();
  const report::FrameComparison b = compare_frames(validate(s));
  EXPECT_EQ(a.totals, b.totals);
  EXPECT_EQ(a.methods[0].result.frames_simulated, b.methods[0].result.frames_simulated);
  EXPECT_TRUE(a.capture.is_null());
  ASSERT_FALSE(b.capture.is_null());
  EXPECT_EQ(b.capture["file"], small_capture());
  EXPECT_GT(b.methods[0].speedup_one_shot, 0);
  EXPECT_LT(b.methods[0].speedup_one_shot, b.methods[0].speedup.median);
}

TEST(FrameCapture, AFramesHistoryIsTheSameWalkedOnOneThreadOrThree) {
  auto made = [](uint32_t threads) {
    const std::string p = std::filesystem::temp_directory_path().string() + "/strobe-frames-t" +
                          std::to_string(threads) + "-" + std::to_string(::getpid()) + ".cap";
    CaptureSpec s;
    s.run.benchmark = kTrace;
    s.run.threads = threads;
    s.output = p;
    capture(s);
    auto f = capture::CaptureFile::open(p);
    std::filesystem::remove(p);  // the open file stays readable
    return f;
  };
  const auto a = made(1), b = made(3);
  EXPECT_EQ(a->index().threads, 1u);
  EXPECT_EQ(b->index().threads, 3u);
  ASSERT_EQ(a->index().frames.size(), b->index().frames.size());
  for (size_t i = 0; i < a->index().frames.size(); ++i) {
    const capture::FrameRecord &x = a->index().frames[i], &y = b->index().frames[i];
    EXPECT_EQ(x.history_entries, y.history_entries) << "frame " << x.frame;
    EXPECT_EQ(a->blob(x.history, capture::BlobKind::History), b->blob(y.history, capture::BlobKind::History))
        << "frame " << x.frame;
    EXPECT_EQ(x.wave_instructions, y.wave_instructions);
    EXPECT_GT(x.history_entries, 0u);
  }
}

TEST(FrameCapture, WhatTheCaptureCannotServeIsRefusedByName) {
  auto refused = [](const std::function<void()>& f, const std::string& words) {
    try {
      f();
      ADD_FAILURE() << "not refused: " << words;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  };
  refused([] { target(small_capture(), {"gfx.tile_size=32"}); }, "gfx.tile_size=32");
  refused([] { target(small_capture(), {"gfx.bin_entry_bytes=16"}); }, "gfx.bin_entry_bytes=16");
  refused([] { target(small_capture(), {}, "history", "12"); }, "frame 12 was not captured");
  refused([] { target(small_capture(), {}, "sometimes"); }, "--warm-state sometimes");
  refused([] { target(kTrace, {}, "history"); }, "only for a capture");
  refused(
      [] {
        FrameSpec s;
        s.workload = small_capture();
        s.warm_frames = "2";
        resolve(s);
      },
      "--warm-frames 2");
  refused(
      [] {
        CaptureSpec s;
        s.run.benchmark = kTrace;
        s.output = "/tmp/strobe-never.cap";
        s.frames = "20-30";
        capture(s);
      },
      "the trace has 12 frames");
  EXPECT_FALSE(std::filesystem::exists("/tmp/strobe-never.cap"));
}

}  // namespace
}  // namespace strobe::experiment
