#include "experiment/frame_run.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <limits>

#include <fmt/format.h>

#include "common/atomic_file.h"
#include "common/cpu_clock.h"
#include "common/error.h"
#include "experiment/run_spec.h"
#include "gfx/pipeline/image_compare.h"
#include "gfx/pipeline/renderer.h"
#include "gfx/stream/captured.h"
#include "report/timing_json.h"
#include "sampling/megsim/selection.h"

namespace strobe::experiment {

namespace {

/// MEGsim's selection over `frames`, described as the run reports it.
nlohmann::json megsim_selection(const std::vector<gfx::FrameStats>& frames, const std::vector<std::string>& sets,
                                std::string& text) {
  std::vector<sampling::FrameCounts> counts;
  for (const gfx::FrameStats& s : frames) counts.push_back(frame_counts(s));
  sampling::megsim::Selection sel = sampling::megsim::select(counts, sampling::megsim::params_from(sets));
  text = sel.text;
  nlohmann::json j = std::move(sel.description);
  j["estimate"] = nullptr;
  j["interval"] = sampling::no_interval(sampling::megsim::kNoIntervalWhy);
  j["estimate_note"] = "the selection only; strobe compare gfx:... --sampling megsim times the representatives";
  return j;
}

/// `--profile RUN.json`: the selection made from the counts an earlier run of the same workload
/// wrote, without rendering (--frames picks among them), so MEGsim's parameters can be studied at
/// the cost of the clustering alone. The trace itself need not be on this machine.
report::FrameRun select_from_profile(const FrameRunSpec& s) {
  nlohmann::json in;
  try {
    in = nlohmann::json::parse(read_file(s.profile));
  } catch (const nlohmann::json::exception& e) {
    throw InputError(fmt::format("--profile {}: not JSON ({})", s.profile, e.what()));
  }
  if (!in.is_object() || !in.contains("frames") || !in["frames"].is_array() || !in.contains("workload"))
    throw InputError(fmt::format("--profile {}: not the JSON of strobe run gfx:... --json", s.profile));
  // The same workload by name, or by the trace it resolves to (gfx:NAME against gfx:PATH).
  const std::string workload = in.value("workload", "");
  auto same_trace = [&] {
    try {
      return in.value("trace", "") == gfx::resolve_trace(s.frames.workload);
    } catch (const InputError&) {
      return false;
    }
  };
  if (workload != s.frames.workload && !same_trace())
    throw InputError(fmt::format("--profile {}: its frames are of {}, not {}", s.profile, workload, s.frames.workload));
  const std::vector<gfx::FrameRange> asked =
      s.frames.frames.empty() ? std::vector<gfx::FrameRange>{{0, std::numeric_limits<uint64_t>::max()}}
                              : gfx::parse_frame_ranges(s.frames.frames, "--frames");
  report::FrameRun r;
  r.workload = s.frames.workload;
  r.trace = in.value("trace", "");
  r.mode = s.mode;
  r.profile = s.profile;
  std::vector<gfx::FrameStats> counted;
  try {
    for (const nlohmann::json& f : in["frames"]) {
      report::FrameRecord rec = report::frame_record_from_json(f);
      const uint64_t frame = rec.counts.frame;
      if (std::none_of(asked.begin(), asked.end(), [&](const gfx::FrameRange& a) { return a.first <= frame && frame <= a.last; }))
        continue;
      counted.push_back(rec.counts);
      r.frames.push_back(std::move(rec));
    }
  } catch (const nlohmann::json::exception& e) {
    throw InputError(fmt::format("--profile {}: a frame's counts are malformed ({})", s.profile, e.what()));
  }
  if (counted.empty())
    throw InputError(fmt::format("--profile {}: none of its {} frames is among --frames {}", s.profile,
                                 in["frames"].size(), s.frames.frames));
  r.sampling = megsim_selection(counted, s.sampling_sets, r.selection_text);
  return r;
}

}  // namespace

ValidatedFrameRun validate(const FrameRunSpec& s) {
  if (s.mode != "functional" && s.mode != "timing")
    throw InputError(fmt::format("--mode {} for a graphics workload: expected functional or timing", s.mode));
  if (s.mode != "timing" && (s.frames.arch != "r9nano" || !s.frames.sets.empty()))
    throw InputError("--arch and --set for a graphics workload: only with --mode timing");
  if (s.sampling != "none" && s.sampling != "megsim")
    throw InputError(fmt::format("--sampling {} for graphics workloads: expected none or megsim", s.sampling));
  if (s.sampling == "none" && !s.sampling_sets.empty())
    throw InputError("--sampling-set for a graphics workload: only with --sampling megsim");
  if (s.sampling == "megsim") sampling::megsim::params_from(s.sampling_sets);  // bad keys fail before rendering
  ValidatedFrameRun v{s, s.mode == "timing" ? FrameMode::Timing : FrameMode::Functional, {}};
  if (!s.profile.empty()) {
    if (s.sampling != "megsim") throw InputError("--profile for a graphics workload: only with --sampling megsim");
    if (!s.images.empty() || !s.reference.empty() || s.frames.warm_frames != "0")
      throw InputError("--profile for a graphics workload: nothing is rendered, so --images, --reference and "
                       "--warm-frames do not apply");
    return v;
  }
  if (s.threshold < 0 || s.threshold > 255)
    throw InputError(fmt::format("--reference-threshold {}: expected 0 to 255", s.threshold));
  v.target = resolve(s.frames, true);
  if (s.alone && (!v.target.capture || v.mode != FrameMode::Timing))
    throw InputError("--alone for a graphics workload: only for a capture of frames (FILE.cap) in timing mode");
  return v;
}

report::FrameRun run_frames(const ValidatedFrameRun& v, const std::function<void(const report::FrameRecord&)>& on_frame) {
  const FrameRunSpec& s = v.spec;
  if (!s.profile.empty()) return select_from_profile(s);
  const FrameTarget& t = v.target;
  // Timing: every frame rendered is recorded and timed on one GPU, whose caches carry over from
  // frame to frame (gfx.frame_caches); frames rendered only to warm state are timed unreported.
  std::unique_ptr<timing::Gpu> gpu;
  auto fresh_gpu = [&t] {
    auto g = std::make_unique<timing::Gpu>(t.gpu);
    g->set_host_threads(t.threads);
    return g;
  };
  if (v.mode == FrameMode::Timing) gpu = fresh_gpu();
  std::vector<gfx::Image> reference;
  if (!s.reference.empty()) reference = gfx::read_pnm_stream(s.reference);
  if (!s.images.empty()) std::filesystem::create_directories(s.images);

  report::FrameRun r;
  r.workload = t.workload;
  r.trace = t.trace;
  r.mode = s.mode;
  r.warm_frames = s.frames.warm_frames;
  std::vector<gfx::FrameStats> counted;  // every frame's counts, for MEGsim
  gfx::RendererOptions ro;
  ro.threads = t.threads;
  if (gpu) {
    ro.tile_size = int(t.gpu.gfx_tile_size);
    ro.record = true;
    r.config = gpu->config_json();
    r.clock_mhz = t.gpu.clock_mhz;
  }
  r.tile_size = ro.tile_size;
  // From a capture, frames skipped since the last one timed warm it from their history; alone,
  // each frame gets a fresh GPU warmed by the history of every frame before it.
  std::function<void(size_t)> before;
  if (gpu && s.alone)
    before = [&](size_t p) {
      gpu = fresh_gpu();
      warm_before(t, *gpu, p);
    };
  else if (gpu)
    before = capture_warming(t, *gpu);
  auto frame = [&](const gfx::FrameStats& st, const gfx::Renderer& rd) {
    report::FrameRecord f;
    f.counts = st;
    if (gpu) {
      const auto t0 = std::chrono::steady_clock::now();
      const double cpu0 = process_cpu_seconds();
      const timing::FrameTiming ft = gpu->run_frame(rd.recording()->work);
      f.timing = report::FrameTimingRecord{report::frame_timing_json(ft), frame_measure(ft),
                                           std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                                           process_cpu_seconds() - cpu0};
    }
    if (!s.images.empty()) {
      f.image = fmt::format("{}/frame-{:06}.ppm", s.images, st.frame);
      gfx::write_ppm(f.image, rd.window());
    }
    if (!s.reference.empty()) {
      if (r.frames.size() >= reference.size())
        throw InputError(fmt::format("{}: {} reference images, but frame {} is the {}th rendered", s.reference,
                                     reference.size(), st.frame, r.frames.size() + 1));
      const gfx::ImageDiff d = gfx::compare_images(gfx::image_of(rd.window()), reference[r.frames.size()], s.threshold);
      f.reference = {{"mean_abs_error", d.mean_abs_error},
                     {"psnr_db", std::isinf(d.psnr_db) ? nlohmann::json(nullptr) : nlohmann::json(d.psnr_db)},
                     {"bad_pixel_fraction", d.bad_pixel_fraction}, {"max_channel_diff", d.max_channel_diff},
                     {"threshold", d.threshold}, {"text", gfx::describe(d)}};
    }
    r.total += st;
    if (s.sampling == "megsim") counted.push_back(st);
    r.pipelines_compiled = rd.pipelines_compiled();
    on_frame(f);
    r.frames.push_back(std::move(f));
  };
  render_frames(t, t.ranges, ro, frame, t.warm,
                // In timing mode warm frames are timed too, unreported, so that they warm the caches.
                [&](const gfx::FrameStats&, const gfx::Renderer& rd) {
                  if (gpu) gpu->run_frame(rd.recording()->work);
                },
                before);
  if (s.sampling == "megsim") r.sampling = megsim_selection(counted, s.sampling_sets, r.selection_text);
  return r;
}

}  // namespace strobe::experiment
