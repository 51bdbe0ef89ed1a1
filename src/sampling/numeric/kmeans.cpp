// Deterministic k-means clustering of matrix rows, with a rule for choosing k.
#include "sampling/numeric/kmeans.h"

#include <Eigen/Dense>
#include <algorithm>

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

/// Nearest-centroid labels (ties to the lower index); returns whether any label changed.
bool assign(const Rows& p, const Rows& c, std::vector<int>& labels) {
  bool changed = false;
  for (Eigen::Index i = 0; i < p.rows(); ++i) {
    int best = 0;
    double best_d = dist2(p, i, c, 0);
    for (Eigen::Index j = 1; j < c.rows(); ++j) {
      const double d = dist2(p, i, c, j);
      if (d < best_d) best_d = d, best = static_cast<int>(j);
    }
    changed |= labels[i] != best;
    labels[i] = best;
  }
  return changed;
}

/// Centroids as label means; an empty cluster takes over the row farthest from its own centroid.
/// `sums` and `counts` are caller-owned scratch so iterations do not allocate.
void update(const Rows& p, Rows& c, std::vector<int>& labels, Rows& sums, std::vector<int>& counts) {
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
  }
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
  assign(p, c, r.labels);
  Rows sums(r.k, points.cols());
  std::vector<int> counts(r.k);
  for (r.iterations = 0; r.iterations < max_iter;) {
    update(p, c, r.labels, sums, counts);
    ++r.iterations;
    if (!assign(p, c, r.labels)) break;
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
