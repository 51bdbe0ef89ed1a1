// Deterministic k-means clustering of matrix rows, with a rule for choosing k.
#include "sampling/numeric/kmeans.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>

#include "sampling/numeric/mix.h"

namespace strobe::sampling {
namespace {

/// splitmix64 (Steele et al.): fixed output on every platform, unlike std:: distributions.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  /// Next 64 random bits.
  uint64_t next() { return splitmix64(state_); }
  /// Uniform double in [0, 1) from the top 53 bits.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  uint64_t state_;
};

/// Squared distance, relative to a centroid's squared norm, under which a row counts as sitting on
/// it (a relative distance of 1e-9, far above the rounding of a mean of millions of rows).
constexpr double kDuplicate = 1e-18;

/// Points and centroids one row after another in memory: Lloyd's loops read a row at a time,
/// and a row of a column-major matrix of thousands of rows touches a cache line per column.
using Rows = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

/// Squared distance between row i of p and row j of c, summed column by column in order (the
/// order Eigen's strided reduction used, so the clusterings are the same to the bit).
double dist2(const Rows& p, Eigen::Index i, const Rows& c, Eigen::Index j) {
  const double* a = p.data() + i * p.cols();
  const double* b = c.data() + j * c.cols();
  double s = 0;
  for (Eigen::Index t = 0; t < p.cols(); ++t) {
    const double d = a[t] - b[t];
    s += d * d;
  }
  return s;
}

/// Squared norm of row j of c, summed in column order like dist2.
double norm2(const Rows& c, Eigen::Index j) {
  const double* b = c.data() + j * c.cols();
  double s = 0;
  for (Eigen::Index t = 0; t < c.cols(); ++t) s += b[t] * b[t];
  return s;
}

/// k-means++: each new centre is drawn with probability proportional to its squared distance to the nearest chosen one.
Rows seed_centroids(const Rows& p, int k, uint64_t seed) {
  const Eigen::Index rows = p.rows();
  SplitMix64 rng(seed);
  Rows c(k, p.cols());
  c.row(0) = p.row(static_cast<Eigen::Index>(rng.next() % static_cast<uint64_t>(rows)));
  Eigen::VectorXd d2(rows);
  for (Eigen::Index i = 0; i < rows; ++i) d2[i] = dist2(p, i, c, 0);
  for (int j = 1; j < k; ++j) {
    const double total = d2.sum();
    Eigen::Index pick = 0;
    if (total > 0) {
      const double target = rng.uniform() * total;
      double acc = 0;
      pick = -1;
      for (Eigen::Index i = 0; i < rows; ++i) {
        if (d2[i] <= 0) continue;
        pick = i;  // rounding can leave target just above the final sum: keep the last candidate
        acc += d2[i];
        if (acc > target) break;
      }
    } else {
      // Every row coincides with a chosen centre; any row is as good as another.
      pick = static_cast<Eigen::Index>(rng.next() % static_cast<uint64_t>(rows));
    }
    c.row(j) = p.row(pick);
    for (Eigen::Index i = 0; i < rows; ++i) d2[i] = std::min(d2[i], dist2(p, i, c, j));
  }
  return c;
}

/// Hamerly's bounds: per row, an upper bound on its distance to its own centroid and a lower
/// bound on its distance to every other. A row whose upper bound is below both its lower bound
/// and half the gap from its centroid to the nearest other cannot have changed cluster, so its
/// distances need not be computed again. Bounds are distances (not squared), moved by each
/// centroid's drift between assignments.
struct Bounds {
  std::vector<double> upper, lower;
  bool valid = false;  ///< false: every row is scanned in full and the bounds set anew
};

/// Relative slack on a bound comparison, far above the rounding of distances and of the bounds'
/// updates: a row nearer than this to a tie is scanned in full, so it is labelled exactly as a
/// full scan labels it.
constexpr double kSlack = 1e-9;

/// Nearest-centroid labels (ties to the lower index), the same as scanning every row against
/// every centroid, skipping the rows the bounds prove keep their label; returns whether any label
/// changed. `drift` is each centroid's move since the last call (ignored when `b` is not valid).
bool assign(const Rows& p, const Rows& c, std::vector<int>& labels, Bounds& b, const std::vector<double>& drift,
            std::vector<double>& half_gap) {
  const Eigen::Index k = c.rows();
  const bool bounded = b.valid && k > 1;
  double max_drift = 0;
  if (bounded) {
    for (double d : drift) max_drift = std::max(max_drift, d);
    for (Eigen::Index j = 0; j < k; ++j) {
      double nearest = std::numeric_limits<double>::infinity();
      for (Eigen::Index o = 0; o < k; ++o)
        if (o != j) nearest = std::min(nearest, dist2(c, j, c, o));
      half_gap[size_t(j)] = 0.5 * std::sqrt(nearest);
    }
  } else {
    b.upper.assign(size_t(p.rows()), 0.0);
    b.lower.assign(size_t(p.rows()), 0.0);
  }
  bool changed = false;
  for (Eigen::Index i = 0; i < p.rows(); ++i) {
    const size_t r = size_t(i);
    if (bounded) {
      const int a = labels[r];
      b.upper[r] += drift[size_t(a)];
      b.lower[r] -= max_drift;
      const double m = std::max(half_gap[size_t(a)], b.lower[r]) * (1 - kSlack);
      if (b.upper[r] * (1 + kSlack) < m) continue;
      b.upper[r] = std::sqrt(dist2(p, i, c, a));
      if (b.upper[r] * (1 + kSlack) < m) continue;
    }
    int best = 0;
    double best_d = dist2(p, i, c, 0), second_d = std::numeric_limits<double>::infinity();
    for (Eigen::Index j = 1; j < k; ++j) {
      const double d = dist2(p, i, c, j);
      if (d < best_d) second_d = best_d, best_d = d, best = static_cast<int>(j);
      else second_d = std::min(second_d, d);
    }
    changed |= labels[r] != best;
    labels[r] = best;
    b.upper[r] = std::sqrt(best_d);
    b.lower[r] = std::sqrt(second_d);
  }
  b.valid = true;
  return changed;
}

/// Centroids as label means; an empty cluster takes over the row farthest from its own centroid.
/// `sums` and `counts` are caller-owned scratch so iterations do not allocate. Returns whether a
/// row was moved so (its bounds no longer hold).
bool update(const Rows& p, Rows& c, std::vector<int>& labels, Rows& sums, std::vector<int>& counts) {
  bool moved = false;
  std::fill(counts.begin(), counts.end(), 0);
  sums.setZero();
  for (Eigen::Index i = 0; i < p.rows(); ++i) {
    sums.row(labels[i]) += p.row(i);
    ++counts[labels[i]];
  }
  // An empty cluster keeps its old centre rather than jumping to the origin and stealing rows.
  for (Eigen::Index j = 0; j < c.rows(); ++j)
    if (counts[j] > 0) c.row(j) = sums.row(j) / counts[j];
  for (Eigen::Index j = 0; j < c.rows(); ++j) {
    if (counts[j] > 0) continue;
    Eigen::Index far = -1;
    double far_d = 0;
    for (Eigen::Index i = 0; i < p.rows(); ++i) {
      if (counts[labels[i]] < 2) continue;  // moving a singleton would just empty another cluster
      const double d = dist2(p, i, c, labels[i]);
      // A row closer than rounding to its centroid is a duplicate of it: the mean of many equal
      // rows can round a few ulps away from them, and stealing one would then pull every copy to
      // the new exact centre on the next assignment and empty the old cluster, forever.
      if (d > far_d && d > kDuplicate * (1 + norm2(c, labels[i]))) far_d = d, far = i;
    }
    // With no row away from its centroid (duplicates), moving one would only be
    // pulled back on the next assignment, so the cluster stays empty.
    if (far < 0) continue;
    const int from = labels[far];
    sums.row(from) -= p.row(far);
    --counts[from];
    c.row(from) = sums.row(from) / counts[from];
    c.row(j) = sums.row(j) = p.row(far);
    counts[j] = 1;
    labels[far] = static_cast<int>(j);
    moved = true;
  }
  return moved;
}

}  // namespace

