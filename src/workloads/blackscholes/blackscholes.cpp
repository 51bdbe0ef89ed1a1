// blackscholes: European call and put prices for a batch of options.
#include <cmath>
#include <vector>

#include "workloads/benchmark.h"
#include "workloads/context.h"
#include "workloads/rng.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

/// blackscholes's parameters, bound to their declarations in STROBE_BENCHMARK below.
struct BlackScholesParams {
  int64_t options = 0;
};

double cnd(double d) {
  const double a1 = 0.319381530, a2 = -0.356563782, a3 = 1.781477937, a4 = -1.821255978, a5 = 1.330274429;
  double k = 1.0 / (1.0 + 0.2316419 * std::fabs(d));
  double c = 0.39894228040143267794 * std::exp(-0.5 * d * d) * (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
  return d > 0 ? 1.0 - c : c;
}

/// Black-Scholes: floating-point and transcendental throughput, no data reuse.
class BlackScholes : public Benchmark {
 public:
  explicit BlackScholes(const BlackScholesParams& p) : n_(uint32_t(p.options)) {}

  void setup(Context& ctx) override {
    Rng rng(27);
    s_.resize(n_), x_.resize(n_), t_.resize(n_);
    for (uint32_t i = 0; i < n_; ++i)
      s_[i] = rng.uniform(5, 30), x_[i] = rng.uniform(1, 100), t_[i] = rng.uniform(0.25f, 10);
    ds_ = ctx.upload(s_), dx_ = ctx.upload(x_), dt_ = ctx.upload(t_);
    dcall_ = ctx.alloc<float>(n_), dput_ = ctx.alloc<float>(n_);
    k_ = ctx.kernel("blackscholes", "blackscholes");
    ctx.expect_launches(1);
  }

  void run(Context& ctx) override {
    ctx.launch(k_, {round_up(n_, 256), 1, 1}, {256, 1, 1},
               {buf(ds_), buf(dx_), buf(dt_), buf(dcall_), buf(dput_), val(n_), val(kRate), val(kVol)});
  }

  void verify(Context& ctx) override {
    std::vector<float> call(n_), put(n_);
    for (uint32_t i = 0; i < n_; ++i) {
      double s = s_[i], x = x_[i], t = t_[i], r = kRate, v = kVol;
      double d1 = (std::log(s / x) + (r + 0.5 * v * v) * t) / (v * std::sqrt(t)), d2 = d1 - v * std::sqrt(t);
      double disc = x * std::exp(-r * t);
      call[i] = float(s * cnd(d1) - disc * cnd(d2));
      put[i] = float(disc * (1 - cnd(d2)) - s * (1 - cnd(d1)));
    }
    // Double-precision reference. Float rounding of d1 (about 1e-6 relative) moves a price by at
    // most spot * 1e-6 * N'(d1) / (vol sqrt t); with spot <= 30 and strike <= 100, 1e-3 absolute
    // (a tenth of a cent) leaves a wide margin over the observed errors, below 5e-5.
    expect_close("call", ctx.download<float>(dcall_, n_), call, 1e-4, 1e-3);
    expect_close("put", ctx.download<float>(dput_, n_), put, 1e-4, 1e-3);
  }

 private:
  static constexpr float kRate = 0.02f, kVol = 0.30f;
  uint32_t n_;
  std::vector<float> s_, x_, t_;
  uint64_t ds_ = 0, dx_ = 0, dt_ = 0, dcall_ = 0, dput_ = 0;
  Kernel k_;
};

}  // namespace

STROBE_BENCHMARK(BlackScholes, "blackscholes", "Black-Scholes option pricing: exp, log, sqrt and a CND polynomial",
                 {int_param(STROBE_FIELD(BlackScholesParams, options), 1 << 18, 1, 1 << 26, "options priced").with_small(3000)});

}  // namespace strobe::workloads
