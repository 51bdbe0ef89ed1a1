// srad: Rodinia SRAD v2 speckle-reducing diffusion, two launches per iteration.
#include <algorithm>
#include <cmath>
#include <vector>

#include "common/error.h"
#include "workloads/benchmark.h"
#include "workloads/context.h"
#include "workloads/rng.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

/// srad's parameters, bound to their declarations in STROBE_BENCHMARK below.
struct SradParams {
  int64_t rows = 0, cols = 0, iterations = 0;
};

/// SRAD: the host computes the region-of-interest statistic q0^2 from the image each iteration
/// (as Rodinia's srad_v2 does), the device the coefficients and the update.
class Srad : public Benchmark {
 public:
  explicit Srad(const SradParams& p)
      : rows_(uint32_t(p.rows)), cols_(uint32_t(p.cols)), iters_(uint32_t(p.iterations)) {
    // One pixel has no variance: q0^2 = 0 and the coefficient is 0/0.
    if (uint64_t(rows_) * cols_ < 2) throw InputError("srad: the image needs at least 2 pixels");
  }

  void setup(Context& ctx) override {
    Rng rng(35);
    img_.resize(size_t(rows_) * cols_);
    for (auto& v : img_) v = std::exp(rng.uniform(0, 1));  // Rodinia: J = exp(random image)
    size_t n = img_.size();
    dj_ = ctx.upload(img_);
    for (auto& d : dd_) d = ctx.alloc<float>(n);
    dc_ = ctx.alloc<float>(n);
    kc_ = ctx.kernel("srad", "srad_coeff"), ku_ = ctx.kernel("srad", "srad_update");
    ctx.expect_launches(2 * iters_);
  }

  void run(Context& ctx) override {
    q0_.clear();
    for (uint32_t it = 0; it < iters_; ++it) {
      float q0sqr = roi_statistic(ctx.read<float>(dj_, img_.size()));
      q0_.push_back(q0sqr);
      Dim3 grid{round_up(cols_, 16), round_up(rows_, 16), 1}, local{16, 16, 1};
      ctx.launch(kc_, grid, local,
                 {buf(dj_), buf(dd_[0]), buf(dd_[1]), buf(dd_[2]), buf(dd_[3]), buf(dc_), val(rows_), val(cols_),
                  val(q0sqr)});
      ctx.launch(ku_, grid, local,
                 {buf(dj_), buf(dd_[0]), buf(dd_[1]), buf(dd_[2]), buf(dd_[3]), buf(dc_), val(rows_), val(cols_),
                  val(kLambda)});
    }
  }

  void verify(Context& ctx) override {
    // Float reference with the kernels' operations, using the q0^2 each device iteration used.
    std::vector<float> j = img_, dn(j.size()), ds(j.size()), dw(j.size()), de(j.size()), c(j.size());
    auto at = [&](const std::vector<float>& a, uint32_t y, uint32_t x) {
      return a[size_t(std::min(y, rows_ - 1)) * cols_ + std::min(x, cols_ - 1)];
    };
    for (uint32_t it = 0; it < iters_; ++it) {
      float q0 = q0_[it];
      for (uint32_t y = 0; y < rows_; ++y)
        for (uint32_t x = 0; x < cols_; ++x) {
          size_t i = size_t(y) * cols_ + x;
          float jc = j[i], n = at(j, y ? y - 1 : 0, x) - jc, s = at(j, y + 1, x) - jc;
          float w = at(j, y, x ? x - 1 : 0) - jc, e = at(j, y, x + 1) - jc;
          float g2 = (n * n + s * s + w * w + e * e) / (jc * jc), l = (n + s + w + e) / jc;
          float num = 0.5f * g2 - 0.0625f * (l * l), den = 1.0f + 0.25f * l, q = num / (den * den);
          den = (q - q0) / (q0 * (1.0f + q0));
          c[i] = std::clamp(1.0f / (1.0f + den), 0.0f, 1.0f);
          dn[i] = n, ds[i] = s, dw[i] = w, de[i] = e;
        }
      for (uint32_t y = 0; y < rows_; ++y)
        for (uint32_t x = 0; x < cols_; ++x) {
          size_t i = size_t(y) * cols_ + x;
          float d = c[i] * dn[i] + at(c, y + 1, x) * ds[i] + c[i] * dw[i] + at(c, y, x + 1) * de[i];
          j[i] = j[i] + 0.25f * kLambda * d;
        }
    }
    // Values in [1, e]; multiply-add rounding differs by ulps per step, and the diffusion is
    // smoothing, so differences do not grow: 1e-5 relative per iteration.
    expect_close("image", ctx.download<float>(dj_, j.size()), j, 1e-5 * iters_, 1e-6);
  }

 private:
  /// q0^2 = var/mean^2 over the whole image (Rodinia's region of interest, here the full frame).
  float roi_statistic(const std::vector<float>& j) const {
    double sum = 0, sum2 = 0;
    for (float v : j) sum += v, sum2 += double(v) * v;
    double mean = sum / double(j.size()), var = sum2 / double(j.size()) - mean * mean;
    return float(var / (mean * mean));
  }

  static constexpr float kLambda = 0.5f;
  uint32_t rows_, cols_, iters_;
  std::vector<float> img_, q0_;
  uint64_t dj_ = 0, dd_[4] = {0, 0, 0, 0}, dc_ = 0;
  Kernel kc_, ku_;
};

}  // namespace

STROBE_BENCHMARK(Srad, "srad", "Rodinia SRAD v2 speckle-reducing diffusion, two launches per iteration",
                 {int_param(STROBE_FIELD(SradParams, rows), 512, 1, 8192, "image rows").with_small(37),
                  int_param(STROBE_FIELD(SradParams, cols), 512, 1, 8192, "image columns").with_small(41),
                  int_param(STROBE_FIELD(SradParams, iterations), 4, 1, 1000, "iterations").with_small(2)});

}  // namespace strobe::workloads
