#include "sampling/megsim/selection.h"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/error.h"

namespace strobe::sampling::megsim {

Selection select(const std::vector<FrameCounts>& frames, const Params& p) {
  const auto t0 = std::chrono::steady_clock::now();
  if (frames.size() < 2)
    throw InputError(fmt::format("--sampling megsim: {} frame rendered; clustering needs at least 2", frames.size()));
  const StageWeights weights{p.geometry_weight, p.raster_weight, p.tiling_weight};
  const FeatureMatrix m = frame_features(frames, p.normalisation, weights);
  Selection s;
  s.clusters = select_frames(m.x, {p.bic_fraction, p.max_k, p.seed, p.restarts});

  nlohmann::json clusters = nlohmann::json::array();
  for (const FrameCluster& c : s.clusters.clusters) {
    nlohmann::json members = nlohmann::json::array();
    for (const size_t f : c.members) members.push_back(frames[f].frame);
    s.representatives.push_back(frames[c.representative].frame);
    clusters.push_back({{"representative", frames[c.representative].frame},
                        {"size", c.members.size()},
                        {"frames", std::move(members)}});
  }
  size_t step = 1;
  const Eigen::MatrixXd sim = similarity_matrix(m.x, size_t(p.similarity_side), step);
  nlohmann::json rows = nlohmann::json::array();
  for (Eigen::Index i = 0; i < sim.rows(); ++i) {
    nlohmann::json row = nlohmann::json::array();
    for (Eigen::Index j = 0; j < sim.cols(); ++j) row.push_back(sim(i, j));
    rows.push_back(std::move(row));
  }
  std::vector<uint64_t> sorted = s.representatives;  // ascending, as --frames takes them
  std::sort(sorted.begin(), sorted.end());
  const size_t k = s.clusters.clusters.size();
  const double reduction = double(frames.size()) / double(k);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  s.text = fmt::format("megsim: {} frames in {} clusters (BIC over k = 1..{}{}, {:.1f} s), {:.1f}x fewer frames; "
                       "representatives {}\n"
                       "megsim: render them alone with --frames {}\n",
                       frames.size(), k, s.clusters.choice.bic.size(),
                       s.clusters.choice.stopped_at_decrease ? ", stopped at its first decrease" : "", seconds,
                       reduction, fmt::join(s.representatives, ", "), fmt::join(sorted, ","));
  s.description = {
      {"method", "megsim"},
      {"parameters", {{"bic_fraction", p.bic_fraction}, {"max_k", p.max_k}, {"seed", p.seed},
                      {"restarts", p.restarts}, {"normalisation", choice_name(p.normalisation)},
                      {"weights", {{"geometry", weights.geometry}, {"raster", weights.raster}, {"tiling", weights.tiling}}}}},
      {"features", {{"columns", m.columns}, {"vertex_columns", m.vertex_columns}, {"pixel_columns", m.pixel_columns}}},
      {"bic", s.clusters.choice.bic},
      {"bic_threshold", s.clusters.choice.threshold},
      {"stopped_at_decrease", s.clusters.choice.stopped_at_decrease},
      {"k", k},
      {"frames", frames.size()},
      {"frame_reduction", reduction},
      {"representative_frames", sorted},
      {"selection_seconds", seconds},
      {"clusters", std::move(clusters)},
      {"similarity", {{"step", step}, {"distances", std::move(rows)}}}};
  return s;
}

FrameMeasure extrapolate(const Selection& s, const std::map<uint64_t, TimedFrame>& timed) {
  FrameMeasure total{};
  for (const auto& [frame, weight] : weights(s))
    for (size_t i = 0; i < total.size(); ++i) total[i] += weight * timed.at(frame).measure[i];
  return total;
}

std::map<uint64_t, double> weights(const Selection& s) {
  std::map<uint64_t, double> w;
  for (size_t c = 0; c < s.clusters.clusters.size(); ++c)
    w[s.representatives[c]] += double(s.clusters.clusters[c].members.size());
  return w;
}

double shader_work(const FrameCounts& f) {
  double total = 0;
  for (const auto& [name, v] : f.vertex) total += v;
  for (const auto& [name, v] : f.pixel) total += v;
  return total;
}

}  // namespace strobe::sampling::megsim
