// GPUMech's representative wave.
#include "sampling/gpumech/representative.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "sampling/numeric/kmeans.h"

namespace strobe::sampling::gpumech {

namespace {

/// Eq. 15 for the waves at `rows`, which all hold at least one instruction, so both means
/// are positive.
Eigen::MatrixXd features_of(std::span<const WaveSummary> waves, std::span<const size_t> rows) {
  const auto n = static_cast<Eigen::Index>(rows.size());
  Eigen::MatrixXd f(n, 2);
  for (Eigen::Index i = 0; i < n; ++i) {
    const WaveSummary& w = waves[rows[static_cast<size_t>(i)]];
    f(i, 0) = w.perf;
    f(i, 1) = static_cast<double>(w.insts);
  }
  if (n > 0) {
    const Eigen::RowVector2d mean = f.colwise().mean();
    f.col(0) /= mean[0];
    f.col(1) /= mean[1];
  }
  return f;
}

/// summarize() of every profile, in order.
std::vector<WaveSummary> summaries(std::span<const IntervalProfile> profiles, double issue_rate) {
  std::vector<WaveSummary> s;
  s.reserve(profiles.size());
  for (const IntervalProfile& p : profiles) s.push_back(summarize(p, issue_rate));
  return s;
}

}  // namespace

WaveSummary summarize(const IntervalProfile& profile, double issue_rate) {
  return {total_insts(profile.intervals), wave_perf(profile.intervals, issue_rate)};
}

Eigen::MatrixXd wave_features(std::span<const IntervalProfile> profiles, double issue_rate) {
  std::vector<size_t> all(profiles.size());
  for (size_t w = 0; w < all.size(); ++w) all[w] = w;
  return features_of(summaries(profiles, issue_rate), all);
}

Representative choose_representative(std::span<const IntervalProfile> profiles, const ModelParams& params) {
  return choose_representative(summaries(profiles, params.issue_rate), params);
}

Representative choose_representative(std::span<const WaveSummary> waves, const ModelParams& params) {
  Representative r;
  for (size_t w = 0; w < waves.size(); ++w) {
    if (waves[w].insts > 0) r.considered.push_back(w);
  }
  if (r.considered.empty()) throw std::invalid_argument("gpumech: no wave has an instruction to model");
  r.features = features_of(waves, r.considered);
  const Eigen::Index n = r.features.rows();

  if (params.representative != RepresentativeChoice::Clustering) {
    const bool want_max = params.representative == RepresentativeChoice::MaxPerf;
    Eigen::Index best = 0;
    for (Eigen::Index i = 1; i < n; ++i) {
      const double v = r.features(i, 0), b = r.features(best, 0);
      if (want_max ? v > b : v < b) best = i;
    }
    r.wave = r.considered[static_cast<size_t>(best)];
    return r;
  }

  KMeansResult best = kmeans_restarts(r.features, 2, params.kmeans_seed, params.kmeans_restarts);
  std::vector<int> size(static_cast<size_t>(best.k), 0);
  for (const int label : best.labels) ++size[static_cast<size_t>(label)];
  int majority = 0;
  for (int c = 1; c < best.k; ++c) {
    if (size[static_cast<size_t>(c)] > size[static_cast<size_t>(majority)]) majority = c;
  }
  Eigen::Index nearest = -1;
  double nearest_d = std::numeric_limits<double>::infinity();
  for (Eigen::Index i = 0; i < n; ++i) {
    if (best.labels[static_cast<size_t>(i)] != majority) continue;
    const double d = (r.features.row(i) - best.centroids.row(majority)).squaredNorm();
    if (d < nearest_d) nearest_d = d, nearest = i;
  }
  r.wave = r.considered[static_cast<size_t>(nearest)];
  r.cluster = std::move(best.labels);
  r.majority = majority;
  return r;
}

}  // namespace strobe::sampling::gpumech
