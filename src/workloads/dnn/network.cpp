// DNN layers: launch plans and per-layer CPU references.
#include "workloads/dnn/network.h"

#include <algorithm>
#include <cmath>

#include <fmt/core.h>

#include "common/error.h"
#include "workloads/verify.h"

namespace strobe::workloads::dnn {
namespace {

constexpr double kU = 0x1p-24;  // unit roundoff of float

/// Error bound of a float sum of `terms` products accumulated in sequence (Higham's gamma_n),
/// given the sum of the terms' magnitudes; the order on the device then does not matter.
double sum_bound(size_t terms, double magnitude) { return double(terms + 2) * kU * magnitude + 1e-30; }

uint32_t out_size(uint32_t in, uint32_t k, uint32_t stride, uint32_t pad, const std::string& layer) {
  if (in + 2 * pad < k)
    throw InputError(fmt::format("{}: a {}x{} window does not fit a {}-wide input; use a larger input", layer, k, k, in));
  return (in + 2 * pad - k) / stride + 1;
}

Dim3 grid1(size_t total) {
  if (total > 0xffffff00ull) throw InputError("a DNN layer has more than 2^32 elements; use a smaller batch or input");
  return {round_up(total, 256), 1, 1};
}

/// Convolution with bias and optional ReLU, as im2col + GEMM + bias_act or one direct kernel.
class ConvLayer : public Layer {
 public:
  ConvLayer(std::string name, const Kernels& k, ConvAlgo algo, Tensor x, Tensor y, uint32_t ksize, uint32_t stride,
            uint32_t pad, bool relu, std::vector<float> w, std::vector<float> b, uint64_t dw, uint64_t db,
            uint64_t dcols)
      : Layer(std::move(name)), k_(k), algo_(algo), x_(x), y_(y), ks_(ksize), stride_(stride), pad_(pad), relu_(relu),
        w_(std::move(w)), b_(std::move(b)), dw_(dw), db_(db), dcols_(dcols) {}

  void run(Context& ctx) override {
    uint32_t kk = x_.c * ks_ * ks_, p = y_.h * y_.w, relu = relu_;
    if (algo_ == ConvAlgo::Direct) {
      uint32_t total = uint32_t(y_.size());
      ctx.launch(k_.conv_direct, grid1(total), {256, 1, 1},
                 {buf(x_.addr), buf(dw_), buf(db_), buf(y_.addr), val(x_.c), val(x_.h), val(x_.w), val(y_.c), val(ks_),
                  val(stride_), val(pad_), val(y_.h), val(y_.w), val(total), val(relu)});
      return;
    }
    ctx.launch(k_.im2col, {round_up(p, 16), round_up(kk, 16), x_.n}, {16, 16, 1},
               {buf(x_.addr), buf(dcols_), val(x_.c), val(x_.h), val(x_.w), val(ks_), val(stride_), val(pad_),
                val(y_.h), val(y_.w)});
    ctx.launch(k_.gemm, {round_up(p, 16), round_up(y_.c, 16), x_.n}, {16, 16, 1},
               {buf(dw_), buf(dcols_), buf(y_.addr), val(y_.c), val(p), val(kk)});
    uint32_t total = uint32_t(y_.size());
    ctx.launch(k_.bias_act, grid1(total), {256, 1, 1},
               {buf(y_.addr), buf(db_), val(y_.c), val(p), val(total), val(relu)});
  }

