// resnet18: ResNet-18 inference (7x7 stem, four stages of two basic blocks with batch norm and
// residual adds, global average pool, FC, softmax), every layer verified on its own input.
#include <memory>

#include <fmt/core.h>

#include "common/error.h"
#include "workloads/benchmark.h"
#include "workloads/dnn/network.h"

namespace strobe::workloads {
namespace {

/// ResNet-18; `width_div` divides every channel count for reduced runs.
class ResNet18 : public Benchmark {
 public:
  explicit ResNet18(const Params& p)
      : batch_(uint32_t(p.i("batch"))), size_(uint32_t(p.i("input"))), div_(uint32_t(p.i("width_div"))),
        classes_(uint32_t(p.i("classes"))), algo_(p.i("direct") ? dnn::ConvAlgo::Direct : dnn::ConvAlgo::Gemm) {
    if (64 % div_) throw InputError(fmt::format("resnet18: width_div={} must divide 64", div_));
  }

  void setup(Context& ctx) override {
    net_ = std::make_unique<dnn::Network>(ctx, 26, algo_);
    dnn::Tensor x = net_->input(batch_, 3, size_, size_);
    x = net_->batchnorm("bn1", net_->conv("conv1", x, 64 / div_, 7, 2, 3, false), true);
    x = net_->maxpool("pool1", x, 3, 2);
    uint32_t channels[] = {64, 128, 256, 512};
    for (int stage = 0; stage < 4; ++stage)
      for (int blk = 0; blk < 2; ++blk) {
        uint32_t c = channels[stage] / div_, stride = (stage > 0 && blk == 0) ? 2 : 1;
        std::string n = fmt::format("layer{}.{}", stage + 1, blk);
        dnn::Tensor y = net_->batchnorm(n + ".bn1", net_->conv(n + ".conv1", x, c, 3, stride, 1, false), true);
        y = net_->batchnorm(n + ".bn2", net_->conv(n + ".conv2", y, c, 3, 1, 1, false), false);
        dnn::Tensor shortcut = x;
        if (stride != 1 || x.c != c)  // projection shortcut: 1x1 convolution + batch norm
          shortcut = net_->batchnorm(n + ".down.bn", net_->conv(n + ".down", x, c, 1, stride, 0, false), false);
        x = net_->add(n + ".add", y, shortcut, true);
      }
    x = net_->avgpool("avgpool", x, x.h, x.h);
    x = net_->fc("fc", x, classes_, false);
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

STROBE_BENCHMARK(ResNet18, "resnet18",
                 "ResNet-18 inference: convolutions, batch norm, residual adds, max/avg pools, FC, softmax",
                 {int_param("batch", 1, 1, 256, "images per batch"),
                  int_param("input", 64, 64, 224, "input height and width").with_small(64),
                  int_param("width_div", 1, 1, 64, "divide every channel count by this").with_small(8),
                  int_param("classes", 1000, 1, 100000, "output classes").with_small(100),
                  int_param("direct", 0, 0, 1, "1: direct convolution kernels instead of im2col + GEMM")});

}  // namespace strobe::workloads
