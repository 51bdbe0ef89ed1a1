// vgg19: VGG-19 inference (16 3x3 convolutions with ReLU, 5 max pools, 3 fully
// connected layers, softmax), every layer verified against a CPU reference from its own device input.
#include "workloads/dnn/vgg.h"

namespace strobe::workloads {
namespace {

/// VGG-19 (configuration E): 2, 2, 4, 4, 4 convolutions per block.
class Vgg19 : public dnn::Vgg {
 public:
  explicit Vgg19(const dnn::NetParams& p) : Vgg(p, {"vgg19", {2, 2, 4, 4, 4}, 27}) {}
};

}  // namespace

STROBE_BENCHMARK(Vgg19, "vgg19", "VGG-19 inference: im2col+GEMM convolutions, max pools, FC, softmax; per-layer checks",
                 (dnn::vgg_params()));

}  // namespace strobe::workloads
