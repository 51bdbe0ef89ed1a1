// transpose: out = in^T through padded LDS tiles.
#include <vector>

#include "workloads/benchmark.h"
#include "workloads/context.h"
#include "workloads/rng.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

/// transpose's parameters, bound to their declarations in STROBE_BENCHMARK below.
struct TransposeParams {
  int64_t width = 0, height = 0;
};

/// Matrix transpose: memory-bound, with LDS staging so reads and writes both coalesce.
class Transpose : public Benchmark {
 public:
  explicit Transpose(const TransposeParams& p) : w_(uint32_t(p.width)), h_(uint32_t(p.height)) {}

  void setup(Context& ctx) override {
    Rng rng(6);
    in_.resize(size_t(w_) * h_);
    for (auto& v : in_) v = rng.uniform(-1000, 1000);
    din_ = ctx.upload(in_), dout_ = ctx.alloc<float>(in_.size());
    k_ = ctx.kernel("transpose", "transpose");
    ctx.expect_launches(1);
  }

  void run(Context& ctx) override {
    ctx.launch(k_, {round_up(w_, 16), round_up(h_, 16), 1}, {16, 16, 1}, {buf(din_), buf(dout_), val(w_), val(h_)});
  }

  void verify(Context& ctx) override {
    std::vector<float> ref(in_.size());
    for (uint32_t y = 0; y < h_; ++y)
      for (uint32_t x = 0; x < w_; ++x) ref[size_t(x) * h_ + y] = in_[size_t(y) * w_ + x];
    expect_equal("out", ctx.download<float>(dout_, ref.size()), ref);
  }

 private:
  uint32_t w_, h_;
  std::vector<float> in_;
  uint64_t din_ = 0, dout_ = 0;
  Kernel k_;
};

}  // namespace

STROBE_BENCHMARK(Transpose, "transpose", "Matrix transpose through padded 16x16 LDS tiles",
                 {int_param(STROBE_FIELD(TransposeParams, width), 1024, 1, 16384, "input columns").with_small(70),
                  int_param(STROBE_FIELD(TransposeParams, height), 1024, 1, 16384, "input rows").with_small(45)});

}  // namespace strobe::workloads
