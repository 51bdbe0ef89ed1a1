// The parameters every DNN benchmark (resnet*, vgg*) declares, as one struct.
#pragma once

#include <cstdint>

#include "workloads/params.h"

namespace strobe::workloads::dnn {

/// Batch, input size, width divisor, output classes and convolution algorithm of a network;
/// resnet_params() and vgg_params() bind the fields to their declarations.
struct NetParams {
  int64_t batch = 0, input = 0, width_div = 0, classes = 0, direct = 0;
};

}  // namespace strobe::workloads::dnn
