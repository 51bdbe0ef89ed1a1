// hotspot: Rodinia's thermal simulation, one launch per time step.
#include <utility>
#include <vector>

#include "workloads/benchmark.h"
#include "workloads/context.h"
#include "workloads/rng.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

/// hotspot's parameters, bound to their declarations in STROBE_BENCHMARK below.
struct HotspotParams {
  int64_t rows = 0, cols = 0, iterations = 0;
};

/// Rodinia hotspot with the original chip constants; LDS-tiled 5-point update per step.
class Hotspot : public Benchmark {
 public:
  explicit Hotspot(const HotspotParams& p)
      : w_(uint32_t(p.cols)), h_(uint32_t(p.rows)), iters_(uint32_t(p.iterations)) {
    // Rodinia's constants: a 16 mm x 16 mm x 0.5 mm silicon chip.
    const double t_chip = 0.0005, chip = 0.016, factor = 0.5, heat = 1.75e6, k_si = 100, max_pd = 3.0e6,
                 precision = 0.001;
    double gh = chip / h_, gw = chip / w_;
    double cap = factor * heat * t_chip * gw * gh;
    double rx = gw / (2 * k_si * t_chip * gh), ry = gh / (2 * k_si * t_chip * gw), rz = t_chip / (k_si * gh * gw);
    double step = precision / (max_pd / (factor * t_chip * heat));
    sdc_ = float(step / cap), rx1_ = float(1 / rx), ry1_ = float(1 / ry), rz1_ = float(1 / rz);
  }

  void setup(Context& ctx) override {
    Rng rng(32);
    temp_.resize(size_t(w_) * h_), power_.resize(temp_.size());
    for (auto& t : temp_) t = rng.uniform(323, 343);
    for (auto& p : power_) p = rng.uniform(0, 1e-3f);
    d_[0] = ctx.upload(temp_), d_[1] = ctx.alloc<float>(temp_.size()), dpower_ = ctx.upload(power_);
    k_ = ctx.kernel("hotspot", "hotspot");
    ctx.expect_launches(iters_);
  }

  void run(Context& ctx) override {
    for (uint32_t it = 0; it < iters_; ++it)
      ctx.launch(k_, {round_up(w_, 16), round_up(h_, 16), 1}, {16, 16, 1},
                 {buf(d_[it & 1]), buf(dpower_), buf(d_[(it + 1) & 1]), val(w_), val(h_), val(sdc_), val(rx1_),
                  val(ry1_), val(rz1_), val(kAmbient)});
  }

  void verify(Context& ctx) override {
    std::vector<float> t = temp_, o(t.size());
    for (uint32_t it = 0; it < iters_; ++it) {
      for (uint32_t y = 0; y < h_; ++y)
        for (uint32_t x = 0; x < w_; ++x) {
          size_t i = size_t(y) * w_ + x;
          float c = t[i], n = y ? t[i - w_] : c, s = y + 1 < h_ ? t[i + w_] : c;
          float e = x + 1 < w_ ? t[i + 1] : c, wv = x ? t[i - 1] : c;
          o[i] = c + sdc_ * (power_[i] + (s + n - 2.0f * c) * ry1_ + (e + wv - 2.0f * c) * rx1_ + (kAmbient - c) * rz1_);
        }
      std::swap(t, o);
    }
    // Temperatures near 330 K change by small increments; multiply-add rounding moves a step by
    // an ulp of 330 (3e-5) at most, so allow 1e-6 relative per step.
    expect_close("temperature", ctx.download<float>(d_[iters_ & 1], t.size()), t, 1e-6 * iters_, 0);
  }

 private:
  static constexpr float kAmbient = 80.0f;
  uint32_t w_, h_, iters_;
  float sdc_, rx1_, ry1_, rz1_;
  std::vector<float> temp_, power_;
  uint64_t d_[2] = {0, 0}, dpower_ = 0;
  Kernel k_;
};

}  // namespace

STROBE_BENCHMARK(Hotspot, "hotspot", "Rodinia hotspot thermal simulation: LDS-tiled stencil with halo, one launch per step",
                 {int_param(STROBE_FIELD(HotspotParams, rows), 512, 1, 16384, "grid rows").with_small(40),
                  int_param(STROBE_FIELD(HotspotParams, cols), 512, 1, 16384, "grid columns").with_small(50),
                  int_param(STROBE_FIELD(HotspotParams, iterations), 10, 1, 10000, "time steps (launches)").with_small(3)});

}  // namespace strobe::workloads
