#include "cli/gfx_run.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <limits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/gfx_megsim.h"
#include "experiment/frames.h"
#include "cli/report.h"
#include "common/cpu_clock.h"
#include "common/error.h"
#include "gfx/pipeline/image_compare.h"
#include "gfx/pipeline/renderer.h"
#include "experiment/run_spec.h"
#include "gfx/stream/captured.h"
#include "report/timing_json.h"
#include "sampling/megsim/params.h"
#include "timing/gpu/gpu.h"

namespace strobe::cli {
int run_graphics(const GraphicsRunOptions& o) {
  if (o.mode != "functional" && o.mode != "timing")
    throw InputError(fmt::format("--mode {} for a graphics workload: expected functional or timing", o.mode));
  if (o.mode != "timing" && (o.arch != "r9nano" || !o.sets.empty()))
    throw InputError("--arch and --set for a graphics workload: only with --mode timing");
  // Timing: every frame rendered is recorded and timed on one GPU, whose caches carry over from
  // frame to frame (gfx.frame_caches); frames rendered only to warm state are timed unreported.
  std::unique_ptr<timing::Gpu> gpu;
  if (o.mode == "timing") gpu = std::make_unique<timing::Gpu>(experiment::resolve_gpu_config(o.arch, o.sets));
  if (o.sampling != "none" && o.sampling != "megsim")
    throw InputError(fmt::format("--sampling {} for graphics workloads: expected none or megsim", o.sampling));
  if (o.sampling == "none" && !o.sampling_sets.empty())
    throw InputError("--sampling-set for a graphics workload: only with --sampling megsim");
  if (o.sampling == "megsim") sampling::megsim::params_from(o.sampling_sets);  // bad keys fail before rendering
  if (!o.profile.empty()) return megsim_from_profile(o);
  if (o.threshold < 0 || o.threshold > 255)
    throw InputError(fmt::format("--reference-threshold {}: expected 0 to 255", o.threshold));
  uint64_t warm = std::numeric_limits<uint64_t>::max();
  if (o.warm_frames != "all") {
    const auto ranges = gfx::parse_frame_ranges(o.warm_frames, "--warm-frames");
    if (ranges.size() != 1 || ranges[0].first != ranges[0].last)
      throw InputError(fmt::format("--warm-frames '{}': expected a number of frames or all", o.warm_frames));
    warm = ranges[0].first;
  }
  const std::string trace = gfx::resolve_trace(o.workload);
  const std::vector<gfx::FrameRange> frames_asked =
      o.frames.empty() ? std::vector<gfx::FrameRange>{{0, std::numeric_limits<uint64_t>::max()}}
                       : gfx::parse_frame_ranges(o.frames, "--frames");
  std::vector<gfx::Image> reference;
  if (!o.reference.empty()) reference = gfx::read_pnm_stream(o.reference);
  if (!o.images.empty()) std::filesystem::create_directories(o.images);
  const bool show = o.progress || ::isatty(STDERR_FILENO);
  const bool json_on_stdout = o.json == "-";

  nlohmann::json frames = nlohmann::json::array();
  gfx::FrameStats total;
  std::vector<gfx::FrameStats> counted;  // every frame's counts, for MEGsim
  size_t rendered = 0;
  uint64_t total_cycles = 0;
  double timing_seconds = 0;
  auto on_frame = [&](const gfx::FrameStats& s, const gfx::Renderer& r) {
    nlohmann::json j = gfx::to_json(s);
    std::string line = fmt::format("frame {}: {} draws, {} vertices, {} primitives, {} fragments, {} pixels written, "
                                   "{:.2f} s",
                                   s.frame, s.draws, s.vertices, s.primitives, s.fragments, s.pixels_written, s.seconds);
    if (gpu) {
      const auto t0 = std::chrono::steady_clock::now();
      const double cpu0 = process_cpu_seconds();
      const timing::FrameTiming ft = gpu->run_frame(r.recording()->work);
      const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      j["timing"] = report::frame_timing_json(ft);
      j["timing"]["seconds"] = secs;
      j["timing"]["cpu_seconds"] = process_cpu_seconds() - cpu0;
      // MEGsim's statistics, so that strobe compare can take these frames as its reference.
      j["timing"]["statistics"] = experiment::to_json(experiment::frame_measure(ft));
      line += fmt::format("; {} cycles ({} geometry, {} tiles), IPC {:.2f}, timed in {:.2f} s", ft.cycles,
                          ft.stats.get("gfx.geometry_cycles"), ft.stats.get("gfx.tile_cycles"),
                          ft.cycles ? double(ft.wave_instructions) / double(ft.cycles) : 0.0, secs);
      total_cycles += ft.cycles;
      timing_seconds += secs;
    }
    if (!o.images.empty()) {
      const std::string path = fmt::format("{}/frame-{:06}.ppm", o.images, s.frame);
      gfx::write_ppm(path, r.window());
      j["image"] = path;
    }
    if (!o.reference.empty()) {
      if (rendered >= reference.size())
        throw InputError(fmt::format("{}: {} reference images, but frame {} is the {}th rendered", o.reference,
                                     reference.size(), s.frame, rendered + 1));
      const gfx::ImageDiff d = gfx::compare_images(gfx::image_of(r.window()), reference[rendered], o.threshold);
      j["reference"] = {{"mean_abs_error", d.mean_abs_error}, {"psnr_db", std::isinf(d.psnr_db) ? nlohmann::json(nullptr) : nlohmann::json(d.psnr_db)},
                        {"bad_pixel_fraction", d.bad_pixel_fraction}, {"max_channel_diff", d.max_channel_diff},
                        {"threshold", d.threshold}};
      line += "; against the reference: " + gfx::describe(d);
    }
    if (!json_on_stdout) fmt::print("{}\n", line);
    else if (show) fmt::print(stderr, "{}\n", line);
    frames.push_back(std::move(j));
    total += s;
    if (o.sampling == "megsim") counted.push_back(s);
    ++rendered;
  };
  gfx::RendererOptions ro;
  ro.threads = o.threads;
  if (gpu) {
    ro.tile_size = int(gpu->config().gfx_tile_size);
    ro.record = true;
  }
  size_t pipelines = 0;
  gfx::render_trace(
      trace, frames_asked, ro,
      [&](const gfx::FrameStats& s, const gfx::Renderer& r) {
        on_frame(s, r);
        pipelines = r.pipelines_compiled();
      },
      warm,
      // In timing mode warm frames are timed too, unreported, so that they warm the caches.
      [&](const gfx::FrameStats&, const gfx::Renderer& r) {
        if (gpu) gpu->run_frame(r.recording()->work);
      });
  nlohmann::json out{{"workload", o.workload}, {"trace", trace}, {"mode", o.mode}, {"frames", std::move(frames)},
                     {"total", gfx::to_json(total)}, {"pipelines_compiled", pipelines}, {"warm_frames", o.warm_frames},
                     {"tile_size", ro.tile_size}};
  out["total"].erase("frame");
  if (gpu) {
    out["config"] = gpu->config_json();
    out["timing"] = {{"cycles", total_cycles},
                     {"sim_seconds", double(total_cycles) / (gpu->config().clock_mhz * 1e6)},
                     {"seconds", timing_seconds}};
  }
  std::string selection_text;
  if (o.sampling == "megsim") out["sampling"] = megsim_selection(counted, o.sampling_sets, selection_text);
  if (!json_on_stdout)
    fmt::print("{} frames: {} draws, {} vertex and {} pixel shader invocations, {:.2f} s; {} pipelines compiled{}\n",
               rendered, total.draws, total.vs_invocations, total.ps_invocations, total.seconds, pipelines,
               gpu ? fmt::format("; {} cycles timed in {:.2f} s", total_cycles, timing_seconds) : std::string());
  if (!json_on_stdout) fmt::print("{}", selection_text);
  else if (show) fmt::print(stderr, "{}", selection_text);
  if (!o.json.empty()) write_output(o.json, out.dump(2) + "\n");
  return 0;
}

}  // namespace strobe::cli
