// cnntrain: training steps of a small CNN on 32x32 images (the stated equivalent of ResNet-18
// at 32x32: three 3x3 convolutions with ReLU, the last two strided, global average pooling, a
// fully connected classifier and softmax cross-entropy). Each iteration runs the forward pass
// (im2col, GEMM, bias and ReLU per convolution), the loss and its gradient, the backward pass
// (weight-gradient GEMMs summed over the batch, bias gradients, and the input gradients as
// GEMMs followed by col2im, the transposed convolution), and an SGD-with-momentum update of
// every parameter, one launch per operator. Every iteration has a batch of its own. Verified by
// replaying every iteration in double precision on the host: the losses and the final weights
// must match.
#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/core.h>

#include "common/error.h"
#include "workloads/benchmark.h"
#include "workloads/context.h"
#include "workloads/rng.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

struct CnnTrainParams {
  int64_t batch = 0, iterations = 0, width = 0, input = 0;
};

constexpr uint32_t kClasses = 10, kLayers = 3;
constexpr float kLr = 0.01f, kMomentum = 0.9f;

/// One convolution's geometry: 3x3, padding 1.
struct ConvShape {
  uint32_t cin, cout, h, w, stride, oh, ow;
  uint32_t k() const { return cin * 9; }   ///< im2col rows
  uint32_t p() const { return oh * ow; }   ///< output positions
};

/// A parameter tensor: host copy (the reference's start), device weights, gradient and momentum.
struct Tensor {
  std::vector<float> init;
  uint64_t w = 0, g = 0, v = 0;
};

class CnnTrain : public Benchmark {
 public:
  explicit CnnTrain(const CnnTrainParams& p)
      : n_(uint32_t(p.batch)), iters_(uint32_t(p.iterations)), width_(uint32_t(p.width)), in_(uint32_t(p.input)) {
    if (in_ % 4) throw InputError(fmt::format("cnntrain: input={} must be a multiple of 4", in_));
    uint32_t h = in_, cin = 3, cout = width_;
    for (uint32_t l = 0; l < kLayers; ++l) {
      const uint32_t stride = l == 0 ? 1 : 2, oh = (h + 2 - 3) / stride + 1;
      conv_[l] = {cin, cout, h, h, stride, oh, oh};
      cin = cout, cout *= 2, h = oh;
    }
  }

  void setup(Context& ctx) override;
  void run(Context& ctx) override;
  void verify(Context& ctx) override;

 private:
  Tensor param(Context& ctx, Rng& rng, size_t n, float a) {
    Tensor t;
    t.init.resize(n);
    for (float& v : t.init) v = rng.uniform(-a, a);
    t.w = ctx.upload(t.init);
    t.g = ctx.alloc<float>(n);
    t.v = ctx.alloc<float>(n);
    return t;
  }

  uint32_t feat() const { return conv_[kLayers - 1].cout; }

  uint32_t n_, iters_, width_, in_;
  std::array<ConvShape, kLayers> conv_{};
  std::array<Tensor, kLayers> cw_, cb_;  ///< convolution weights (cout x cin*9) and biases
  Tensor fw_, fb_;                       ///< classifier weights (input-major, feat x classes) and bias
  std::vector<float> images_;            ///< every iteration's batch, N x 3 x in x in each
  std::vector<int> labels_;
  uint64_t images_d_ = 0, labels_d_ = 0, loss_ = 0;
  std::array<uint64_t, kLayers> cols_{}, act_{}, dact_{};  ///< per layer: im2col, output, its gradient
  uint64_t dcols_ = 0, pooled_ = 0, dpooled_ = 0, logits_ = 0, dlogits_ = 0;
  Kernel im2col_, gemm_, bias_act_, pool_, fc_, xent_, gemm_tn_, gemm_nt_, col2im_, bias_grad_, relu_grad_,
      pool_grad_, sgd_;
};

