// resnet101: ResNet-101 inference (7x7 stem, 33 bottleneck blocks in four stages with 1x1/3x3/1x1 convolutions,
// batch norm and residual adds, global average pool, FC, softmax), every layer verified against a CPU reference
// from its own device input.
#include "workloads/dnn/resnet.h"

namespace strobe::workloads {
namespace {

/// ResNet-101: 3, 4, 23, 3 blocks per stage.
class ResNet101 : public dnn::ResNet {
 public:
  explicit ResNet101(const dnn::NetParams& p) : ResNet(p, {"resnet101", dnn::ResBlock::Bottleneck, {3, 4, 23, 3}, 29}) {}
};

}  // namespace

STROBE_BENCHMARK(
    ResNet101, "resnet101",
    "ResNet-101 inference: 33 bottleneck blocks [3,4,23,3] (1x1/3x3/1x1), batch norm, residual adds, FC, softmax",
    (dnn::resnet_params(64, 16, true)));

}  // namespace strobe::workloads