  void verify(Context& ctx) const override {
    auto x = ctx.download<float>(x_.addr, x_.size());
    auto y = ctx.download<float>(y_.addr, y_.size());
    std::vector<double> ref(y.size()), bound(y.size());
    size_t terms = size_t(x_.c) * ks_ * ks_ + 1;
    for (uint32_t img = 0; img < y_.n; ++img)
      for (uint32_t o = 0; o < y_.c; ++o)
        for (uint32_t oy = 0; oy < y_.h; ++oy)
          for (uint32_t ox = 0; ox < y_.w; ++ox) {
            double acc = b_[o], mag = std::fabs(b_[o]);
            for (uint32_t c = 0; c < x_.c; ++c)
              for (uint32_t ky = 0; ky < ks_; ++ky) {
                int iy = int(oy * stride_ + ky) - int(pad_);
                if (iy < 0 || iy >= int(x_.h)) continue;
                for (uint32_t kx = 0; kx < ks_; ++kx) {
                  int ix = int(ox * stride_ + kx) - int(pad_);
                  if (ix < 0 || ix >= int(x_.w)) continue;
                  double t = double(w_[((size_t(o) * x_.c + c) * ks_ + ky) * ks_ + kx]) *
                             x[((size_t(img) * x_.c + c) * x_.h + iy) * x_.w + ix];
                  acc += t, mag += std::fabs(t);
                }
              }
            size_t i = ((size_t(img) * y_.c + o) * y_.h + oy) * y_.w + ox;
            ref[i] = relu_ ? std::max(acc, 0.0) : acc;
            bound[i] = sum_bound(terms, mag);
          }
    expect_within(name() + ".output", y, ref, bound);
  }

 private:
  const Kernels& k_;
  ConvAlgo algo_;
  Tensor x_, y_;
  uint32_t ks_, stride_, pad_;
  bool relu_;
  std::vector<float> w_, b_;  ///< weights [cout][cin][k][k], bias [cout]
  uint64_t dw_, db_, dcols_;
};

/// Max or average pooling.
class PoolLayer : public Layer {
 public:
  PoolLayer(std::string name, const Kernels& k, Tensor x, Tensor y, uint32_t ksize, uint32_t stride, bool avg)
      : Layer(std::move(name)), k_(k), x_(x), y_(y), ks_(ksize), stride_(stride), avg_(avg) {}

  void run(Context& ctx) override {
    uint32_t total = uint32_t(y_.size()), avg = avg_;
    ctx.launch(k_.pool, grid1(total), {256, 1, 1},
               {buf(x_.addr), buf(y_.addr), val(x_.h), val(x_.w), val(ks_), val(stride_), val(y_.h), val(y_.w),
                val(total), val(avg)});
  }

  void verify(Context& ctx) const override {
    auto x = ctx.download<float>(x_.addr, x_.size());
    auto y = ctx.download<float>(y_.addr, y_.size());
    std::vector<double> ref(y.size()), bound(y.size());
    for (size_t plane = 0; plane < size_t(y_.n) * y_.c; ++plane)
      for (uint32_t oy = 0; oy < y_.h; ++oy)
        for (uint32_t ox = 0; ox < y_.w; ++ox) {
          double m = avg_ ? 0 : -INFINITY, mag = 0;
          for (uint32_t ky = 0; ky < ks_; ++ky)
            for (uint32_t kx = 0; kx < ks_; ++kx) {
              double v = x[(plane * x_.h + oy * stride_ + ky) * x_.w + ox * stride_ + kx];
              m = avg_ ? m + v : std::max(m, v);
              mag += std::fabs(v);
            }
          size_t i = (plane * y_.h + oy) * y_.w + ox;
          ref[i] = avg_ ? m / (ks_ * ks_) : m;
          bound[i] = avg_ ? sum_bound(ks_ * ks_ + 1, mag / (ks_ * ks_)) : 0;  // max is exact
        }
    expect_within(name() + ".output", y, ref, bound);
  }

 private:
  const Kernels& k_;
  Tensor x_, y_;
  uint32_t ks_, stride_;
  bool avg_;
};

/// Batch normalisation (inference) with optional ReLU.
class BatchNormLayer : public Layer {
 public:
  BatchNormLayer(std::string name, const Kernels& k, Tensor x, Tensor y, bool relu, std::vector<float> scale,
                 std::vector<float> shift, uint64_t dscale, uint64_t dshift)
      : Layer(std::move(name)), k_(k), x_(x), y_(y), relu_(relu), scale_(std::move(scale)), shift_(std::move(shift)),
        dscale_(dscale), dshift_(dshift) {}

