// Silhouette and the silhouette rule for k (see silhouette.h).
#include "sampling/numeric/silhouette.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <vector>

namespace strobe::sampling {

double silhouette(const Eigen::MatrixXd& points, const std::vector<int>& labels, int k) {
  const Eigen::Index n = points.rows();
  std::vector<uint64_t> size(size_t(std::max(k, 0)), 0);
  for (const int l : labels) ++size[size_t(l)];
  int nonempty = 0;
  for (const uint64_t s : size) nonempty += s > 0;
  if (nonempty < 2) return std::numeric_limits<double>::quiet_NaN();
  // Per row, the summed distance to each cluster; each pair's distance computed once.
  Eigen::MatrixXd sum = Eigen::MatrixXd::Zero(n, k);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = i + 1; j < n; ++j) {
      const double d = (points.row(i) - points.row(j)).norm();
      sum(i, labels[size_t(j)]) += d;
      sum(j, labels[size_t(i)]) += d;
    }
  double total = 0;
  for (Eigen::Index i = 0; i < n; ++i) {
    const int own = labels[size_t(i)];
    if (size[size_t(own)] < 2) continue;  // s = 0
    const double a = sum(i, own) / double(size[size_t(own)] - 1);
    double b = std::numeric_limits<double>::infinity();
    for (int c = 0; c < k; ++c)
      if (c != own && size[size_t(c)] > 0) b = std::min(b, sum(i, c) / double(size[size_t(c)]));
    const double m = std::max(a, b);
    total += m > 0 ? (b - a) / m : 0;
  }
  return total / double(n);
}

namespace {

/// Every row in cluster 0.
KMeansResult one_cluster(const Eigen::MatrixXd& points) {
  KMeansResult r;
  r.k = points.rows() > 0 ? 1 : 0;
  r.labels.assign(size_t(points.rows()), 0);
  r.centroids = points.rows() > 0 ? Eigen::MatrixXd(points.colwise().mean()) : Eigen::MatrixXd(0, points.cols());
  for (Eigen::Index i = 0; i < points.rows(); ++i) r.inertia += (points.row(i) - r.centroids.row(0)).squaredNorm();
  return r;
}

/// The number of distinct rows (exact comparison).
size_t distinct_rows(const Eigen::MatrixXd& points) {
  std::set<std::vector<double>> seen;
  for (Eigen::Index i = 0; i < points.rows(); ++i) {
    std::vector<double> row(size_t(points.cols()));
    for (Eigen::Index c = 0; c < points.cols(); ++c) row[size_t(c)] = points(i, c);
    seen.insert(std::move(row));
  }
  return seen.size();
}

}  // namespace

SilhouetteChoice choose_k_by_silhouette(const Eigen::MatrixXd& points, int max_k, double fraction, uint64_t seed,
                                        int restarts) {
  SilhouetteChoice c;
  c.clustering = one_cluster(points);
  if (points.rows() < 3) {
    c.fallback = "fewer than 3 units";
    return c;
  }
  const size_t distinct = distinct_rows(points);
  if (distinct < 2) {
    c.fallback = "every unit has the same signature";
    return c;
  }
  const int last = int(std::min<size_t>(size_t(std::max(max_k, 2)), std::min<size_t>(distinct, size_t(points.rows()) - 1)));
  std::vector<KMeansResult> runs;
  for (int k = 2; k <= last; ++k) {
    KMeansResult best = kmeans_restarts(points, k, seed, restarts);
    const double s = silhouette(points, best.labels, best.k);
    c.scores.push_back(std::isnan(s) ? -1.0 : s);
    runs.push_back(std::move(best));
  }
  c.best = c.scores.empty() ? 0 : *std::max_element(c.scores.begin(), c.scores.end());
  if (!(c.best > 0)) {
    c.fallback = "no k from 2 up has a positive silhouette";
    return c;
  }
  for (size_t i = 0; i < c.scores.size(); ++i)
    if (c.scores[i] >= fraction * c.best) {
      c.k = int(i) + 2;
      c.clustering = std::move(runs[i]);
      break;
    }
  return c;
}

}  // namespace strobe::sampling
