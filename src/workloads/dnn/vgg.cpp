// VGG builder: five blocks of 3x3 convolutions (64, 128, 256, 512, 512
// channels) and max pools, then the FC head.
#include "workloads/dnn/vgg.h"

#include <fmt/core.h>

#include <utility>

#include "common/error.h"

namespace strobe::workloads::dnn {

Vgg::Vgg(const NetParams& p, VggSpec spec)
    : spec_(std::move(spec)),
      batch_(uint32_t(p.batch)),
      size_(uint32_t(p.input)),
      div_(uint32_t(p.width_div)),
      classes_(uint32_t(p.classes)),
      algo_(p.direct ? ConvAlgo::Direct : ConvAlgo::Gemm) {
  if (size_ % 32)
    throw InputError(fmt::format("{}: input={} must be a multiple of 32 (five 2x2 pools)", spec_.name, size_));
  if (64 % div_) throw InputError(fmt::format("{}: width_div={} must divide 64", spec_.name, div_));
}

void Vgg::setup(Context& ctx) {
  net_ = std::make_unique<Network>(ctx, spec_.seed, algo_);
  Tensor x = net_->input(batch_, 3, size_, size_);
  static const uint32_t kChannels[] = {64, 128, 256, 512, 512};
  for (int block = 0; block < 5; ++block) {
    for (int conv = 0; conv < spec_.convs[block]; ++conv)
      x = net_->conv(fmt::format("conv{}_{}", block + 1, conv + 1), x, kChannels[block] / div_, 3, 1, 1, true);
    x = net_->maxpool(fmt::format("pool{}", block + 1), x, 2, 2);
  }
  x = net_->fc("fc6", x, 4096 / div_, true);
  x = net_->fc("fc7", x, 4096 / div_, true);
  x = net_->fc("fc8", x, classes_, false);
  net_->softmax("prob", x);
  ctx.expect_launches(net_->launches());
}

std::vector<ParamField<NetParams>> vgg_params() {
  return {int_param(STROBE_FIELD(NetParams, batch), 1, 1, 256, "images per batch"),
          int_param(STROBE_FIELD(NetParams, input), 224, 32, 224, "input height and width (multiple of 32)").with_small(32),
          int_param(STROBE_FIELD(NetParams, width_div), 1, 1, 64, "divide every channel count and FC width by this").with_small(8),
          int_param(STROBE_FIELD(NetParams, classes), 1000, 1, 100000, "output classes").with_small(100),
          int_param(STROBE_FIELD(NetParams, direct), 0, 0, 1, "1: direct convolution kernels instead of im2col + GEMM")};
}

}  // namespace strobe::workloads::dnn
