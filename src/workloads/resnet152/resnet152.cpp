// resnet152: ResNet-152 inference (7x7 stem, 50 bottleneck blocks in four stages with 1x1/3x3/1x1 convolutions,
// batch norm and residual adds, global average pool, FC, softmax), every layer verified against a CPU reference
// from its own device input.
#include "workloads/dnn/resnet.h"

namespace strobe::workloads {
namespace {

/// ResNet-152: 3, 8, 36, 3 blocks per stage.
class ResNet152 : public dnn::ResNet {
 public:
  explicit ResNet152(const dnn::NetParams& p) : ResNet(p, {"resnet152", dnn::ResBlock::Bottleneck, {3, 8, 36, 3}, 30}) {}
};

}  // namespace

STROBE_BENCHMARK(
    ResNet152, "resnet152",
    "ResNet-152 inference: 50 bottleneck blocks [3,8,36,3] (1x1/3x3/1x1), batch norm, residual adds, FC, softmax",
    (dnn::resnet_params(64, 16, true)));

}  // namespace strobe::workloads
