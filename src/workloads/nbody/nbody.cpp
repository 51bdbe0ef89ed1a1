// nbody: all-pairs gravitational n-body steps with LDS tiling.
#include <cmath>
#include <utility>
#include <vector>

#include "workloads/benchmark.h"
#include "workloads/context.h"
#include "workloads/rng.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

/// nbody's parameters, bound to their declarations in STROBE_BENCHMARK below.
struct NBodyParams {
  int64_t n = 0, steps = 0;
};

/// N-body (AMD APP SDK NBody): O(n^2) float work per step, one launch per step.
class NBody : public Benchmark {
 public:
  explicit NBody(const NBodyParams& p) : n_(uint32_t(p.n)), steps_(uint32_t(p.steps)) {
    if (n_ % kWg) throw InputError(fmt::format("nbody: n={} must be a multiple of {}", n_, kWg));
  }

  void setup(Context& ctx) override {
    Rng rng(13);
    pos_.resize(4 * n_), vel_.assign(4 * n_, 0.0f);
    for (uint32_t i = 0; i < n_; ++i) {
      for (int c = 0; c < 3; ++c) pos_[4 * i + c] = rng.uniform(-10, 10), vel_[4 * i + c] = rng.uniform(-0.1f, 0.1f);
      pos_[4 * i + 3] = rng.uniform(0.5f, 1.5f);  // mass
    }
    dpos_[0] = ctx.upload(pos_), dvel_[0] = ctx.upload(vel_);
    dpos_[1] = ctx.alloc<float>(4 * n_), dvel_[1] = ctx.alloc<float>(4 * n_);
    k_ = ctx.kernel("nbody", "nbody");
    ctx.expect_launches(steps_);
  }

  void run(Context& ctx) override {
    for (uint32_t s = 0; s < steps_; ++s) {
      uint32_t a = s & 1, b = a ^ 1;
      ctx.launch(k_, {n_, 1, 1}, {kWg, 1, 1},
                 {buf(dpos_[a]), buf(dvel_[a]), buf(dpos_[b]), buf(dvel_[b]), lds(kWg * 16), val(n_), val(kDt),
                  val(kEps2)});
    }
  }

  void verify(Context& ctx) override {
    // Reference in double precision; the device's float result must agree to a relative 1e-3
    // (softening keeps the forces bounded, so errors grow slowly over a few steps).
    std::vector<double> p(pos_.begin(), pos_.end()), v(vel_.begin(), vel_.end());
    for (uint32_t s = 0; s < steps_; ++s) {
      std::vector<double> np = p, nv = v;
      for (uint32_t i = 0; i < n_; ++i) {
        double acc[3] = {0, 0, 0};
        for (uint32_t j = 0; j < n_; ++j) {
          double d[3] = {p[4 * j] - p[4 * i], p[4 * j + 1] - p[4 * i + 1], p[4 * j + 2] - p[4 * i + 2]};
          double d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + kEps2;
          double inv = 1.0 / std::sqrt(d2);
          double f = p[4 * j + 3] * inv * inv * inv;
          for (int c = 0; c < 3; ++c) acc[c] += f * d[c];
        }
        for (int c = 0; c < 3; ++c) {
          nv[4 * i + c] = v[4 * i + c] + acc[c] * kDt;
          np[4 * i + c] = p[4 * i + c] + nv[4 * i + c] * kDt;
        }
      }
      p = std::move(np), v = std::move(nv);
    }
    uint32_t last = steps_ & 1;
    expect_close("pos", ctx.download<float>(dpos_[last], 4 * n_), std::vector<float>(p.begin(), p.end()), 1e-3, 1e-3);
    expect_close("vel", ctx.download<float>(dvel_[last], 4 * n_), std::vector<float>(v.begin(), v.end()), 1e-3, 1e-3);
  }

 private:
  static constexpr uint32_t kWg = 128;
  static constexpr float kDt = 0.005f, kEps2 = 0.01f;
  uint32_t n_, steps_;
  std::vector<float> pos_, vel_;
  uint64_t dpos_[2] = {0, 0}, dvel_[2] = {0, 0};
  Kernel k_;
};

}  // namespace

STROBE_BENCHMARK(NBody, "nbody", "All-pairs gravitational n-body, LDS-tiled, one launch per step (APP SDK NBody)",
                 {int_param(STROBE_FIELD(NBodyParams, n), 4096, 128, 65536, "bodies (multiple of 128)").with_small(256),
                  int_param(STROBE_FIELD(NBodyParams, steps), 2, 1, 1000, "time steps (launches)")});

}  // namespace strobe::workloads
