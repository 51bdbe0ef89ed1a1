// vecadd: c = a + b.
#include <vector>

#include "workloads/benchmark.h"
#include "workloads/context.h"
#include "workloads/rng.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

/// vecadd's parameters, bound to their declarations in STROBE_BENCHMARK below.
struct VecAddParams {
  int64_t n = 0;
};

/// Vector addition: the simplest streaming kernel, a baseline for memory-bound behaviour.
class VecAdd : public Benchmark {
 public:
  explicit VecAdd(const VecAddParams& p) : n_(uint32_t(p.n)) {}

  void setup(Context& ctx) override {
    Rng rng(3);
    a_.resize(n_), b_.resize(n_);
    for (uint32_t i = 0; i < n_; ++i) a_[i] = rng.uniform(-100, 100), b_[i] = rng.uniform(-100, 100);
    da_ = ctx.upload(a_), db_ = ctx.upload(b_), dc_ = ctx.alloc<float>(n_);
    k_ = ctx.kernel("vecadd", "vecadd");
    ctx.expect_launches(1);
  }

  void run(Context& ctx) override {
    ctx.launch(k_, {round_up(n_, 256), 1, 1}, {256, 1, 1}, {buf(da_), buf(db_), buf(dc_), val(n_)});
  }

  void verify(Context& ctx) override {
    std::vector<float> ref(n_);
    for (uint32_t i = 0; i < n_; ++i) ref[i] = a_[i] + b_[i];
    expect_equal("c", ctx.download<float>(dc_, n_), ref);  // one IEEE add: bit-exact
  }

 private:
  uint32_t n_;
  std::vector<float> a_, b_;
  uint64_t da_ = 0, db_ = 0, dc_ = 0;
  Kernel k_;
};

}  // namespace

STROBE_BENCHMARK(VecAdd, "vecadd", "Vector addition c = a + b (streaming baseline)",
                 {int_param(STROBE_FIELD(VecAddParams, n), 1 << 20, 1, 1 << 28, "elements").with_small(5000)});

}  // namespace strobe::workloads
