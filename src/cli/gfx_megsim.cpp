#include "cli/gfx_megsim.h"

#include <algorithm>
#include <limits>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "cli/report.h"
#include "common/atomic_file.h"
#include "common/error.h"
#include "gfx/stream/captured.h"
#include "gfx/stream/frame_stream.h"
#include "experiment/frames.h"
#include "sampling/megsim/selection.h"

namespace strobe::cli {

namespace mg = sampling::megsim;

nlohmann::json megsim_selection(const std::vector<gfx::FrameStats>& frames, const std::vector<std::string>& sets,
                                std::string& text) {
  std::vector<sampling::FrameCounts> counts;
  for (const gfx::FrameStats& s : frames) counts.push_back(experiment::frame_counts(s));
  mg::Selection sel = mg::select(counts, mg::params_from(sets));
  text = sel.text;
  nlohmann::json j = std::move(sel.description);
  j["estimate"] = nullptr;
  j["interval"] = sampling::no_interval("one representative frame per cluster scaled by the cluster's size: one frame "
                                        "per stratum gives no variance");
  j["estimate_note"] = "the selection only; strobe compare gfx:... --sampling megsim times the representatives";
  return j;
}

int megsim_from_profile(const GraphicsRunOptions& o) {
  if (o.sampling != "megsim") throw InputError("--profile for a graphics workload: only with --sampling megsim");
  if (!o.images.empty() || !o.reference.empty() || o.warm_frames != "0")
    throw InputError("--profile for a graphics workload: nothing is rendered, so --images, --reference and "
                     "--warm-frames do not apply");
  nlohmann::json in;
  try {
    in = nlohmann::json::parse(read_file(o.profile));
  } catch (const nlohmann::json::exception& e) {
    throw InputError(fmt::format("--profile {}: not JSON ({})", o.profile, e.what()));
  }
  if (!in.is_object() || !in.contains("frames") || !in["frames"].is_array() || !in.contains("workload"))
    throw InputError(fmt::format("--profile {}: not the JSON of strobe run gfx:... --json", o.profile));
  // The same workload by name, or by the trace it resolves to (gfx:NAME against gfx:PATH). The
  // trace itself is not needed: nothing is rendered, and it may not be on this machine.
  const std::string workload = in.value("workload", "");
  auto same_trace = [&] {
    try {
      return in.value("trace", "") == gfx::resolve_trace(o.workload);
    } catch (const InputError&) {
      return false;
    }
  };
  if (workload != o.workload && !same_trace())
    throw InputError(fmt::format("--profile {}: its frames are of {}, not {}", o.profile, workload, o.workload));
  const std::vector<gfx::FrameRange> asked =
      o.frames.empty() ? std::vector<gfx::FrameRange>{{0, std::numeric_limits<uint64_t>::max()}}
                       : gfx::parse_frame_ranges(o.frames, "--frames");
  std::vector<gfx::FrameStats> counted;
  nlohmann::json frames = nlohmann::json::array();
  try {
    for (const nlohmann::json& f : in["frames"]) {
      gfx::FrameStats s = gfx::frame_stats_from_json(f);
      const bool wanted = std::any_of(asked.begin(), asked.end(),
                                      [&](const gfx::FrameRange& r) { return r.first <= s.frame && s.frame <= r.last; });
      if (!wanted) continue;
      counted.push_back(std::move(s));
      frames.push_back(f);
    }
  } catch (const nlohmann::json::exception& e) {
    throw InputError(fmt::format("--profile {}: a frame's counts are malformed ({})", o.profile, e.what()));
  }
  if (counted.empty())
    throw InputError(fmt::format("--profile {}: none of its {} frames is among --frames {}", o.profile,
                                 in["frames"].size(), o.frames));
  std::string text;
  nlohmann::json out{{"workload", o.workload}, {"trace", in.value("trace", "")}, {"mode", o.mode},
                     {"profile", o.profile}, {"frames", std::move(frames)}};
  out["sampling"] = megsim_selection(counted, o.sampling_sets, text);
  if (o.json != "-") fmt::print("{} frames' counts from {} (not rendered)\n{}", counted.size(), o.profile, text);
  if (!o.json.empty()) write_output(o.json, out.dump(2) + "\n");
  return 0;
}

}  // namespace strobe::cli