void CnnTrain::setup(Context& ctx) {
  Rng rng(0x7472'6169'6e);
  for (uint32_t l = 0; l < kLayers; ++l) {
    const ConvShape& s = conv_[l];
    cw_[l] = param(ctx, rng, size_t(s.cout) * s.k(), std::sqrt(6.0f / float(s.k())));
    cb_[l] = param(ctx, rng, s.cout, 0.1f);
    cols_[l] = ctx.alloc<float>(size_t(n_) * s.k() * s.p());
    act_[l] = ctx.alloc<float>(size_t(n_) * s.cout * s.p());
    dact_[l] = ctx.alloc<float>(size_t(n_) * s.cout * s.p());
  }
  fw_ = param(ctx, rng, size_t(feat()) * kClasses, std::sqrt(6.0f / float(feat())));
  fb_ = param(ctx, rng, kClasses, 0.1f);
  images_.resize(size_t(iters_) * n_ * 3 * in_ * in_);
  for (float& v : images_) v = rng.uniform(0, 1);
  labels_.resize(size_t(iters_) * n_);
  for (int& l : labels_) l = int(rng.below(kClasses));
  images_d_ = ctx.upload(images_);
  labels_d_ = ctx.upload(labels_);
  loss_ = ctx.alloc<float>(iters_);
  size_t dcols = 0;
  for (const ConvShape& s : conv_) dcols = std::max(dcols, size_t(n_) * s.k() * s.p());
  dcols_ = ctx.alloc<float>(dcols);
  pooled_ = ctx.alloc<float>(size_t(n_) * feat());
  dpooled_ = ctx.alloc<float>(size_t(n_) * feat());
  logits_ = ctx.alloc<float>(size_t(n_) * kClasses);
  dlogits_ = ctx.alloc<float>(size_t(n_) * kClasses);
  im2col_ = ctx.kernel("dnn", "im2col"), gemm_ = ctx.kernel("dnn", "gemm"), bias_act_ = ctx.kernel("dnn", "bias_act");
  pool_ = ctx.kernel("dnn", "pool"), fc_ = ctx.kernel("dnn", "fc");
  xent_ = ctx.kernel("train", "softmax_xent"), gemm_tn_ = ctx.kernel("train", "gemm_tn");
  gemm_nt_ = ctx.kernel("train", "gemm_nt"), col2im_ = ctx.kernel("train", "col2im");
  bias_grad_ = ctx.kernel("train", "bias_grad"), relu_grad_ = ctx.kernel("train", "relu_grad");
  pool_grad_ = ctx.kernel("train", "avgpool_grad"), sgd_ = ctx.kernel("train", "sgd");
  // Forward 3 x 3 + pool + fc + loss; backward fc 3, pool 1, 5 per strided layer and 3 for the
  // first; SGD one per parameter tensor.
  ctx.expect_launches(size_t(iters_) * (12 + 4 + 5 * (kLayers - 1) + 3 + 2 * (kLayers + 1)));
}

