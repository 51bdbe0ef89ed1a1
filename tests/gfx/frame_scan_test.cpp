// Per-frame counts of a trace: draws, vertices, programs, with frames cut at swaps; draws as the
// renderer draws them, the ones it refuses counted apart.
#include "gfx/stream/frame_scan.h"

#include <gtest/gtest.h>

#include "common/error.h"
#include "trace_builder.h"

namespace strobe::gfx {
namespace {

using trace::TempFile;
using trace::TraceBuilder;

TEST(FrameScan, CountsDrawsVerticesAndProgramsPerFrameCutAtSwaps) {
  TraceBuilder t;
  uint64_t n = 0;
  auto call = [&](auto&& body) { body(); t.leave(n++).end(); };
  // Frame 0: program 3 draws 36 indices twice, program 4 a 4-vertex strip instanced 5 times,
  // which the renderer refuses (and so the scan counts it apart).
  call([&] { t.enter(0, 1, "glUseProgram", {"program"}).arg(0).uint_value(3).end(); });
  call([&] { t.enter(0, 2, "glDrawElements", {"mode", "count", "type", "indices"}).arg(1).uint_value(36).end(); });
  call([&] { t.enter(0, 2).arg(1).uint_value(36).end(); });
  call([&] { t.enter(0, 1).arg(0).uint_value(4).end(); });
  call([&] {
    t.enter(0, 3, "glDrawArraysInstanced", {"mode", "first", "count", "instancecount"}).arg(2).uint_value(4);
    t.arg(3).uint_value(5).end();
  });
  call([&] { t.enter(0, 4, "glXSwapBuffers", {"dpy", "drawable"}).end(); });
  // Frame 1: a multi-draw of two ranges, then the swap; a draw after the last swap is no frame.
  call([&] {
    t.enter(0, 5, "glMultiDrawArrays", {"mode", "first", "count", "drawcount"}).arg(2).array(2).uint_value(3).uint_value(6);
    t.end();
  });
  call([&] { t.enter(0, 4).end(); });
  call([&] { t.enter(0, 2).arg(1).uint_value(9).end(); });
  TempFile f("frames.trace", t.file());
  auto r = scan_frames(f.path());
  EXPECT_EQ(r.calls, 9u);
  ASSERT_EQ(r.frames.size(), 2u);
  EXPECT_EQ(r.frames[0].draws, 2u);
  EXPECT_EQ(r.frames[0].unsupported_draws, 1u);
  EXPECT_EQ(r.frames[0].vertices, 36u + 36u);
  EXPECT_EQ(r.frames[0].programs, 1u);
  EXPECT_EQ(r.frames[0].first_call, 0u);
  EXPECT_EQ(r.frames[1].draws, 0u);
  EXPECT_EQ(r.frames[1].unsupported_draws, 1u);
  EXPECT_EQ(r.frames[1].vertices, 0u);
  EXPECT_EQ(r.frames[1].programs, 0u);
  EXPECT_EQ(r.frames[1].first_call, 6u);
}

TEST(FrameScan, ADrawWithoutItsCountIsAnInputErrorNamingTheCall) {
  TraceBuilder t;
  t.enter(0, 2, "glDrawArrays", {"mode", "first", "count"}).arg(0).uint_value(4).end().leave(0).end();
  TempFile f("nocount.trace", t.file());
  try {
    scan_frames(f.path());
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("call 0 (glDrawArrays)"), std::string::npos) << e.what();
  }
}

TEST(FrameScan, TheSmallGlmark2CaptureHasTwelveFramesThatEachDraw) {
  auto r = scan_frames(STROBE_BUILD_DIR "/gfx-traces/glmark2-small.trace");
  ASSERT_EQ(r.frames.size(), 12u);
  for (const auto& f : r.frames) {
    EXPECT_GE(f.draws, 1u) << "frame at call " << f.first_call;
    EXPECT_GE(f.vertices, 3u) << "frame at call " << f.first_call;
    EXPECT_GE(f.programs, 1u) << "frame at call " << f.first_call;
  }
  EXPECT_EQ(r.links, 3u);
}

}  // namespace
}  // namespace strobe::gfx
