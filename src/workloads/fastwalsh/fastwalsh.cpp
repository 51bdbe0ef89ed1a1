// fastwalsh: the fast Walsh-Hadamard transform, one launch per butterfly stage.
#include <bit>
#include <vector>

#include "workloads/benchmark.h"
#include "workloads/context.h"
#include "workloads/rng.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

/// fastwalsh's parameters, bound to their declarations in STROBE_BENCHMARK below.
struct FastWalshParams {
  int64_t n = 0;
};

/// In-place FWHT (AMD APP SDK FastWalshTransform): log2(n) dependent launches.
class FastWalsh : public Benchmark {
 public:
  explicit FastWalsh(const FastWalshParams& p) : n_(uint32_t(p.n)) {
    if (!std::has_single_bit(n_)) throw InputError(fmt::format("fastwalsh: n={} must be a power of two", n_));
  }

  void setup(Context& ctx) override {
    // Small integers: every partial sum stays below 2^24, so float arithmetic is exact.
    Rng rng(7);
    in_.resize(n_);
    for (auto& v : in_) v = float(int(rng.below(17)) - 8);
    da_ = ctx.upload(in_);
    k_ = ctx.kernel("fastwalsh", "fastwalsh");
    ctx.expect_launches(std::countr_zero(n_));
  }

  void run(Context& ctx) override {
    uint32_t half = n_ / 2;
    for (uint32_t step = 1; step < n_; step <<= 1)
      ctx.launch(k_, {half, 1, 1}, {std::min<uint32_t>(half, 256), 1, 1}, {buf(da_), val(step)});
  }

  void verify(Context& ctx) override {
    std::vector<float> ref = in_;
    for (uint32_t step = 1; step < n_; step <<= 1)
      for (uint32_t i = 0; i < n_; i += 2 * step)
        for (uint32_t j = i; j < i + step; ++j) {
          float a = ref[j], b = ref[j + step];
          ref[j] = a + b, ref[j + step] = a - b;
        }
    expect_equal("a", ctx.download<float>(da_, n_), ref);
  }

 private:
  uint32_t n_;
  std::vector<float> in_;
  uint64_t da_ = 0;
  Kernel k_;
};

}  // namespace

STROBE_BENCHMARK(FastWalsh, "fastwalsh", "Fast Walsh-Hadamard transform, one launch per butterfly stage",
                 {int_param(STROBE_FIELD(FastWalshParams, n), 1 << 18, 2, 1 << 22, "elements (power of two; exact up to 2^22)").with_small(1024)});

}  // namespace strobe::workloads
