// relu: y = max(x, 0) over a tensor.
#include <algorithm>
#include <vector>

#include "workloads/benchmark.h"
#include "workloads/context.h"
#include "workloads/rng.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

/// relu's parameters, bound to their declarations in STROBE_BENCHMARK below.
struct ReluParams {
  int64_t n = 0;
};

/// Element-wise ReLU: a purely memory-bound single kernel.
class Relu : public Benchmark {
 public:
  explicit Relu(const ReluParams& p) : n_(uint32_t(p.n)) {}

  void setup(Context& ctx) override {
    Rng rng(2);
    x_.resize(n_);
    for (auto& v : x_) v = rng.uniform(-1, 1);
    dx_ = ctx.upload(x_), dy_ = ctx.alloc<float>(n_);
    k_ = ctx.kernel("relu", "relu");
    ctx.expect_launches(1);
  }

  void run(Context& ctx) override {
    ctx.launch(k_, {round_up(n_, 256), 1, 1}, {256, 1, 1}, {buf(dx_), buf(dy_), val(n_)});
  }

  void verify(Context& ctx) override {
    std::vector<float> ref(n_);
    for (uint32_t i = 0; i < n_; ++i) ref[i] = std::max(x_[i], 0.0f);
    expect_equal("y", ctx.download<float>(dy_, n_), ref);
  }

 private:
  uint32_t n_;
  std::vector<float> x_;
  uint64_t dx_ = 0, dy_ = 0;
  Kernel k_;
};

}  // namespace

STROBE_BENCHMARK(Relu, "relu", "Element-wise ReLU y = max(x, 0) (memory-bound)",
                 {int_param(STROBE_FIELD(ReluParams, n), 1 << 20, 1, 1 << 28, "elements").with_small(5000)});

}  // namespace strobe::workloads
