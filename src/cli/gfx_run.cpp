#include "cli/gfx_run.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <limits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cli/gfx_megsim.h"
#include "cli/report.h"
#include "common/error.h"
#include "gfx/pipeline/image_compare.h"
#include "gfx/pipeline/renderer.h"
#include "gfx/stream/captured.h"
#include "sampling/megsim/params.h"

namespace strobe::cli {
int run_graphics(const GraphicsRunOptions& o) {
  if (o.mode != "functional")
    throw NotImplementedError(fmt::format("--mode {} for graphics workloads: the graphics timing model is not built "
                                          "yet; use --mode functional",
                                          o.mode));
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
  auto on_frame = [&](const gfx::FrameStats& s, const gfx::Renderer& r) {
    nlohmann::json j = gfx::to_json(s);
    std::string line = fmt::format("frame {}: {} draws, {} vertices, {} primitives, {} fragments, {} pixels written, "
                                   "{:.2f} s",
                                   s.frame, s.draws, s.vertices, s.primitives, s.fragments, s.pixels_written, s.seconds);
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
  size_t pipelines = 0;
  gfx::render_trace(trace, frames_asked, ro,
                    [&](const gfx::FrameStats& s, const gfx::Renderer& r) {
                      on_frame(s, r);
                      pipelines = r.pipelines_compiled();
                    },
                    warm);
  nlohmann::json out{{"workload", o.workload}, {"trace", trace}, {"mode", o.mode}, {"frames", std::move(frames)},
                     {"total", gfx::to_json(total)}, {"pipelines_compiled", pipelines}, {"warm_frames", o.warm_frames}};
  out["total"].erase("frame");
  std::string selection_text;
  if (o.sampling == "megsim") out["sampling"] = megsim_selection(counted, o.sampling_sets, selection_text);
  if (!json_on_stdout)
    fmt::print("{} frames: {} draws, {} vertex and {} pixel shader invocations, {:.2f} s; {} pipelines compiled\n",
               rendered, total.draws, total.vs_invocations, total.ps_invocations, total.seconds, pipelines);
  if (!json_on_stdout) fmt::print("{}", selection_text);
  else if (show) fmt::print(stderr, "{}", selection_text);
  if (!o.json.empty()) write_output(o.json, out.dump(2) + "\n");
  return 0;
}

}  // namespace strobe::cli
