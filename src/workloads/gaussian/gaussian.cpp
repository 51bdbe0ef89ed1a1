// gaussian: Gaussian elimination of a dense system, two launches per pivot (Rodinia gaussian).
#include <cmath>
#include <vector>

#include <fmt/core.h>

#include "workloads/benchmark.h"
#include "workloads/context.h"
#include "workloads/rng.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

/// gaussian's parameters, bound to their declarations in STROBE_BENCHMARK below.
struct GaussianParams {
  int64_t n = 0;
};

/// Forward elimination on the device with ever-shrinking launches; the host back-substitutes.
class Gaussian : public Benchmark {
 public:
  explicit Gaussian(const GaussianParams& p) : n_(uint32_t(p.n)) {}

  void setup(Context& ctx) override {
    // Diagonally dominant, so elimination without pivoting is stable; b = A x_true.
    Rng rng(29);
    a_.resize(size_t(n_) * n_), b_.assign(n_, 0), x_.resize(n_);
    for (uint32_t i = 0; i < n_; ++i) {
      for (uint32_t j = 0; j < n_; ++j) a_[size_t(i) * n_ + j] = rng.uniform(-1, 1);
      a_[size_t(i) * n_ + i] += float(n_);
      x_[i] = rng.uniform(-1, 1);
    }
    for (uint32_t i = 0; i < n_; ++i) {
      double s = 0;
      for (uint32_t j = 0; j < n_; ++j) s += double(a_[size_t(i) * n_ + j]) * x_[j];
      b_[i] = float(s);
    }
    da_ = ctx.upload(a_), db_ = ctx.upload(b_), dm_ = ctx.alloc<float>(a_.size());
    k1_ = ctx.kernel("gaussian", "fan1"), k2_ = ctx.kernel("gaussian", "fan2");
    ctx.expect_launches(n_ > 1 ? 2 * (n_ - 1) : 0);
  }

  void run(Context& ctx) override {
    for (uint32_t t = 0; t + 1 < n_; ++t) {
      ctx.launch(k1_, {round_up(n_ - 1 - t, 256), 1, 1}, {256, 1, 1}, {buf(da_), buf(dm_), val(n_), val(t)});
      ctx.launch(k2_, {round_up(n_ - t, 16), round_up(n_ - 1 - t, 16), 1}, {16, 16, 1},
                 {buf(da_), buf(db_), buf(dm_), val(n_), val(t)});
    }
  }

  void verify(Context& ctx) override {
    // The reference repeats the elimination in float with the same operations; only the
    // device's multiply-add rounding can differ, an ulp per update of an O(n)-sized entry.
    std::vector<float> a = a_, b = b_;
    for (uint32_t t = 0; t + 1 < n_; ++t)
      for (uint32_t r = t + 1; r < n_; ++r) {
        float m = a[size_t(r) * n_ + t] / a[size_t(t) * n_ + t];
        for (uint32_t c = t; c < n_; ++c) a[size_t(r) * n_ + c] -= m * a[size_t(t) * n_ + c];
        b[r] -= m * b[t];
      }
    auto ga = ctx.download<float>(da_, a.size());
    auto gb = ctx.download<float>(db_, n_);
    expect_close("a", ga, a, 1e-4, 1e-5 * n_);
    expect_close("b", gb, b, 1e-4, 1e-5 * n_);
    // Back substitution of the device's triangle must recover x_true.
    std::vector<double> x(n_);
    for (uint32_t i = n_; i-- > 0;) {
      double s = gb[i];
      for (uint32_t j = i + 1; j < n_; ++j) s -= double(ga[size_t(i) * n_ + j]) * x[j];
      x[i] = s / ga[size_t(i) * n_ + i];
    }
    expect_close("x", std::vector<float>(x.begin(), x.end()), x_, 1e-3, 1e-4);
  }

 private:
  uint32_t n_;
  std::vector<float> a_, b_, x_;
  uint64_t da_ = 0, db_ = 0, dm_ = 0;
  Kernel k1_, k2_;
};

}  // namespace

STROBE_BENCHMARK(Gaussian, "gaussian", "Gaussian elimination (Rodinia), two shrinking launches per pivot",
                 {int_param(STROBE_FIELD(GaussianParams, n), 256, 1, 4096, "equations").with_small(48)});

}  // namespace strobe::workloads
