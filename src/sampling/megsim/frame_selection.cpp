#include "sampling/megsim/frame_selection.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "sampling/numeric/mix.h"

namespace strobe::sampling::megsim {

FrameSelection select_frames(const Eigen::MatrixXd& x, const SelectionOptions& o) {
  FrameSelection s;
  if (x.rows() == 0) return s;
  s.choice = choose_k_by_bic(x, o.max_k, o.bic_fraction, o.seed, o.restarts);
  const KMeansResult& c = s.choice.clustering;
  std::vector<FrameCluster> by_label(size_t(c.k));
  std::vector<double> best(size_t(c.k), std::numeric_limits<double>::infinity());
  std::vector<double> dist(size_t(x.rows()));
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    const size_t l = size_t(c.labels[size_t(i)]);
    by_label[l].members.push_back(size_t(i));
    dist[size_t(i)] = (x.row(i) - c.centroids.row(Eigen::Index(l))).squaredNorm();
    best[l] = std::min(best[l], dist[size_t(i)]);
  }
  // Of the frames nearest the centroid, the middle one in frame order: frames alike in every
  // feature (a static scene) tie, and the earliest of them is the scene's first frame, which
  // starts from caches the scene before it left.
  for (size_t l = 0; l < by_label.size(); ++l) {
    std::vector<size_t> nearest;
    for (size_t i : by_label[l].members)
      if (dist[i] <= best[l]) nearest.push_back(i);
    if (!nearest.empty()) by_label[l].representative = nearest[(nearest.size() - 1) / 2];
  }
  for (auto& fc : by_label)
    if (!fc.members.empty()) s.clusters.push_back(std::move(fc));
  std::sort(s.clusters.begin(), s.clusters.end(),
            [](const FrameCluster& a, const FrameCluster& b) { return a.members.front() < b.members.front(); });
  return s;
}

double extrapolate(const FrameSelection& s, std::span<const double> rep_value) {
  if (rep_value.size() != s.clusters.size())
    throw std::invalid_argument("megsim: one value per cluster's representative is needed");
  double total = 0;
  for (size_t c = 0; c < s.clusters.size(); ++c) total += rep_value[c] * double(s.clusters[c].members.size());
  return total;
}

std::vector<size_t> random_frames(size_t frames, size_t k, uint64_t seed) {
  k = std::min(k, frames);
  // A partial Fisher-Yates shuffle on splitmix64, the same on every platform.
  std::vector<size_t> order(frames);
  std::iota(order.begin(), order.end(), size_t{0});
  uint64_t state = seed;
  for (size_t i = 0; i < k; ++i) {
    const size_t j = i + size_t(splitmix64(state) % uint64_t(frames - i));
    std::swap(order[i], order[j]);
  }
  order.resize(k);
  std::sort(order.begin(), order.end());
  return order;
}

Eigen::MatrixXd similarity_matrix(const Eigen::MatrixXd& x, size_t max_side, size_t& step) {
  const size_t n = size_t(x.rows());
  max_side = std::max<size_t>(max_side, 1);
  step = std::max<size_t>(1, (n + max_side - 1) / max_side);
  const size_t side = (n + step - 1) / step;
  // Rows copied out once: distances then read contiguous memory (x is column-major).
  std::vector<Eigen::RowVectorXd> rows;
  rows.reserve(side);
  for (size_t i = 0; i < side; ++i) rows.push_back(x.row(Eigen::Index(i * step)));
  Eigen::MatrixXd d = Eigen::MatrixXd::Zero(Eigen::Index(side), Eigen::Index(side));
  for (size_t i = 0; i < side; ++i)
    for (size_t j = i + 1; j < side; ++j)
      d(Eigen::Index(i), Eigen::Index(j)) = d(Eigen::Index(j), Eigen::Index(i)) = (rows[i] - rows[j]).norm();
  return d;
}

}  // namespace strobe::sampling::megsim
