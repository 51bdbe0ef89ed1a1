#include "sampling/numeric/bic.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <set>
#include <stdexcept>

namespace strobe::sampling {

double xmeans_bic(const Eigen::MatrixXd& points, const KMeansResult& c) {
  const double R = double(points.rows()), d = double(points.cols());
  std::vector<double> size(size_t(std::max(c.k, 0)), 0.0);
  for (const int l : c.labels) size[size_t(l)] += 1;
  double K = 0, sum_rn_ln_rn = 0;
  for (const double n : size) {
    if (n <= 0) continue;  // an empty cluster is no cluster
    K += 1;
    sum_rn_ln_rn += n * std::log(n);
  }
  if (!(R > K)) throw std::invalid_argument("xmeans_bic: needs more rows than clusters");
  const double sigma2 = std::max(c.inertia / (d * (R - K)), 1e-300);
  const double log_likelihood = sum_rn_ln_rn - R * std::log(R) -
                                R * d / 2 * std::log(2 * std::numbers::pi * sigma2) - d / 2 * (R - K);
  const double params = K * (d + 1);
  return log_likelihood - params / 2 * std::log(R);
}

BicChoice choose_k_by_bic(const Eigen::MatrixXd& points, int max_k, double fraction, uint64_t seed, int restarts) {
  BicChoice c;
  c.clustering = kmeans_restarts(points, 1, seed, restarts);
  std::set<std::vector<double>> distinct;
  for (Eigen::Index i = 0; i < points.rows(); ++i) {
    std::vector<double> row(size_t(points.cols()));
    for (Eigen::Index j = 0; j < points.cols(); ++j) row[size_t(j)] = points(i, j);
    distinct.insert(std::move(row));
  }
  if (distinct.size() < 2) {
    c.k = c.clustering.k;
    return c;
  }
  // k stops below the row count (the BIC needs R > K) and at the distinct rows (more clusters
  // than distinct rows would leave some empty).
  const int last = int(std::min<Eigen::Index>(
      {Eigen::Index(std::max(max_k, 1)), points.rows() - 1, Eigen::Index(distinct.size())}));
  std::vector<KMeansResult> runs;
  runs.push_back(c.clustering);
  c.bic.push_back(xmeans_bic(points, runs[0]));
  for (int k = 2; k <= last; ++k) {
    runs.push_back(kmeans_restarts(points, k, seed, restarts));
    c.bic.push_back(xmeans_bic(points, runs.back()));
    if (c.bic.back() < c.bic[c.bic.size() - 2]) {
      c.stopped_at_decrease = true;
      break;
    }
  }
  const auto [lo, hi] = std::minmax_element(c.bic.begin(), c.bic.end());
  c.threshold = *lo + fraction * (*hi - *lo);
  for (size_t i = 0; i < c.bic.size(); ++i)
    if (c.bic[i] >= c.threshold) {
      c.k = int(i) + 1;
      c.clustering = std::move(runs[i]);
      break;
    }
  return c;
}

}  // namespace strobe::sampling
