// ResNet builder: stem, basic or bottleneck stages with projection shortcuts, head.
#include "workloads/dnn/resnet.h"

#include <fmt/core.h>

#include "common/error.h"

namespace strobe::workloads::dnn {
namespace {

/// Convolution `conv` (no ReLU) followed by batch norm `bn` with optional ReLU: the unit every block repeats.
Tensor conv_bn(Network& net, const std::string& conv, const std::string& bn, const Tensor& x, uint32_t cout, uint32_t k,
               uint32_t stride, bool relu) {
  return net.batchnorm(bn, net.conv(conv, x, cout, k, stride, k / 2, false), relu);
}

/// One residual block of `width` channels (4x that out for bottlenecks): body, shortcut, add + ReLU.
Tensor block(Network& net, const std::string& n, const Tensor& x, ResBlock kind, uint32_t width, uint32_t stride) {
  Tensor y;
  uint32_t out = width;
  if (kind == ResBlock::Basic) {
    y = conv_bn(net, n + ".conv1", n + ".bn1", x, width, 3, stride, true);
    y = conv_bn(net, n + ".conv2", n + ".bn2", y, width, 3, 1, false);
  } else {
    out = 4 * width;
    y = conv_bn(net, n + ".conv1", n + ".bn1", x, width, 1, 1, true);
    // stride on the 3x3 convolution (torchvision v1.5)
    y = conv_bn(net, n + ".conv2", n + ".bn2", y, width, 3, stride, true);
    y = conv_bn(net, n + ".conv3", n + ".bn3", y, out, 1, 1, false);
  }
  Tensor shortcut = x;
  if (stride != 1 || x.c != out)  // projection shortcut: 1x1 convolution + batch norm
    shortcut = conv_bn(net, n + ".down", n + ".down.bn", x, out, 1, stride, false);
  return net.add(n + ".add", y, shortcut, true);
}

}  // namespace

ResNet::ResNet(const NetParams& p, const ResNetSpec& spec)
    : spec_(spec),
      batch_(uint32_t(p.batch)),
      size_(uint32_t(p.input)),
      div_(uint32_t(p.width_div)),
      classes_(uint32_t(p.classes)),
      algo_(p.direct ? ConvAlgo::Direct : ConvAlgo::Gemm) {
  if (64 % div_) throw InputError(fmt::format("{}: width_div={} must divide 64", spec_.name, div_));
}

void ResNet::setup(Context& ctx) {
  net_ = std::make_unique<Network>(ctx, spec_.seed, algo_);
  Tensor x = net_->input(batch_, 3, size_, size_);
  x = net_->batchnorm("bn1", net_->conv("conv1", x, 64 / div_, 7, 2, 3, false), true);
  x = net_->maxpool("pool1", x, 3, 2);
  for (int stage = 0; stage < 4; ++stage)
    for (int b = 0; b < spec_.blocks[stage]; ++b) {
      uint32_t stride = (stage > 0 && b == 0) ? 2 : 1;
      x = block(*net_, fmt::format("layer{}.{}", stage + 1, b), x, spec_.block, (64u << stage) / div_, stride);
    }
  x = net_->avgpool("avgpool", x, x.h, x.h);
  x = net_->fc("fc", x, classes_, false);
  net_->softmax("prob", x);
  ctx.expect_launches(net_->launches());
}

std::vector<ParamField<NetParams>> resnet_params(int64_t small_input, int64_t small_div, bool small_direct) {
  return {int_param(STROBE_FIELD(NetParams, batch), 1, 1, 256, "images per batch"),
          int_param(STROBE_FIELD(NetParams, input), 224, 32, 224, "input height and width").with_small(double(small_input)),
          int_param(STROBE_FIELD(NetParams, width_div), 1, 1, 64, "divide every channel count by this").with_small(double(small_div)),
          int_param(STROBE_FIELD(NetParams, classes), 1000, 1, 100000, "output classes").with_small(100),
          int_param(STROBE_FIELD(NetParams, direct), 0, 0, 1, "1: direct convolution kernels instead of im2col + GEMM")
              .with_small(small_direct ? 1 : 0)};
}

}  // namespace strobe::workloads::dnn
