#include "experiment/frame_runs.h"

#include <algorithm>
#include <functional>
#include <limits>

#include <fmt/format.h>

#include "common/atomic_file.h"
#include "common/error.h"
#include "gfx/pipeline/renderer.h"
#include "report/frame_run.h"

namespace strobe::experiment {

namespace {

bool asked_for(const std::vector<gfx::FrameRange>& asked, uint64_t frame) {
  return std::any_of(asked.begin(), asked.end(),
                     [&](const gfx::FrameRange& r) { return r.first <= frame && frame <= r.last; });
}

/// The frames of earlier runs' JSON files (`strobe run gfx:... --json`) that `t` asks for, each
/// once, with no gaps between the first and the last of each range, and in `mode`; `use` takes
/// each frame's JSON. `config`, when given, must be each file's. InputError names the file and
/// what is wrong with it.
void read_runs(const std::vector<std::string>& files, const std::string& option, const FrameTarget& t,
               const std::string& mode, const nlohmann::json* config, nlohmann::json& sources,
               const std::function<void(const nlohmann::json&)>& use) {
  const int tile_size = int(t.gpu.gfx_tile_size);
  std::vector<uint64_t> seen;
  for (const std::string& file : files) {
    nlohmann::json in;
    try {
      in = nlohmann::json::parse(read_file(file));
    } catch (const nlohmann::json::exception& e) {
      throw InputError(fmt::format("{} {}: not JSON ({})", option, file, e.what()));
    }
    uint64_t first = 0, last = 0, used = 0;
    // A field of the wrong type (a trace that is a number) is as malformed as a frame is.
    try {
      if (!in.is_object() || !in.contains("frames") || !in["frames"].is_array())
        throw InputError(fmt::format("{} {}: not the JSON of strobe run gfx:... --json", option, file));
      if (in.value("trace", "") != t.trace)
        throw InputError(fmt::format("{} {}: its frames are of {}, not {}", option, file, in.value("trace", ""), t.trace));
      if (in.value("mode", "") != mode)
        throw InputError(fmt::format("{} {}: a --mode {} run; this needs --mode {}", option, file, in.value("mode", ""), mode));
      if (config && in.value("config", nlohmann::json()) != *config) {
        const nlohmann::json patch = nlohmann::json::diff(in.value("config", nlohmann::json()), *config);
        throw InputError(fmt::format("{} {}: timed on another GPU configuration ({} differs)", option, file,
                                     patch.empty() ? std::string("?") : patch[0].value("path", std::string("?"))));
      }
      // Pixel waves are packed tile by tile, so the counts depend on the tile size (a run that
      // does not say rendered with the renderer's default, 16).
      if (in.value("tile_size", gfx::RendererOptions{}.tile_size) != tile_size)
        throw InputError(fmt::format("{} {}: rendered with {}-pixel tiles, this comparison's GPU uses {}", option, file,
                                     in.value("tile_size", gfx::RendererOptions{}.tile_size), tile_size));
      for (const nlohmann::json& f : in["frames"]) {
        const uint64_t frame = f.at("frame").get<uint64_t>();
        if (!asked_for(t.ranges, frame)) continue;
        use(f);
        if (used++ == 0) first = frame;
        last = frame;
        seen.push_back(frame);
      }
    } catch (const nlohmann::json::exception& e) {
      throw InputError(fmt::format("{} {}: malformed ({})", option, file, e.what()));
    }
    sources.push_back({{"file", file}, {"frames", used}, {"first", first}, {"last", last},
                       {"warm_frames", in.value("warm_frames", nlohmann::json())}});
  }
  std::sort(seen.begin(), seen.end());
  for (size_t i = 1; i < seen.size(); ++i)
    if (seen[i] == seen[i - 1]) throw InputError(fmt::format("{}: frame {} is in two files", option, seen[i]));
  // Every frame compared must be there: to the trace's end where a range is open.
  uint64_t frames = std::numeric_limits<uint64_t>::max();
  for (const gfx::FrameRange& r : t.ranges) {
    if (r.last == std::numeric_limits<uint64_t>::max() && frames == std::numeric_limits<uint64_t>::max())
      frames = gfx::count_frames(t.trace);
    const uint64_t last = std::min(r.last, frames - 1);
    for (uint64_t f = r.first; f <= last; ++f)
      if (!std::binary_search(seen.begin(), seen.end(), f))
        throw InputError(fmt::format("{}: frame {} is in none of the files", option, f));
  }
}

}  // namespace

FrameReference reference_from_runs(const std::vector<std::string>& files, const FrameTarget& t,
                                   nlohmann::json& sources) {
  FrameReference r;
  const nlohmann::json config = timing::to_json(t.gpu);
  read_runs(files, "--reference-runs", t, "timing", &config, sources, [&](const nlohmann::json& f) {
    f.at("timing");  // a timing run's frames all have it
    const report::FrameRecord rec = report::frame_record_from_json(f);
    r.by_frame[rec.counts.frame] = rec.timing->statistics;
    r.seconds += rec.counts.seconds + rec.timing->seconds;
    r.cpu_seconds += rec.counts.cpu_seconds + rec.timing->cpu_seconds;
  });
  for (const auto& [frame, m] : r.by_frame) r.order.push_back(frame);
  return r;
}

CountedFrames profile_from_runs(const std::vector<std::string>& files, const FrameTarget& t, nlohmann::json& sources) {
  CountedFrames p;
  read_runs(files, "--profile-runs", t, "functional", nullptr, sources, [&](const nlohmann::json& f) {
    p.frames.push_back(report::frame_record_from_json(f).counts);
    p.seconds += p.frames.back().seconds;
    p.cpu_seconds += p.frames.back().cpu_seconds;
  });
  std::sort(p.frames.begin(), p.frames.end(),
            [](const gfx::FrameStats& a, const gfx::FrameStats& b) { return a.frame < b.frame; });
  return p;
}

}  // namespace strobe::experiment
