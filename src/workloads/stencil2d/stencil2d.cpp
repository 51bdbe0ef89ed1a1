// stencil2d: Jacobi iterations of a 5-point stencil, ping-ponging between two grids.
#include <utility>
#include <vector>

#include "workloads/benchmark.h"
#include "workloads/context.h"
#include "workloads/rng.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

/// stencil2d's parameters, bound to their declarations in STROBE_BENCHMARK below.
struct Stencil2DParams {
  int64_t width = 0, height = 0, iterations = 0;
};

/// 5-point Jacobi stencil (SHOC Stencil2D), one launch per iteration.
class Stencil2D : public Benchmark {
 public:
  explicit Stencil2D(const Stencil2DParams& p)
      : w_(uint32_t(p.width)), h_(uint32_t(p.height)), iters_(uint32_t(p.iterations)) {}

  void setup(Context& ctx) override {
    Rng rng(8);
    in_.resize(size_t(w_) * h_);
    for (auto& v : in_) v = rng.uniform(0, 1);
    d_[0] = ctx.upload(in_), d_[1] = ctx.alloc<float>(in_.size());
    k_ = ctx.kernel("stencil2d", "stencil2d");
    ctx.expect_launches(iters_);
  }

  void run(Context& ctx) override {
    for (uint32_t it = 0; it < iters_; ++it)
      ctx.launch(k_, {round_up(w_, 16), round_up(h_, 16), 1}, {16, 16, 1},
                 {buf(d_[it & 1]), buf(d_[(it + 1) & 1]), val(w_), val(h_), val(kC0), val(kC1)});
  }

  void verify(Context& ctx) override {
    std::vector<float> a = in_, b(in_.size());
    for (uint32_t it = 0; it < iters_; ++it) {
      for (uint32_t y = 0; y < h_; ++y)
        for (uint32_t x = 0; x < w_; ++x) {
          size_t i = size_t(y) * w_ + x;
          if (x == 0 || y == 0 || x == w_ - 1 || y == h_ - 1) {
            b[i] = a[i];
            continue;
          }
          float nb = (a[i - w_] + a[i + w_]) + (a[i - 1] + a[i + 1]);
          b[i] = kC0 * a[i] + kC1 * nb;
        }
      std::swap(a, b);
    }
    // A weighted average of values in [0, 1]: a fused multiply-add changes at most an ulp per sweep.
    expect_close("grid", ctx.download<float>(d_[iters_ & 1], a.size()), a, 1e-5 * iters_, 1e-6);
  }

 private:
  static constexpr float kC0 = 0.5f, kC1 = 0.125f;
  uint32_t w_, h_, iters_;
  std::vector<float> in_;
  uint64_t d_[2] = {0, 0};
  Kernel k_;
};

}  // namespace

STROBE_BENCHMARK(Stencil2D, "stencil2d", "5-point Jacobi stencil, one launch per sweep (SHOC Stencil2D)",
                 {int_param(STROBE_FIELD(Stencil2DParams, width), 512, 3, 16384, "grid columns").with_small(40),
                  int_param(STROBE_FIELD(Stencil2DParams, height), 512, 3, 16384, "grid rows").with_small(33),
                  int_param(STROBE_FIELD(Stencil2DParams, iterations), 8, 1, 10000, "sweeps (launches)").with_small(3)});

}  // namespace strobe::workloads
