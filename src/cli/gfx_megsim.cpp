#include "cli/gfx_megsim.h"

#include <algorithm>
#include <chrono>
#include <limits>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "cli/report.h"
#include "common/atomic_file.h"
#include "common/error.h"
#include "gfx/stream/captured.h"
#include "gfx/stream/frame_stream.h"
#include "sampling/megsim/frame_selection.h"
#include "sampling/megsim/params.h"

namespace strobe::cli {

namespace mg = sampling::megsim;

mg::FrameWork megsim_frame_work(const gfx::FrameStats& s) {
  mg::FrameWork f;
  for (const auto& [name, c] : s.vertex_shaders) f.vertex[name] = c.texture_weighted_instructions();
  for (const auto& [name, c] : s.pixel_shaders) f.pixel[name] = c.texture_weighted_instructions();
  f.primitives = double(s.primitives - s.frustum_culled - s.face_culled);
  return f;
}

nlohmann::json megsim_selection(const std::vector<gfx::FrameStats>& frames, const std::vector<std::string>& sets,
                                std::string& text, mg::FrameSelection* chosen) {
  const auto t0 = std::chrono::steady_clock::now();
  const mg::Params p = mg::params_from(sets);
  if (frames.size() < 2)
    throw InputError(fmt::format("--sampling megsim: {} frame rendered; clustering needs at least 2", frames.size()));
  std::vector<mg::FrameWork> work;
  for (const auto& s : frames) work.push_back(megsim_frame_work(s));
  const mg::StageWeights weights{p.geometry_weight, p.raster_weight, p.tiling_weight};
  const mg::FeatureMatrix m = mg::frame_features(work, p.normalisation, weights);
  const mg::FrameSelection sel = mg::select_frames(m.x, {p.bic_fraction, p.max_k, p.seed, p.restarts});

  nlohmann::json clusters = nlohmann::json::array();
  std::vector<uint64_t> reps;
  for (const mg::FrameCluster& c : sel.clusters) {
    nlohmann::json members = nlohmann::json::array();
    for (const size_t f : c.members) members.push_back(frames[f].frame);
    reps.push_back(frames[c.representative].frame);
    clusters.push_back({{"representative", frames[c.representative].frame},
                        {"size", c.members.size()},
                        {"frames", std::move(members)}});
  }
  size_t step = 1;
  const Eigen::MatrixXd sim = mg::similarity_matrix(m.x, size_t(p.similarity_side), step);
  nlohmann::json rows = nlohmann::json::array();
  for (Eigen::Index i = 0; i < sim.rows(); ++i) {
    nlohmann::json row = nlohmann::json::array();
    for (Eigen::Index j = 0; j < sim.cols(); ++j) row.push_back(sim(i, j));
    rows.push_back(std::move(row));
  }
  std::vector<uint64_t> sorted = reps;  // ascending, as --frames takes them
  std::sort(sorted.begin(), sorted.end());
  const double reduction = double(frames.size()) / double(sel.clusters.size());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  text = fmt::format("megsim: {} frames in {} clusters (BIC over k = 1..{}{}, {:.1f} s), {:.1f}x fewer frames; "
                     "representatives {}\n"
                     "megsim: render them alone with --frames {}\n",
                     frames.size(), sel.clusters.size(), sel.choice.bic.size(),
                     sel.choice.stopped_at_decrease ? ", stopped at its first decrease" : "", seconds, reduction,
                     fmt::join(reps, ", "), fmt::join(sorted, ","));
  if (chosen) *chosen = sel;
  return {{"method", "megsim"},
          {"parameters", {{"bic_fraction", p.bic_fraction}, {"max_k", p.max_k}, {"seed", p.seed},
                          {"restarts", p.restarts}, {"normalisation", sampling::choice_name(p.normalisation)},
                          {"weights", {{"geometry", weights.geometry}, {"raster", weights.raster}, {"tiling", weights.tiling}}}}},
          {"features", {{"columns", m.columns}, {"vertex_columns", m.vertex_columns}, {"pixel_columns", m.pixel_columns}}},
          {"bic", sel.choice.bic},
          {"bic_threshold", sel.choice.threshold},
          {"stopped_at_decrease", sel.choice.stopped_at_decrease},
          {"k", sel.clusters.size()},
          {"frames", frames.size()},
          {"frame_reduction", reduction},
          {"representative_frames", sorted},
          {"selection_seconds", seconds},
          {"clusters", std::move(clusters)},
          {"similarity", {{"step", step}, {"distances", std::move(rows)}}},
          {"estimate", nullptr},
          {"interval", sampling::no_interval("one representative frame per cluster scaled by the cluster's size: one "
                                             "frame per stratum gives no variance")},
          {"estimate_note", "the selection only; strobe compare gfx:... --sampling megsim times the representatives"}};
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
