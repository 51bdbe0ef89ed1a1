// VGG inference on the DNN library: the shared benchmark class behind vgg16 and vgg19.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "workloads/benchmark.h"
#include "workloads/dnn/net_params.h"
#include "workloads/dnn/network.h"

namespace strobe::workloads::dnn {

/// One VGG configuration: its name, convolutions per block (five blocks, each
/// ending in a 2x2 max pool), seed.
struct VggSpec {
  const char* name;
  std::vector<int> convs;
  uint64_t seed;
};

/// A VGG inference benchmark: 3x3 convolutions with ReLU, five max pools, fc6/fc7/fc8, softmax.
class Vgg : public Benchmark {
 public:
  Vgg(const NetParams& p, VggSpec spec);
  void setup(Context& ctx) override;
  void run(Context& ctx) override { net_->run(ctx); }
  void verify(Context& ctx) override { net_->verify(ctx); }

 private:
  VggSpec spec_;
  uint32_t batch_, size_, div_, classes_;
  ConvAlgo algo_;
  std::unique_ptr<Network> net_;
};

/// The parameters every VGG benchmark declares.
std::vector<ParamField<NetParams>> vgg_params();

}  // namespace strobe::workloads::dnn
