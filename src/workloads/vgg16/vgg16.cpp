// vgg16: VGG-16 inference (13 3x3 convolutions with ReLU, 5 max pools, 3 fully
// connected layers, softmax), every layer verified against a CPU reference from its own device input.
#include "workloads/dnn/vgg.h"

namespace strobe::workloads {
namespace {

/// VGG-16 (configuration D): 2, 2, 3, 3, 3 convolutions per block.
class Vgg16 : public dnn::Vgg {
 public:
  explicit Vgg16(const dnn::NetParams& p) : Vgg(p, {"vgg16", {2, 2, 3, 3, 3}, 25}) {}
};

}  // namespace

STROBE_BENCHMARK(Vgg16, "vgg16", "VGG-16 inference: im2col+GEMM convolutions, max pools, FC, softmax; per-layer checks",
                 (dnn::vgg_params()));

}  // namespace strobe::workloads
