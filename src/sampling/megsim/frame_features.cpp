#include "sampling/megsim/frame_features.h"

#include <cmath>
#include <set>
#include <stdexcept>

namespace strobe::sampling::megsim {

namespace {

/// Scales columns [first, first + count) of `x` as `norm` says, then by `weight`.
void normalise_group(Eigen::MatrixXd& x, Eigen::Index first, Eigen::Index count, Normalisation norm, double weight) {
  if (count == 0) return;
  auto block = x.middleCols(first, count);
  if (norm == Normalisation::GroupTotal) {
    const double total = block.sum();
    if (total > 0) block *= weight / total;
    return;
  }
  for (Eigen::Index c = 0; c < count; ++c) {
    const double total = block.col(c).sum();
    if (total > 0) block.col(c) *= weight / double(count) / total;
  }
}

}  // namespace

StageWeights weights_from_activity(const StageActivity& a) {
  for (double v : {a.geometry, a.raster, a.tiling})
    if (!std::isfinite(v) || v < 0) throw std::invalid_argument("stage activity must be finite and non-negative");
  const double total = a.geometry + a.raster + a.tiling;
  if (total <= 0) throw std::invalid_argument("stage activity: every stage is idle");
  return {a.geometry / total, a.raster / total, a.tiling / total};
}

FeatureMatrix frame_features(const std::vector<FrameWork>& frames, Normalisation norm, const StageWeights& w) {
  for (const double v : {w.geometry, w.raster, w.tiling})
    if (!(v >= 0) || !std::isfinite(v)) throw std::invalid_argument("megsim: stage weights must be finite and >= 0");
  std::set<std::string> vs, ps;
  for (const FrameWork& f : frames) {
    for (const auto& [name, v] : f.vertex) vs.insert(name);
    for (const auto& [name, v] : f.pixel) ps.insert(name);
  }
  FeatureMatrix m;
  m.vertex_columns = int(vs.size());
  m.pixel_columns = int(ps.size());
  for (const auto& n : vs) m.columns.push_back("vs:" + n);
  for (const auto& n : ps) m.columns.push_back("ps:" + n);
  m.columns.push_back("prim");
  m.x = Eigen::MatrixXd::Zero(Eigen::Index(frames.size()), Eigen::Index(m.columns.size()));
  for (size_t r = 0; r < frames.size(); ++r) {
    const FrameWork& f = frames[r];
    Eigen::Index c = 0;
    for (const auto& n : vs) {
      const auto it = f.vertex.find(n);
      m.x(Eigen::Index(r), c++) = it == f.vertex.end() ? 0.0 : it->second;
    }
    for (const auto& n : ps) {
      const auto it = f.pixel.find(n);
      m.x(Eigen::Index(r), c++) = it == f.pixel.end() ? 0.0 : it->second;
    }
    m.x(Eigen::Index(r), c) = f.primitives;
  }
  normalise_group(m.x, 0, m.vertex_columns, norm, w.geometry);
  normalise_group(m.x, m.vertex_columns, m.pixel_columns, norm, w.raster);
  normalise_group(m.x, m.vertex_columns + m.pixel_columns, 1, norm, w.tiling);
  return m;
}

}  // namespace strobe::sampling::megsim
