// kmeans: Lloyd's k-means; the device assigns points, the host recomputes centroids (Rodinia).
#include <cmath>
#include <limits>
#include <vector>

#include <fmt/core.h>

#include "workloads/benchmark.h"
#include "workloads/context.h"
#include "workloads/rng.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

/// kmeans's parameters, bound to their declarations in STROBE_BENCHMARK below.
struct KMeansParams {
  int64_t points = 0, clusters = 0, features = 0, iterations = 0;
};

/// k-means with one assignment launch per iteration. Verification checks every iteration's
/// assignment against the centroids that iteration used, allowing near-ties to go either way.
class KMeans : public Benchmark {
 public:
  explicit KMeans(const KMeansParams& p)
      : n_(uint32_t(p.points)), k_(uint32_t(p.clusters)), f_(uint32_t(p.features)),
        iters_(uint32_t(p.iterations)) {
    if (k_ > n_) throw InputError(fmt::format("kmeans: clusters={} exceeds points={}", k_, n_));
  }

  void setup(Context& ctx) override {
    // Points scattered around k_ hidden centres, stored feature-major.
    Rng rng(21);
    std::vector<float> centre(size_t(k_) * f_);
    for (auto& c : centre) c = rng.uniform(-10, 10);
    feat_.resize(size_t(n_) * f_);
    for (uint32_t p = 0; p < n_; ++p) {
      uint32_t c = rng.below(k_);
      for (uint32_t f = 0; f < f_; ++f) feat_[size_t(f) * n_ + p] = centre[size_t(c) * f_ + f] + rng.uniform(-3, 3);
    }
    cent_.resize(size_t(k_) * f_);
    for (uint32_t c = 0; c < k_; ++c)  // initial centroids: the first k points, as Rodinia does
      for (uint32_t f = 0; f < f_; ++f) cent_[size_t(c) * f_ + f] = feat_[size_t(f) * n_ + c];
    dfeat_ = ctx.upload(feat_), dcent_ = ctx.upload(cent_), dmem_ = ctx.alloc<int32_t>(n_);
    kernel_ = ctx.kernel("kmeans", "kmeans_assign");
    ctx.expect_launches(iters_);
  }

  void run(Context& ctx) override {
    history_.clear();
    for (uint32_t it = 0; it < iters_; ++it) {
      ctx.write(dcent_, cent_);
      ctx.launch(kernel_, {round_up(n_, 256), 1, 1}, {256, 1, 1},
                 {buf(dfeat_), buf(dcent_), buf(dmem_), val(n_), val(k_), val(f_)});
      std::vector<int32_t> mem = ctx.read<int32_t>(dmem_, n_);
      history_.push_back({cent_, mem});
      update_centroids(mem);
    }
  }

  void verify(Context& ctx) override {
    auto last = ctx.download<int32_t>(dmem_, n_);  // goes through the test hook
    for (uint32_t it = 0; it < iters_; ++it) {
      const auto& [cent, mem] = history_[it];
      const auto& got = it + 1 == iters_ ? last : mem;
      for (uint32_t p = 0; p < n_; ++p) {
        double best = std::numeric_limits<double>::infinity();
        for (uint32_t c = 0; c < k_; ++c) best = std::min(best, dist(cent, p, c));
        int32_t m = got[p];
        // The chosen centroid must be nearest up to float rounding of the distance sums.
        if (m < 0 || uint32_t(m) >= k_ || dist(cent, p, uint32_t(m)) > best * (1 + 1e-5) + 1e-5)
          throw VerificationError(fmt::format("membership[{}] in iteration {}: got cluster {} at distance {:.9g}, "
                                              "nearest is at {:.9g}",
                                              p, it, m, m >= 0 && uint32_t(m) < k_ ? dist(cent, p, uint32_t(m)) : -1.0,
                                              best));
      }
    }
  }

 private:
  double dist(const std::vector<float>& cent, uint32_t p, uint32_t c) const {
    double d = 0;
    for (uint32_t f = 0; f < f_; ++f) {
      double x = double(feat_[size_t(f) * n_ + p]) - cent[size_t(c) * f_ + f];
      d += x * x;
    }
    return d;
  }

  void update_centroids(const std::vector<int32_t>& mem) {
    std::vector<double> sum(size_t(k_) * f_, 0.0);
    std::vector<uint32_t> count(k_, 0);
    for (uint32_t p = 0; p < n_; ++p) {
      ++count[mem[p]];
      for (uint32_t f = 0; f < f_; ++f) sum[size_t(mem[p]) * f_ + f] += feat_[size_t(f) * n_ + p];
    }
    for (uint32_t c = 0; c < k_; ++c)
      if (count[c])  // an empty cluster keeps its centroid
        for (uint32_t f = 0; f < f_; ++f) cent_[size_t(c) * f_ + f] = float(sum[size_t(c) * f_ + f] / count[c]);
  }

  struct Iteration {
    std::vector<float> centroids;
    std::vector<int32_t> membership;
  };
  uint32_t n_, k_, f_, iters_;
  std::vector<float> feat_, cent_;
  std::vector<Iteration> history_;
  uint64_t dfeat_ = 0, dcent_ = 0, dmem_ = 0;
  Kernel kernel_;
};

}  // namespace

STROBE_BENCHMARK(KMeans, "kmeans", "Lloyd's k-means: device assignment, host centroid update (Rodinia kmeans)",
                 {int_param(STROBE_FIELD(KMeansParams, points), 1 << 15, 1, 1 << 22, "points").with_small(1000),
                  int_param(STROBE_FIELD(KMeansParams, clusters), 8, 1, 256, "clusters k").with_small(4),
                  int_param(STROBE_FIELD(KMeansParams, features), 16, 1, 256, "features per point").with_small(4),
                  int_param(STROBE_FIELD(KMeansParams, iterations), 5, 1, 1000, "iterations (launches)").with_small(2)});

}  // namespace strobe::workloads
