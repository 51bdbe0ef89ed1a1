// sc: 2D convolution of an image with a square mask (AMD APP SDK SimpleConvolution).
#include <vector>

#include "workloads/benchmark.h"
#include "workloads/context.h"
#include "workloads/rng.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

/// sc's parameters, bound to their declarations in STROBE_BENCHMARK below.
struct SimpleConvolutionParams {
  int64_t width = 0, height = 0, mask = 0;
};

/// 2D convolution, zero outside the image; one work-item per output pixel.
class SimpleConvolution : public Benchmark {
 public:
  explicit SimpleConvolution(const SimpleConvolutionParams& p)
      : w_(uint32_t(p.width)), h_(uint32_t(p.height)), m_(uint32_t(p.mask)) {
    if (m_ % 2 == 0) throw InputError(fmt::format("sc: mask={} must be odd", m_));
  }

  void setup(Context& ctx) override {
    Rng rng(4);
    in_.resize(size_t(w_) * h_);
    for (auto& v : in_) v = rng.uniform(0, 1);
    mask_.resize(m_ * m_);
    for (auto& v : mask_) v = rng.uniform(-1, 1) / float(m_ * m_);
    din_ = ctx.upload(in_), dmask_ = ctx.upload(mask_), dout_ = ctx.alloc<float>(in_.size());
    k_ = ctx.kernel("sc", "sc");
    ctx.expect_launches(1);
  }

  void run(Context& ctx) override {
    ctx.launch(k_, {round_up(w_, 16), round_up(h_, 16), 1}, {16, 16, 1},
               {buf(din_), buf(dmask_), buf(dout_), val(w_), val(h_), val(m_)});
  }

  void verify(Context& ctx) override {
    std::vector<float> ref(in_.size());
    int r = int(m_) / 2;
    for (int y = 0; y < int(h_); ++y)
      for (int x = 0; x < int(w_); ++x) {
        float acc = 0;
        for (int j = 0; j < int(m_); ++j)
          for (int i = 0; i < int(m_); ++i) {
            int yy = y + j - r, xx = x + i - r;
            if (yy >= 0 && yy < int(h_) && xx >= 0 && xx < int(w_)) acc += mask_[j * m_ + i] * in_[yy * w_ + xx];
          }
        ref[size_t(y) * w_ + x] = acc;
      }
    // Same summation order; only multiply-add fusion may differ, and every term is below 1/mask^2.
    expect_close("out", ctx.download<float>(dout_, in_.size()), ref, 1e-5, 1e-6);
  }

 private:
  uint32_t w_, h_, m_;
  std::vector<float> in_, mask_;
  uint64_t din_ = 0, dmask_ = 0, dout_ = 0;
  Kernel k_;
};

}  // namespace

STROBE_BENCHMARK(SimpleConvolution, "sc", "2D convolution of an image with a square mask (APP SDK SimpleConvolution)",
                 {int_param(STROBE_FIELD(SimpleConvolutionParams, width), 512, 1, 16384, "image width").with_small(67),
                  int_param(STROBE_FIELD(SimpleConvolutionParams, height), 512, 1, 16384, "image height").with_small(45),
                  int_param(STROBE_FIELD(SimpleConvolutionParams, mask), 5, 1, 31, "mask width and height (odd)")});

}  // namespace strobe::workloads