void CnnTrain::run(Context& ctx) {
  auto g1 = [](uint64_t total) { return Dim3{round_up(total, 256), 1, 1}; };
  for (uint32_t it = 0; it < iters_; ++it) {
    uint64_t x = images_d_ + uint64_t(it) * n_ * 3 * in_ * in_ * sizeof(float);
    // Forward.
    for (uint32_t l = 0; l < kLayers; ++l) {
      const ConvShape& s = conv_[l];
      const uint32_t k = s.k(), p = s.p(), total = n_ * s.cout * p;
      ctx.launch(im2col_, {round_up(p, 16), round_up(k, 16), n_}, {16, 16, 1},
                 {buf(x), buf(cols_[l]), val(s.cin), val(s.h), val(s.w), val(3u), val(s.stride), val(1u), val(s.oh),
                  val(s.ow)});
      ctx.launch(gemm_, {round_up(p, 16), round_up(s.cout, 16), n_}, {16, 16, 1},
                 {buf(cw_[l].w), buf(cols_[l]), buf(act_[l]), val(s.cout), val(p), val(k)});
      ctx.launch(bias_act_, g1(total), {256, 1, 1},
                 {buf(act_[l]), buf(cb_[l].w), val(s.cout), val(p), val(total), val(1u)});
      x = act_[l];
    }
    const ConvShape& last = conv_[kLayers - 1];
    ctx.launch(pool_, g1(n_ * feat()), {256, 1, 1},
               {buf(x), buf(pooled_), val(last.oh), val(last.ow), val(last.oh), val(last.oh), val(1u), val(1u),
                val(n_ * feat()), val(1u)});
    ctx.launch(fc_, {round_up(kClasses, 64), n_, 1}, {64, 1, 1},
               {buf(pooled_), buf(fw_.w), buf(fb_.w), buf(logits_), val(feat()), val(kClasses), val(0u)});
    ctx.launch(xent_, {256, 1, 1}, {256, 1, 1},
               {buf(logits_), buf(labels_d_ + uint64_t(it) * n_ * sizeof(int)), buf(dlogits_), buf(loss_),
                val(kClasses), val(n_), val(it)});
    // Backward: the classifier, then pooling, then each convolution from the last.
    ctx.launch(gemm_tn_, {round_up(kClasses, 16), round_up(feat(), 16), 1}, {16, 16, 1},
               {buf(pooled_), buf(dlogits_), buf(fw_.g), val(feat()), val(kClasses), val(n_), val(0u), val(0u),
                val(0u)});
    ctx.launch(bias_grad_, g1(kClasses), {256, 1, 1}, {buf(dlogits_), buf(fb_.g), val(kClasses), val(1u), val(n_)});
    ctx.launch(gemm_nt_, {round_up(feat(), 16), round_up(n_, 16), 1}, {16, 16, 1},
               {buf(dlogits_), buf(fw_.w), buf(dpooled_), val(n_), val(feat()), val(kClasses), val(1u), val(0u),
                val(0u)});
    const uint32_t last_total = n_ * feat() * last.p();
    ctx.launch(pool_grad_, g1(last_total), {256, 1, 1},
               {buf(dpooled_), buf(dact_[kLayers - 1]), val(last.p()), val(last_total)});
    for (uint32_t l = kLayers; l-- > 0;) {
      const ConvShape& s = conv_[l];
      const uint32_t k = s.k(), p = s.p(), total = n_ * s.cout * p;
      ctx.launch(relu_grad_, g1(total), {256, 1, 1}, {buf(dact_[l]), buf(act_[l]), val(total)});
      ctx.launch(gemm_nt_, {round_up(k, 16), round_up(s.cout, 16), 1}, {16, 16, 1},
                 {buf(dact_[l]), buf(cols_[l]), buf(cw_[l].g), val(s.cout), val(k), val(p), val(n_),
                  val(s.cout * p), val(k * p)});
      ctx.launch(bias_grad_, g1(s.cout), {256, 1, 1}, {buf(dact_[l]), buf(cb_[l].g), val(s.cout), val(p), val(n_)});
      if (l == 0) break;
      ctx.launch(gemm_tn_, {round_up(p, 16), round_up(k, 16), n_}, {16, 16, 1},
                 {buf(cw_[l].w), buf(dact_[l]), buf(dcols_), val(k), val(p), val(s.cout), val(0u), val(s.cout * p),
                  val(k * p)});
      const uint32_t in_total = n_ * s.cin * s.h * s.w;
      ctx.launch(col2im_, g1(in_total), {256, 1, 1},
                 {buf(dcols_), buf(dact_[l - 1]), val(s.cin), val(s.h), val(s.w), val(3u), val(s.stride), val(1u),
                  val(s.oh), val(s.ow), val(in_total)});
    }
    // The update, one launch per parameter tensor.
    auto step = [&](const Tensor& t, size_t n) {
      ctx.launch(sgd_, g1(n), {256, 1, 1}, {buf(t.w), buf(t.g), buf(t.v), val(kLr), val(kMomentum), val(uint32_t(n))});
    };
    for (uint32_t l = 0; l < kLayers; ++l) {
      step(cw_[l], cw_[l].init.size());
      step(cb_[l], cb_[l].init.size());
    }
    step(fw_, fw_.init.size());
    step(fb_, fb_.init.size());
  }
}

/// Double-precision replay of training (verification).
struct Model {
  std::array<std::vector<double>, kLayers> w, b, vw, vb;
  std::vector<double> fw, fb, vfw, vfb;
};

std::vector<double> widen(const std::vector<float>& v) { return {v.begin(), v.end()}; }

/// cols (k x p) of one image x (c x h x w) for a 3x3, padding-1 convolution.
std::vector<double> im2col(const double* x, const ConvShape& s) {
  std::vector<double> cols(size_t(s.k()) * s.p(), 0.0);
  for (uint32_t row = 0; row < s.k(); ++row) {
    const uint32_t ch = row / 9, ky = (row / 3) % 3, kx = row % 3;
    for (uint32_t q = 0; q < s.p(); ++q) {
      const int iy = int((q / s.ow) * s.stride + ky) - 1, ix = int((q % s.ow) * s.stride + kx) - 1;
      if (iy >= 0 && iy < int(s.h) && ix >= 0 && ix < int(s.w))
        cols[size_t(row) * s.p() + q] = x[(size_t(ch) * s.h + iy) * s.w + ix];
    }
  }
  return cols;
}

