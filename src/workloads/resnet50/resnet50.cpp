// resnet50: ResNet-50 inference (7x7 stem, 16 bottleneck blocks in four stages with 1x1/3x3/1x1 convolutions,
// batch norm and residual adds, global average pool, FC, softmax), every layer verified against a CPU reference
// from its own device input.
#include "workloads/dnn/resnet.h"

namespace strobe::workloads {
namespace {

/// ResNet-50: 3, 4, 6, 3 blocks per stage.
class ResNet50 : public dnn::ResNet {
 public:
  explicit ResNet50(const dnn::NetParams& p) : ResNet(p, {"resnet50", dnn::ResBlock::Bottleneck, {3, 4, 6, 3}, 28}) {}
};

}  // namespace

STROBE_BENCHMARK(
    ResNet50, "resnet50",
    "ResNet-50 inference: 16 bottleneck blocks [3,4,6,3] (1x1/3x3/1x1), batch norm, residual adds, FC, softmax",
    (dnn::resnet_params(64, 8, false)));

}  // namespace strobe::workloads
