// resnet18: ResNet-18 inference (7x7 stem, four stages of two basic blocks with batch norm and residual adds,
// global average pool, FC, softmax), every layer verified against a CPU reference from its own device input.
#include "workloads/dnn/resnet.h"

namespace strobe::workloads {
namespace {

/// ResNet-18: 2, 2, 2, 2 blocks per stage.
class ResNet18 : public dnn::ResNet {
 public:
  explicit ResNet18(const dnn::NetParams& p) : ResNet(p, {"resnet18", dnn::ResBlock::Basic, {2, 2, 2, 2}, 26}) {}
};

}  // namespace

STROBE_BENCHMARK(ResNet18, "resnet18",
                 "ResNet-18 inference: convolutions, batch norm, residual adds, max/avg pools, FC, softmax",
                 (dnn::resnet_params(64, 8, false)));

}  // namespace strobe::workloads