  void run(Context& ctx) override {
    uint32_t total = uint32_t(y_.size()), relu = relu_;
    ctx.launch(k_.batchnorm, grid1(total), {256, 1, 1},
               {buf(x_.addr), buf(y_.addr), buf(dscale_), buf(dshift_), val(x_.c), val(x_.h * x_.w), val(total),
                val(relu)});
  }

  void verify(Context& ctx) const override {
    auto x = ctx.download<float>(x_.addr, x_.size());
    auto y = ctx.download<float>(y_.addr, y_.size());
    std::vector<double> ref(y.size()), bound(y.size());
    size_t hw = size_t(x_.h) * x_.w;
    for (size_t i = 0; i < y.size(); ++i) {
      size_t c = (i / hw) % x_.c;
      double p = double(x[i]) * scale_[c], v = p + shift_[c];
      ref[i] = relu_ ? std::max(v, 0.0) : v;
      bound[i] = sum_bound(2, std::fabs(p) + std::fabs(shift_[c]));
    }
    expect_within(name() + ".output", y, ref, bound);
  }

 private:
  const Kernels& k_;
  Tensor x_, y_;
  bool relu_;
  std::vector<float> scale_, shift_;
  uint64_t dscale_, dshift_;
};

/// Residual add.
class AddLayer : public Layer {
 public:
  AddLayer(std::string name, const Kernels& k, Tensor a, Tensor b, Tensor y, bool relu)
      : Layer(std::move(name)), k_(k), a_(a), b_(b), y_(y), relu_(relu) {}

  void run(Context& ctx) override {
    uint32_t total = uint32_t(y_.size()), relu = relu_;
    ctx.launch(k_.add, grid1(total), {256, 1, 1}, {buf(a_.addr), buf(b_.addr), buf(y_.addr), val(total), val(relu)});
  }

  void verify(Context& ctx) const override {
    auto a = ctx.download<float>(a_.addr, a_.size());
    auto b = ctx.download<float>(b_.addr, b_.size());
    std::vector<float> ref(a.size());
    for (size_t i = 0; i < a.size(); ++i) ref[i] = relu_ ? std::max(a[i] + b[i], 0.0f) : a[i] + b[i];
    expect_equal(name() + ".output", ctx.download<float>(y_.addr, y_.size()), ref);  // one rounding: exact
  }

 private:
  const Kernels& k_;
  Tensor a_, b_, y_;
  bool relu_;
};

/// Fully connected layer; weights stored input-major ([in][out]).
class FcLayer : public Layer {
 public:
  FcLayer(std::string name, const Kernels& k, Tensor x, Tensor y, bool relu, std::vector<float> w,
          std::vector<float> b, uint64_t dw, uint64_t db)
      : Layer(std::move(name)), k_(k), x_(x), y_(y), relu_(relu), w_(std::move(w)), b_(std::move(b)), dw_(dw),
        db_(db) {}

  void run(Context& ctx) override {
    uint32_t in = x_.c * x_.h * x_.w, relu = relu_;
    ctx.launch(k_.fc, {round_up(y_.c, 64), x_.n, 1}, {64, 1, 1},
               {buf(x_.addr), buf(dw_), buf(db_), buf(y_.addr), val(in), val(y_.c), val(relu)});
  }

