#include "experiment/frames.h"

#include <algorithm>
#include <chrono>
#include <limits>

#include <fmt/format.h>

#include "common/cpu_clock.h"
#include "common/error.h"
#include "experiment/run_spec.h"
#include "gfx/pipeline/renderer.h"
#include "capture/replay.h"
#include "gfx/stream/captured.h"

namespace strobe::experiment {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

bool is_frames_capture(const std::string& path) {
  if (path.size() <= 4 || !path.ends_with(".cap")) return false;
  try {
    return capture::CaptureFile::kind_of(path) == "frames";
  } catch (const InputError&) {
    return false;
  }
}

namespace {

/// The capture's frame ranges: --frames, each frame named by a closed range captured (an open
/// range runs to the capture's last frame).
std::vector<gfx::FrameRange> capture_ranges(const FrameSpec& s, const capture::FrameReplayer& r) {
  const std::vector<uint64_t>& n = r.frame_numbers();
  if (s.frames.empty()) return {{n.front(), n.back()}};
  std::vector<gfx::FrameRange> ranges = gfx::parse_frame_ranges(s.frames, "--frames");
  for (gfx::FrameRange& g : ranges) {
    if (g.last == std::numeric_limits<uint64_t>::max()) g.last = n.back();
    r.position(g.first), r.position(std::max(g.first, g.last));  // InputError for a frame not captured
  }
  return ranges;
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
  if (timing::isa_of(t.gpu) == isa::Target::Gfx942)
    throw NotImplementedError("gpu.isa gfx942 for graphics frames (RADV compiles them for gfx803); only the "
                              "suite's benchmarks run on gfx942");
  if (s.warm_state != "history" && s.warm_state != "fitted" && s.warm_state != "none")
    throw InputError(fmt::format("--warm-state {}: expected history, fitted or none", s.warm_state));
  t.warm_state = s.warm_state;
  t.threads = std::max(s.threads, 1u);
  if (s.workload.size() > 4 && s.workload.ends_with(".cap")) {
    auto src = std::make_shared<FrameCaptureSource>();
    src->file = capture::CaptureFile::open(s.workload);
    src->replayer = std::make_unique<capture::FrameReplayer>(*src->file);
    src->replayer->check(t.gpu);
    if (t.warm != 0)
      throw InputError(fmt::format("--warm-frames {}: the frames of capture {} start warm from its history "
                                   "(--warm-state); --warm-frames applies to traces",
                                   s.warm_frames, s.workload));
    t.ranges = capture_ranges(s, *src->replayer);
    for (const std::string& p : src->file->index().params)
      if (p.rfind("trace=", 0) == 0) t.trace = p.substr(6);
    t.capture = std::move(src);
    return t;
  }
  if (s.warm_state != kDefaultWarmState) throw InputError("--warm-state: only for a capture (FILE.cap)");
  t.trace = gfx::resolve_trace(s.workload);
  t.ranges = s.frames.empty() ? std::vector<gfx::FrameRange>{{0, std::numeric_limits<uint64_t>::max()}}
                              : gfx::parse_frame_ranges(s.frames, "--frames");
  return t;
}

void render_frames(const FrameTarget& t, const std::vector<gfx::FrameRange>& ranges, const gfx::RendererOptions& ro,
                   const std::function<void(const gfx::FrameStats&, const gfx::Renderer&)>& on_frame,
                   uint64_t warm_frames,
                   const std::function<void(const gfx::FrameStats&, const gfx::Renderer&)>& on_warm_frame,
                   const std::function<void(size_t)>& before) {
  if (!t.capture) {
    gfx::render_trace(t.trace, ranges, ro, on_frame, warm_frames, on_warm_frame);
    return;
  }
  capture::FrameReplayer& r = *t.capture->replayer;
  gfx::Renderer renderer(ro);
  const std::vector<uint64_t>& n = r.frame_numbers();
  for (size_t p = 0; p < n.size(); ++p) {
    if (std::none_of(ranges.begin(), ranges.end(), [&](const gfx::FrameRange& g) { return g.first <= n[p] && n[p] <= g.last; }))
      continue;
    if (before) before(p);
    on_frame(renderer.render(r.frame(p), n[p]), renderer);
  }
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
  if (t.capture) {
    const capture::FrameReplayer& r = *t.capture->replayer;
    const std::vector<uint64_t>& n = r.frame_numbers();
    for (size_t p = 0; p < n.size(); ++p)
      if (std::any_of(ranges.begin(), ranges.end(), [&](const gfx::FrameRange& g) { return g.first <= n[p] && n[p] <= g.last; }))
        c.frames.push_back(r.counts(p));
  } else {
    gfx::RendererOptions ro;
    ro.tile_size = int(t.gpu.gfx_tile_size);
    gfx::render_trace(t.trace, ranges, ro, [&](const gfx::FrameStats& s, const gfx::Renderer&) { c.frames.push_back(s); });
  }
  c.seconds = seconds_since(t0);
  c.cpu_seconds = process_cpu_seconds() - cpu0;
  return c;
}

namespace {

/// The distinct granules a capture's warm state walks back on `cfg` (0: the capture's bound).
uint64_t warm_window(const FrameTarget& t, const timing::GpuConfig& cfg) {
  return t.warm_state == "fitted" ? capture::fitted_granules(cfg, t.capture->file->index().granule_bytes) : 0;
}

}  // namespace

void warm_before(const FrameTarget& t, timing::Gpu& gpu, size_t p) {
  if (t.capture && t.warm_state != "none") t.capture->replayer->warm(gpu, 0, p, warm_window(t, gpu.config()));
}

std::function<void(size_t)> capture_warming(const FrameTarget& t, timing::Gpu& gpu) {
  if (!t.capture || t.warm_state == "none") return {};
  const uint64_t window = warm_window(t, gpu.config());
  // Frames since the last one this GPU timed warm it from their history (none between
  // consecutive frames: the GPU's own state is then the reference's).
  auto next = std::make_shared<size_t>(0);
  return [&t, &gpu, window, next](size_t p) {
    t.capture->replayer->warm(gpu, *next, p, window);
    *next = p + 1;
  };
}

sampling::TimedFrames render_and_time(const FrameTarget& t, const std::vector<gfx::FrameRange>& ranges,
                                      uint64_t warm, const char* progress, std::vector<uint64_t>* order) {
  sampling::TimedFrames out;
  const auto t0 = std::chrono::steady_clock::now();
  const double cpu0 = process_cpu_seconds();
  timing::Gpu gpu(t.gpu);
  gpu.set_host_threads(t.threads);
  gfx::RendererOptions ro;
  ro.tile_size = int(t.gpu.gfx_tile_size);
  ro.record = true;
  ro.threads = t.threads;
  render_frames(
      t, ranges, ro,
      [&](const gfx::FrameStats& s, const gfx::Renderer& r) {
        const timing::FrameTiming ft = gpu.run_frame(r.recording()->work);
        out.by_frame[s.frame] = {frame_measure(ft), frame_activity(ft, s)};
        if (order) order->push_back(s.frame);
        if (progress) fmt::print(stderr, "compare: {}: frame {}: {} cycles\n", progress, s.frame, ft.cycles);
      },
      warm,
      // Warm frames are timed too, unreported: their accesses leave the caches as the frames
      // before a sampled frame left them in the reference.
      [&](const gfx::FrameStats&, const gfx::Renderer& r) { gpu.run_frame(r.recording()->work); },
      capture_warming(t, gpu));
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