KMeansResult kmeans(const Eigen::MatrixXd& points, int k, uint64_t seed, int max_iter) {
  KMeansResult r;
  const Eigen::Index rows = points.rows();
  if (rows == 0) return r;
  r.k = static_cast<int>(std::clamp<Eigen::Index>(k, 1, rows));
  const Rows p = points;
  Rows c = seed_centroids(p, r.k, seed);
  r.labels.assign(rows, -1);
  Bounds bounds;
  std::vector<double> drift(size_t(r.k)), half_gap(size_t(r.k));
  assign(p, c, r.labels, bounds, drift, half_gap);
  Rows sums(r.k, points.cols()), before(r.k, points.cols());
  std::vector<int> counts(r.k);
  for (r.iterations = 0; r.iterations < max_iter;) {
    before = c;
    if (update(p, c, r.labels, sums, counts)) bounds.valid = false;
    for (Eigen::Index j = 0; j < r.k; ++j) drift[size_t(j)] = std::sqrt(dist2(before, j, c, j));
    ++r.iterations;
    if (!assign(p, c, r.labels, bounds, drift, half_gap)) break;
  }
  for (Eigen::Index i = 0; i < rows; ++i) r.inertia += dist2(p, i, c, r.labels[i]);
  r.centroids = c;
  return r;
}

KMeansResult kmeans_restarts(const Eigen::MatrixXd& points, int k, uint64_t seed, int restarts) {
  KMeansResult best;
  for (int r = 0; r < std::max(1, restarts); ++r) {
    KMeansResult run = kmeans(points, k, seed + static_cast<uint64_t>(r));
    if (r == 0 || run.inertia < best.inertia) best = std::move(run);
  }
  return best;
}

KMeansResult kmeans_choose_k(const Eigen::MatrixXd& points, int max_k, double explained, uint64_t seed) {
  const double total = (points.rowwise() - points.colwise().mean()).squaredNorm();
  if (points.rows() == 0 || total <= 0) return kmeans(points, 1, seed);
  const int last = static_cast<int>(std::clamp<Eigen::Index>(max_k, 1, points.rows()));
  KMeansResult r;
  for (int k = 1; k <= last; ++k) {
    r = kmeans(points, k, seed);
    if (1 - r.inertia / total >= explained) break;
  }
  return r;
}

}  // namespace strobe::sampling
