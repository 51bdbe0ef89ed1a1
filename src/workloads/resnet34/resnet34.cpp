// resnet34: ResNet-34 inference (7x7 stem, 16 basic blocks in four stages with batch norm and residual adds,
// global average pool, FC, softmax), every layer verified against a CPU reference from its own device input.
#include "workloads/dnn/resnet.h"

namespace strobe::workloads {
namespace {

/// ResNet-34: 3, 4, 6, 3 blocks per stage.
class ResNet34 : public dnn::ResNet {
 public:
  explicit ResNet34(const dnn::NetParams& p) : ResNet(p, {"resnet34", dnn::ResBlock::Basic, {3, 4, 6, 3}, 27}) {}
};

}  // namespace

STROBE_BENCHMARK(ResNet34, "resnet34",
                 "ResNet-34 inference: 16 basic blocks [3,4,6,3], batch norm, residual adds, pools, FC, softmax",
                 (dnn::resnet_params(64, 8, false)));

}  // namespace strobe::workloads