void CnnTrain::verify(Context& ctx) {
  Model m;
  for (uint32_t l = 0; l < kLayers; ++l) {
    m.w[l] = widen(cw_[l].init), m.b[l] = widen(cb_[l].init);
    m.vw[l].assign(m.w[l].size(), 0.0), m.vb[l].assign(m.b[l].size(), 0.0);
  }
  m.fw = widen(fw_.init), m.fb = widen(fb_.init);
  m.vfw.assign(m.fw.size(), 0.0), m.vfb.assign(m.fb.size(), 0.0);
  std::vector<double> losses(iters_);
  const uint32_t f = feat();
  for (uint32_t it = 0; it < iters_; ++it) {
    // Forward, keeping each image's cols and activations.
    std::array<std::vector<std::vector<double>>, kLayers> cols, act;
    std::vector<std::vector<double>> input(n_);
    for (uint32_t i = 0; i < n_; ++i) {
      const float* src = &images_[(size_t(it) * n_ + i) * 3 * in_ * in_];
      input[i].assign(src, src + 3 * in_ * in_);
    }
    for (uint32_t l = 0; l < kLayers; ++l) {
      const ConvShape& s = conv_[l];
      for (uint32_t i = 0; i < n_; ++i) {
        const std::vector<double>& x = l == 0 ? input[i] : act[l - 1][i];
        cols[l].push_back(im2col(x.data(), s));
        std::vector<double> y(size_t(s.cout) * s.p());
        for (uint32_t o = 0; o < s.cout; ++o)
          for (uint32_t q = 0; q < s.p(); ++q) {
            double acc = m.b[l][o];
            for (uint32_t r = 0; r < s.k(); ++r) acc += m.w[l][size_t(o) * s.k() + r] * cols[l][i][size_t(r) * s.p() + q];
            y[size_t(o) * s.p() + q] = std::max(acc, 0.0);
          }
        act[l].push_back(std::move(y));
      }
    }
    const ConvShape& last = conv_[kLayers - 1];
    std::vector<double> pooled(size_t(n_) * f), dlogits(size_t(n_) * kClasses);
    double loss = 0;
    for (uint32_t i = 0; i < n_; ++i) {
      for (uint32_t c = 0; c < f; ++c) {
        double s = 0;
        for (uint32_t q = 0; q < last.p(); ++q) s += act[kLayers - 1][i][size_t(c) * last.p() + q];
        pooled[size_t(i) * f + c] = s / last.p();
      }
      std::array<double, kClasses> z{};
      for (uint32_t j = 0; j < kClasses; ++j) {
        z[j] = m.fb[j];
        for (uint32_t c = 0; c < f; ++c) z[j] += pooled[size_t(i) * f + c] * m.fw[size_t(c) * kClasses + j];
      }
      const double mx = *std::max_element(z.begin(), z.end());
      double sum = 0;
      for (double v : z) sum += std::exp(v - mx);
      const int label = labels_[size_t(it) * n_ + i];
      for (uint32_t j = 0; j < kClasses; ++j)
        dlogits[size_t(i) * kClasses + j] = (std::exp(z[j] - mx) / sum - (int(j) == label ? 1.0 : 0.0)) / n_;
      loss += std::log(sum) + mx - z[size_t(label)];
    }
    losses[it] = loss / n_;
    // Backward.
    std::vector<double> gfw(m.fw.size(), 0.0), gfb(kClasses, 0.0), dpooled(size_t(n_) * f, 0.0);
    for (uint32_t i = 0; i < n_; ++i)
      for (uint32_t j = 0; j < kClasses; ++j) {
        const double d = dlogits[size_t(i) * kClasses + j];
        gfb[j] += d;
        for (uint32_t c = 0; c < f; ++c) {
          gfw[size_t(c) * kClasses + j] += pooled[size_t(i) * f + c] * d;
          dpooled[size_t(i) * f + c] += d * m.fw[size_t(c) * kClasses + j];
        }
      }
    std::vector<std::vector<double>> dy(n_);
    for (uint32_t i = 0; i < n_; ++i) {
      dy[i].resize(size_t(f) * last.p());
      for (size_t e = 0; e < dy[i].size(); ++e) dy[i][e] = dpooled[size_t(i) * f + e / last.p()] / last.p();
    }
    std::array<std::vector<double>, kLayers> gw, gb;
    for (uint32_t l = kLayers; l-- > 0;) {
      const ConvShape& s = conv_[l];
      gw[l].assign(m.w[l].size(), 0.0), gb[l].assign(s.cout, 0.0);
      std::vector<std::vector<double>> dx(n_);
      for (uint32_t i = 0; i < n_; ++i) {
        for (size_t e = 0; e < dy[i].size(); ++e)
          if (!(act[l][i][e] > 0)) dy[i][e] = 0;
        for (uint32_t o = 0; o < s.cout; ++o)
          for (uint32_t q = 0; q < s.p(); ++q) {
            const double d = dy[i][size_t(o) * s.p() + q];
            gb[l][o] += d;
            for (uint32_t r = 0; r < s.k(); ++r) gw[l][size_t(o) * s.k() + r] += d * cols[l][i][size_t(r) * s.p() + q];
          }
        if (l == 0) continue;
        dx[i].assign(size_t(s.cin) * s.h * s.w, 0.0);
        for (uint32_t r = 0; r < s.k(); ++r) {
          const uint32_t ch = r / 9, ky = (r / 3) % 3, kx = r % 3;
          for (uint32_t q = 0; q < s.p(); ++q) {
            const int iy = int((q / s.ow) * s.stride + ky) - 1, ix = int((q % s.ow) * s.stride + kx) - 1;
            if (iy < 0 || iy >= int(s.h) || ix < 0 || ix >= int(s.w)) continue;
            double d = 0;
            for (uint32_t o = 0; o < s.cout; ++o) d += m.w[l][size_t(o) * s.k() + r] * dy[i][size_t(o) * s.p() + q];
            dx[i][(size_t(ch) * s.h + iy) * s.w + ix] += d;
          }
        }
      }
      if (l > 0) dy = std::move(dx);
    }
    auto sgd = [](std::vector<double>& w, std::vector<double>& v, const std::vector<double>& g) {
      for (size_t e = 0; e < w.size(); ++e) {
        v[e] = double(kMomentum) * v[e] + g[e];
        w[e] -= double(kLr) * v[e];
      }
    };
    for (uint32_t l = 0; l < kLayers; ++l) sgd(m.w[l], m.vw[l], gw[l]), sgd(m.b[l], m.vb[l], gb[l]);
    sgd(m.fw, m.vfw, gfw), sgd(m.fb, m.vfb, gfb);
  }
  auto narrow = [](const std::vector<double>& v) { return std::vector<float>(v.begin(), v.end()); };
  // Float rounding of the sums and of each update stays within 1e-3 of the larger of the value
  // and a thousandth of the tensor's scale over a few iterations.
  auto check = [&](const std::string& name, uint64_t addr, const std::vector<double>& want) {
    double scale = 1e-30;
    for (double v : want) scale = std::max(scale, std::fabs(v));
    expect_close(name, ctx.download<float>(addr, want.size()), narrow(want), 1e-3, 1e-3 * scale);
  };
  check("loss", loss_, losses);
  for (uint32_t l = 0; l < kLayers; ++l) {
    check(fmt::format("conv{}.weight", l + 1), cw_[l].w, m.w[l]);
    check(fmt::format("conv{}.bias", l + 1), cb_[l].w, m.b[l]);
  }
  check("fc.weight", fw_.w, m.fw);
  check("fc.bias", fb_.w, m.fb);
}

}  // namespace

STROBE_BENCHMARK(CnnTrain, "cnntrain",
                 "CNN training steps: forward, softmax cross-entropy, backward (weight-gradient GEMMs, col2im) and "
                 "SGD with momentum, one batch per iteration",
                 {int_param(STROBE_FIELD(CnnTrainParams, batch), 32, 1, 256, "images per batch").with_small(4),
                  int_param(STROBE_FIELD(CnnTrainParams, iterations), 8, 1, 1000, "training steps").with_small(2),
                  int_param(STROBE_FIELD(CnnTrainParams, width), 16, 1, 256, "channels of the first convolution (doubled by each strided one)").with_small(4),
                  int_param(STROBE_FIELD(CnnTrainParams, input), 32, 4, 256, "input height and width (a multiple of 4)").with_small(8)});

}  // namespace strobe::workloads