  void verify(Context& ctx) const override {
    auto x = ctx.download<float>(x_.addr, x_.size());
    auto y = ctx.download<float>(y_.addr, y_.size());
    size_t in = size_t(x_.c) * x_.h * x_.w, out = y_.c;
    std::vector<double> ref(y.size()), acc(out), mag(out), bound(y.size());
    for (uint32_t img = 0; img < x_.n; ++img) {
      std::fill(acc.begin(), acc.end(), 0.0), std::fill(mag.begin(), mag.end(), 0.0);
      for (size_t i = 0; i < in; ++i) {
        double xv = x[img * in + i];
        const float* wr = &w_[i * out];
        for (size_t o = 0; o < out; ++o) {
          double t = xv * wr[o];
          acc[o] += t, mag[o] += std::fabs(t);
        }
      }
      for (size_t o = 0; o < out; ++o) {
        double v = acc[o] + b_[o];
        ref[img * out + o] = relu_ ? std::max(v, 0.0) : v;
        bound[img * out + o] = sum_bound(in + 1, mag[o] + std::fabs(b_[o]));
      }
    }
    expect_within(name() + ".output", y, ref, bound);
  }

 private:
  const Kernels& k_;
  Tensor x_, y_;
  bool relu_;
  std::vector<float> w_, b_;
  uint64_t dw_, db_;
};

/// Softmax per image.
class SoftmaxLayer : public Layer {
 public:
  SoftmaxLayer(std::string name, const Kernels& k, Tensor x, Tensor y) : Layer(std::move(name)), k_(k), x_(x), y_(y) {}

  void run(Context& ctx) override {
    uint32_t n = x_.c * x_.h * x_.w;
    ctx.launch(k_.softmax, {256 * x_.n, 1, 1}, {256, 1, 1}, {buf(x_.addr), buf(y_.addr), val(n), lds(256 * 4)});
  }

  void verify(Context& ctx) const override {
    auto x = ctx.download<float>(x_.addr, x_.size());
    size_t n = size_t(x_.c) * x_.h * x_.w;
    std::vector<float> ref(x.size());
    for (uint32_t img = 0; img < x_.n; ++img) {
      const float* r = &x[img * n];
      double m = *std::max_element(r, r + n), sum = 0;
      for (size_t i = 0; i < n; ++i) sum += std::exp(double(r[i]) - m);
      for (size_t i = 0; i < n; ++i) ref[img * n + i] = float(std::exp(double(r[i]) - m) / sum);
    }
    // exp goes through exp2(x * log2 e): the rounded product costs up to |x| * 2^-23 relative.
    expect_close(name() + ".output", ctx.download<float>(y_.addr, y_.size()), ref, 1e-4, 1e-9);
  }

