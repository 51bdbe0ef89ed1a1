// Complete-linkage agglomerative clustering cut at a distance threshold.
#include "sampling/numeric/hierarchical.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <numeric>
#include <set>
#include <unordered_map>
#include <utility>

namespace strobe::sampling {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// The upper triangle of a symmetric n x n matrix without its diagonal, row by row.
class Condensed {
 public:
  explicit Condensed(size_t n) : n_(n), d_(n < 2 ? 0 : n * (n - 1) / 2) {}
  /// Entry (i, j), i != j, in either order.
  double& at(size_t i, size_t j) {
    if (i > j) std::swap(i, j);
    return d_[i * n_ - i * (i + 1) / 2 + (j - i - 1)];
  }

 private:
  size_t n_;
  std::vector<double> d_;
};

/// Union-find root with path halving.
size_t find_root(std::vector<size_t>& parent, size_t i) {
  while (parent[i] != i) i = parent[i] = parent[parent[i]];
  return i;
}

}  // namespace

double row_distance(const Eigen::MatrixXd& points, Eigen::Index i, Eigen::Index j) {
  double s = 0;
  for (Eigen::Index c = 0; c < points.cols(); ++c) {
    const double d = points(i, c) - points(j, c);
    s += d * d;
  }
  return std::sqrt(s);
}

ClusterLabels canonical_labels(std::span<const int> ids) {
  ClusterLabels r;
  r.labels.reserve(ids.size());
  std::unordered_map<int, int> label_of;
  for (const int id : ids) {
    const auto [it, fresh] = label_of.try_emplace(id, r.k);
    if (fresh) ++r.k;
    r.labels.push_back(it->second);
  }
  return r;
}

ClusterLabels complete_linkage(const Eigen::MatrixXd& points, double threshold) {
  const size_t n = static_cast<size_t>(points.rows());
  Condensed d(n);
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + 1; j < n; ++j) d.at(i, j) = row_distance(points, Eigen::Index(i), Eigen::Index(j));

  // A cluster lives at the row of its lowest member. nn[i] caches i's nearest active cluster
  // (lowest index among ties) so each step scans n cached minima, not n^2 distances. Merging
  // only raises complete-linkage distances, so a row's cache stays valid unless it pointed at
  // one of the two merged clusters.
  std::vector<char> active(n, 1);
  std::vector<size_t> parent(n), nn(n, 0);
  std::vector<double> nnd(n, kInf);
  std::iota(parent.begin(), parent.end(), size_t{0});
  auto refresh = [&](size_t i) {
    nnd[i] = kInf;
    for (size_t j = 0; j < n; ++j) {
      if (j == i || !active[j]) continue;
      const double v = d.at(i, j);
      if (v < nnd[i]) nnd[i] = v, nn[i] = j;  // strict: the first (lowest) j wins ties
    }
  };
  for (size_t i = 0; i < n; ++i) refresh(i);

  for (size_t clusters = n; clusters > 1; --clusters) {
    // The closest pair; ties go to the lowest (lower, higher) pair of cluster names.
    size_t a = n, b = n;
    double best = kInf;
    for (size_t i = 0; i < n; ++i) {
      if (!active[i] || nnd[i] == kInf) continue;
      const size_t lo = std::min(i, nn[i]), hi = std::max(i, nn[i]);
      if (nnd[i] < best || (nnd[i] == best && std::pair(lo, hi) < std::pair(a, b))) best = nnd[i], a = lo, b = hi;
    }
    if (a == n || !(best <= threshold)) break;  // also stops on a NaN threshold
    for (size_t k = 0; k < n; ++k)
      if (active[k] && k != a && k != b) d.at(a, k) = std::max(d.at(a, k), d.at(b, k));
    active[b] = 0;
    parent[b] = a;
    refresh(a);
    for (size_t k = 0; k < n; ++k)
      if (active[k] && k != a && (nn[k] == a || nn[k] == b)) refresh(k);
  }

  std::vector<int> root(n);
  for (size_t i = 0; i < n; ++i) root[i] = static_cast<int>(find_root(parent, i));
  return canonical_labels(root);
}

ClusterLabels complete_linkage_1d(std::span<const double> values, double threshold) {
  const size_t n = values.size();
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return values[x] < values[y]; });
  auto v = [&](size_t pos) { return values[order[pos]]; };

  // Intervals of sorted positions, linked in sorted order and named by their first position.
  // end[s] is the last position of the interval starting at s; next/prev link interval starts.
  std::vector<size_t> end(n), next(n), prev(n);
  for (size_t s = 0; s < n; ++s) end[s] = s, next[s] = s + 1, prev[s] = s == 0 ? n : s - 1;
  // (diameter of the union of interval s and its successor, s): the merge candidates.
  std::set<std::pair<double, size_t>> pairs;
  auto key = [&](size_t s) { return std::pair(v(end[next[s]]) - v(s), s); };
  for (size_t s = 0; s + 1 < n; ++s) pairs.insert(key(s));

  while (!pairs.empty() && pairs.begin()->first <= threshold) {
    const size_t s = pairs.begin()->second, t = next[s];
    pairs.erase(pairs.begin());
    if (prev[s] != n) pairs.erase(key(prev[s]));
    if (next[t] < n) pairs.erase(key(t));
    end[s] = end[t];
    next[s] = next[t];
    if (next[s] < n) prev[next[s]] = s;
    if (prev[s] != n) pairs.insert(key(prev[s]));
    if (next[s] < n) pairs.insert(key(s));
  }

  std::vector<int> id(n);
  for (size_t s = 0; s < n; s = next[s])
    for (size_t p = s; p <= end[s]; ++p) id[order[p]] = static_cast<int>(s);
  return canonical_labels(id);
}

}  // namespace strobe::sampling
