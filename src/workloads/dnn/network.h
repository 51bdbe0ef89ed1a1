// A small DNN inference library on top of the run context: NCHW tensors, layers that own their
// seeded weights, launch their kernels and verify themselves against a CPU reference computed
// from the device's own layer input (so one wrong layer is named, not smeared over the rest).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "workloads/context.h"
#include "workloads/rng.h"

namespace strobe::workloads::dnn {

/// A 4-D float tensor in device memory, NCHW.
struct Tensor {
  uint32_t n = 0, c = 0, h = 0, w = 0;
  uint64_t addr = 0;
  /// Number of elements.
  size_t size() const { return size_t(n) * c * h * w; }
};

/// How convolutions are computed.
enum class ConvAlgo {
  Gemm,   ///< im2col + tiled GEMM + bias/activation (three launches; the common framework path)
  Direct  ///< one direct-convolution kernel with bias and activation fused
};

/// One layer: launches its kernels in run(), checks its output in verify().
class Layer {
 public:
  explicit Layer(std::string name) : name_(std::move(name)) {}
  virtual ~Layer() = default;
  /// Launches the layer's kernels.
  virtual void run(Context& ctx) = 0;
  /// Throws VerificationError naming the layer's output and the first bad element.
  virtual void verify(Context& ctx) const = 0;
  /// The layer's name in verification messages, e.g. "conv3_2".
  const std::string& name() const { return name_; }

 private:
  std::string name_;
};

/// The DNN kernels, loaded once per network.
struct Kernels {
  Kernel im2col, gemm, bias_act, conv_direct, pool, batchnorm, add, fc, softmax;
};

/// A feed-forward network built layer by layer; each builder call allocates the output tensor,
/// generates the layer's parameters from the network's seed and returns the output.
class Network {
 public:
  Network(Context& ctx, uint64_t seed, ConvAlgo algo);

  /// A random input batch, values uniform in [0, 1).
  Tensor input(uint32_t n, uint32_t c, uint32_t h, uint32_t w);
  /// k x k convolution to `cout` channels with bias, optional ReLU (He-uniform weights).
  Tensor conv(const std::string& name, const Tensor& x, uint32_t cout, uint32_t k, uint32_t stride, uint32_t pad,
              bool relu);
  /// Batch normalisation in inference form (running statistics folded into a scale and shift).
  Tensor batchnorm(const std::string& name, const Tensor& x, bool relu);
  /// Max pooling over k x k windows.
  Tensor maxpool(const std::string& name, const Tensor& x, uint32_t k, uint32_t stride);
  /// Average pooling over k x k windows.
  Tensor avgpool(const std::string& name, const Tensor& x, uint32_t k, uint32_t stride);
  /// Residual add a + b, optional ReLU.
  Tensor add(const std::string& name, const Tensor& a, const Tensor& b, bool relu);
  /// Fully connected layer over the flattened c*h*w features, optional ReLU.
  Tensor fc(const std::string& name, const Tensor& x, uint32_t out, bool relu);
  /// Softmax over the flattened features of each image.
  Tensor softmax(const std::string& name, const Tensor& x);

  /// Launches every layer in order.
  void run(Context& ctx);
  /// Verifies every layer in order.
  void verify(Context& ctx) const;
  /// Launches one run() makes.
  size_t launches() const { return launches_; }

 private:
  Tensor alloc(uint32_t n, uint32_t c, uint32_t h, uint32_t w);
  std::vector<float> uniform(size_t count, float lo, float hi);

  Context& ctx_;
  Rng rng_;
  ConvAlgo algo_;
  Kernels k_;
  std::vector<std::unique_ptr<Layer>> layers_;
  size_t launches_ = 0;
};

}  // namespace strobe::workloads::dnn
