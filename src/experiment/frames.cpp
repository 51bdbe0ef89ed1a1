#include "experiment/frames.h"

#include <algorithm>
#include <chrono>
#include <limits>

#include <fmt/format.h>

#include "common/cpu_clock.h"
#include "common/error.h"
#include "experiment/run_spec.h"
#include "gfx/pipeline/renderer.h"
#include "gfx/stream/captured.h"

namespace strobe::experiment {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

FrameTarget resolve(const FrameSpec& s, bool all_warm) {
  FrameTarget t;
  t.workload = s.workload;
  if (all_warm && s.warm_frames == "all") {
    t.warm = std::numeric_limits<uint64_t>::max();
  } else {
    const auto warm = gfx::parse_frame_ranges(s.warm_frames, "--warm-frames");
    if (warm.size() != 1 || warm[0].first != warm[0].last)
      throw InputError(fmt::format("--warm-frames '{}': expected a number of frames{}", s.warm_frames,
                                   all_warm ? " or all" : ""));
    t.warm = warm[0].first;
  }
  t.gpu = resolve_gpu_config(s.arch, s.sets);
  timing::check_runnable(t.gpu, {.graphics = true});
  t.trace = gfx::resolve_trace(s.workload);
  t.ranges = s.frames.empty() ? std::vector<gfx::FrameRange>{{0, std::numeric_limits<uint64_t>::max()}}
                              : gfx::parse_frame_ranges(s.frames, "--frames");
  return t;
}

sampling::FrameMeasure frame_measure(const timing::FrameTiming& t) {
  return {double(t.cycles), double(t.stats.get("dram.bytes")),
          double(t.stats.sum("l2.", ".reads") + t.stats.sum("l2.", ".writes")),
          double(t.stats.get("gfx.tile_buffer_accesses"))};
}

sampling::StageActivity frame_activity(const timing::FrameTiming& t, const gfx::FrameStats& s) {
  constexpr double kSimdCyclesPerWaveInstruction = 4;
  double vs = 0, ps = 0;
  for (const auto& [name, c] : s.vertex_shaders) vs += double(c.wave_instructions);
  for (const auto& [name, c] : s.pixel_shaders) ps += double(c.wave_instructions);
  return {kSimdCyclesPerWaveInstruction * vs,
          kSimdCyclesPerWaveInstruction * ps + double(t.stats.get("gfx.raster_busy") + t.stats.get("gfx.blend_busy")),
          double(t.stats.get("gfx.setup_busy"))};
}

sampling::FrameCounts frame_counts(const gfx::FrameStats& s) {
  sampling::FrameCounts f;
  f.frame = s.frame;
  for (const auto& [name, c] : s.vertex_shaders) f.vertex[name] = c.texture_weighted_instructions();
  for (const auto& [name, c] : s.pixel_shaders) f.pixel[name] = c.texture_weighted_instructions();
  f.primitives = double(s.primitives - s.frustum_culled - s.face_culled);
  return f;
}

CountedFrames render_counts(const FrameTarget& t, const std::vector<gfx::FrameRange>& ranges) {
  const auto t0 = std::chrono::steady_clock::now();
  const double cpu0 = process_cpu_seconds();
  CountedFrames c;
  gfx::RendererOptions ro;
  ro.tile_size = int(t.gpu.gfx_tile_size);
  gfx::render_trace(t.trace, ranges, ro, [&](const gfx::FrameStats& s, const gfx::Renderer&) { c.frames.push_back(s); });
  c.seconds = seconds_since(t0);
  c.cpu_seconds = process_cpu_seconds() - cpu0;
  return c;
}

sampling::TimedFrames render_and_time(const FrameTarget& t, const std::vector<gfx::FrameRange>& ranges,
                                      uint64_t warm, const char* progress, std::vector<uint64_t>* order) {
  sampling::TimedFrames out;
  const auto t0 = std::chrono::steady_clock::now();
  const double cpu0 = process_cpu_seconds();
  timing::Gpu gpu(t.gpu);
  gfx::RendererOptions ro;
  ro.tile_size = int(t.gpu.gfx_tile_size);
  ro.record = true;
  gfx::render_trace(
      t.trace, ranges, ro,
      [&](const gfx::FrameStats& s, const gfx::Renderer& r) {
        const timing::FrameTiming ft = gpu.run_frame(r.recording()->work);
        out.by_frame[s.frame] = {frame_measure(ft), frame_activity(ft, s)};
        if (order) order->push_back(s.frame);
        if (progress) fmt::print(stderr, "compare: {}: frame {}: {} cycles\n", progress, s.frame, ft.cycles);
      },
      warm,
      // Warm frames are timed too, unreported: their accesses leave the caches as the frames
      // before a sampled frame left them in the reference.
      [&](const gfx::FrameStats&, const gfx::Renderer& r) { gpu.run_frame(r.recording()->work); });
  out.seconds = seconds_since(t0);
  out.cpu_seconds = process_cpu_seconds() - cpu0;
  return out;
}

std::vector<gfx::FrameRange> single_frames(std::vector<uint64_t> frames) {
  std::sort(frames.begin(), frames.end());
  std::vector<gfx::FrameRange> r;
  for (uint64_t f : frames) r.push_back({f, f});
  return r;
}

}  // namespace strobe::experiment