 private:
  const Kernels& k_;
  Tensor x_, y_;
};

}  // namespace

Network::Network(Context& ctx, uint64_t seed, ConvAlgo algo) : ctx_(ctx), rng_(seed), algo_(algo) {
  k_ = {ctx.kernel("dnn", "im2col"), ctx.kernel("dnn", "gemm"),      ctx.kernel("dnn", "bias_act"),
        ctx.kernel("dnn", "conv_direct"), ctx.kernel("dnn", "pool"), ctx.kernel("dnn", "batchnorm"),
        ctx.kernel("dnn", "add"),     ctx.kernel("dnn", "fc"),        ctx.kernel("dnn", "softmax")};
}

Tensor Network::alloc(uint32_t n, uint32_t c, uint32_t h, uint32_t w) {
  Tensor t{n, c, h, w, 0};
  t.addr = ctx_.alloc<float>(t.size());
  return t;
}

std::vector<float> Network::uniform(size_t count, float lo, float hi) {
  std::vector<float> v(count);
  for (auto& x : v) x = rng_.uniform(lo, hi);
  return v;
}

Tensor Network::input(uint32_t n, uint32_t c, uint32_t h, uint32_t w) {
  Tensor t{n, c, h, w, 0};
  t.addr = ctx_.upload(uniform(t.size(), 0, 1));
  return t;
}

Tensor Network::conv(const std::string& name, const Tensor& x, uint32_t cout, uint32_t k, uint32_t stride,
                     uint32_t pad, bool relu) {
  Tensor y = alloc(x.n, cout, out_size(x.h, k, stride, pad, name), out_size(x.w, k, stride, pad, name));
  float a = std::sqrt(6.0f / float(x.c * k * k));  // He-uniform keeps activations O(1) through depth
  auto w = uniform(size_t(cout) * x.c * k * k, -a, a);
  auto b = uniform(cout, -0.1f, 0.1f);
  uint64_t dw = ctx_.upload(w), db = ctx_.upload(b), dcols = 0;
  if (algo_ == ConvAlgo::Gemm) dcols = ctx_.alloc<float>(size_t(x.n) * x.c * k * k * y.h * y.w);
  layers_.push_back(std::make_unique<ConvLayer>(name, k_, algo_, x, y, k, stride, pad, relu, std::move(w),
                                                std::move(b), dw, db, dcols));
  launches_ += algo_ == ConvAlgo::Gemm ? 3 : 1;
  return y;
}

Tensor Network::batchnorm(const std::string& name, const Tensor& x, bool relu) {
  Tensor y = alloc(x.n, x.c, x.h, x.w);
  std::vector<float> scale(x.c), shift(x.c);
  for (uint32_t c = 0; c < x.c; ++c) {
    float gamma = rng_.uniform(0.5f, 1.5f), beta = rng_.uniform(-0.1f, 0.1f);
    float mean = rng_.uniform(-0.1f, 0.1f), var = rng_.uniform(0.5f, 1.5f);
    scale[c] = gamma / std::sqrt(var + 1e-5f);
    shift[c] = beta - mean * scale[c];
  }
  uint64_t ds = ctx_.upload(scale), dh = ctx_.upload(shift);
  layers_.push_back(std::make_unique<BatchNormLayer>(name, k_, x, y, relu, std::move(scale), std::move(shift), ds, dh));
  ++launches_;
  return y;
}

Tensor Network::maxpool(const std::string& name, const Tensor& x, uint32_t k, uint32_t stride) {
  Tensor y = alloc(x.n, x.c, out_size(x.h, k, stride, 0, name), out_size(x.w, k, stride, 0, name));
  layers_.push_back(std::make_unique<PoolLayer>(name, k_, x, y, k, stride, false));
  ++launches_;
  return y;
}

Tensor Network::avgpool(const std::string& name, const Tensor& x, uint32_t k, uint32_t stride) {
  Tensor y = alloc(x.n, x.c, out_size(x.h, k, stride, 0, name), out_size(x.w, k, stride, 0, name));
  layers_.push_back(std::make_unique<PoolLayer>(name, k_, x, y, k, stride, true));
  ++launches_;
  return y;
}

Tensor Network::add(const std::string& name, const Tensor& a, const Tensor& b, bool relu) {
  Tensor y = alloc(a.n, a.c, a.h, a.w);
  layers_.push_back(std::make_unique<AddLayer>(name, k_, a, b, y, relu));
  ++launches_;
  return y;
}

Tensor Network::fc(const std::string& name, const Tensor& x, uint32_t out, bool relu) {
  uint32_t in = x.c * x.h * x.w;
  Tensor y = alloc(x.n, out, 1, 1);
  float a = std::sqrt(6.0f / float(in));
  auto w = uniform(size_t(in) * out, -a, a);
  auto b = uniform(out, -0.1f, 0.1f);
  uint64_t dw = ctx_.upload(w), db = ctx_.upload(b);
  layers_.push_back(std::make_unique<FcLayer>(name, k_, x, y, relu, std::move(w), std::move(b), dw, db));
  ++launches_;
  return y;
}

Tensor Network::softmax(const std::string& name, const Tensor& x) {
  Tensor y = alloc(x.n, x.c, x.h, x.w);
  layers_.push_back(std::make_unique<SoftmaxLayer>(name, k_, x, y));
  ++launches_;
  return y;
}

void Network::run(Context& ctx) {
  for (auto& l : layers_) l->run(ctx);
}

void Network::verify(Context& ctx) const {
  for (const auto& l : layers_) l->verify(ctx);
}

}  // namespace strobe::workloads::dnn
