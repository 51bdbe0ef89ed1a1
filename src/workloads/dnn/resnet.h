// ResNet inference on the DNN library: the shared network builder and benchmark
// class behind resnet18/34 (basic blocks) and resnet50/101/152 (bottleneck blocks, expansion 4).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "workloads/benchmark.h"
#include "workloads/dnn/net_params.h"
#include "workloads/dnn/network.h"

namespace strobe::workloads::dnn {

/// The residual block a ResNet stacks.
enum class ResBlock {
  Basic,      ///< two 3x3 convolutions (ResNet-18/34)
  Bottleneck  ///< 1x1 reduce, 3x3, 1x1 expand to 4x the width
              ///< (ResNet-50/101/152)
};

/// One ResNet depth: its name, block type, blocks per stage and weight seed.
struct ResNetSpec {
  const char* name;
  ResBlock block;
  std::array<int, 4> blocks;
  uint64_t seed;
};

/// A ResNet inference benchmark: 7x7/2 stem, four stages, global average pool, FC, softmax.
class ResNet : public Benchmark {
 public:
  ResNet(const NetParams& p, const ResNetSpec& spec);
  void setup(Context& ctx) override;
  void run(Context& ctx) override { net_->run(ctx); }
  void verify(Context& ctx) override { net_->verify(ctx); }

 private:
  ResNetSpec spec_;
  uint32_t batch_, size_, div_, classes_;
  ConvAlgo algo_;
  std::unique_ptr<Network> net_;
};

/// The parameters every ResNet benchmark declares, with the given quick-test input, width divisor and algorithm.
std::vector<ParamField<NetParams>> resnet_params(int64_t small_input, int64_t small_div, bool small_direct);

}  // namespace strobe::workloads::dnn
