// vgg16: VGG-16 inference (13 3x3 convolutions with ReLU, 5 max pools, 3 fully connected layers,
// softmax), every layer verified against a CPU reference from its own device input.
#include <memory>

#include <fmt/core.h>

#include "common/error.h"
#include "workloads/benchmark.h"
#include "workloads/dnn/network.h"

namespace strobe::workloads {
namespace {

/// VGG-16 (configuration D); `width` divides every channel count and FC width for reduced runs.
class Vgg16 : public Benchmark {
 public:
  explicit Vgg16(const Params& p)
      : batch_(uint32_t(p.i("batch"))), size_(uint32_t(p.i("input"))), div_(uint32_t(p.i("width_div"))),
        classes_(uint32_t(p.i("classes"))), algo_(p.i("direct") ? dnn::ConvAlgo::Direct : dnn::ConvAlgo::Gemm) {
    if (size_ % 32) throw InputError(fmt::format("vgg16: input={} must be a multiple of 32 (five 2x2 pools)", size_));
    if (64 % div_) throw InputError(fmt::format("vgg16: width_div={} must divide 64", div_));
  }

  void setup(Context& ctx) override {
    net_ = std::make_unique<dnn::Network>(ctx, 25, algo_);
    dnn::Tensor x = net_->input(batch_, 3, size_, size_);
    static const int kPlan[] = {64, 64, 0, 128, 128, 0, 256, 256, 256, 0, 512, 512, 512, 0, 512, 512, 512, 0};
    int block = 1, conv = 1, pool = 1;
    for (int c : kPlan) {
      if (c == 0) {
        x = net_->maxpool(fmt::format("pool{}", pool++), x, 2, 2);
        ++block, conv = 1;
      } else {
        x = net_->conv(fmt::format("conv{}_{}", block, conv++), x, uint32_t(c) / div_, 3, 1, 1, true);
      }
    }
    x = net_->fc("fc6", x, 4096 / div_, true);
    x = net_->fc("fc7", x, 4096 / div_, true);
    x = net_->fc("fc8", x, classes_, false);
    net_->softmax("prob", x);
    ctx.expect_launches(net_->launches());
  }

  void run(Context& ctx) override { net_->run(ctx); }
  void verify(Context& ctx) override { net_->verify(ctx); }

 private:
  uint32_t batch_, size_, div_, classes_;
  dnn::ConvAlgo algo_;
  std::unique_ptr<dnn::Network> net_;
};

}  // namespace

STROBE_BENCHMARK(Vgg16, "vgg16", "VGG-16 inference: im2col+GEMM convolutions, max pools, FC, softmax; per-layer checks",
                 {int_param("batch", 1, 1, 256, "images per batch"),
                  int_param("input", 32, 32, 224, "input height and width (multiple of 32)"),
                  int_param("width_div", 1, 1, 64, "divide every channel count and FC width by this").with_small(8),
                  int_param("classes", 1000, 1, 100000, "output classes").with_small(100),
                  int_param("direct", 0, 0, 1, "1: direct convolution kernels instead of im2col + GEMM")});

}  // namespace strobe::workloads
