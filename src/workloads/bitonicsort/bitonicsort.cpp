// bitonicsort: a bitonic sorting network, one launch per (stage, pass).
#include <algorithm>
#include <bit>
#include <vector>

#include "workloads/benchmark.h"
#include "workloads/context.h"
#include "workloads/rng.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

/// bitonicsort's parameters, bound to their declarations in STROBE_BENCHMARK below.
struct BitonicSortParams {
  int64_t n = 0;
};

/// Bitonic sort (AMD APP SDK BitonicSort): log2(n)(log2(n)+1)/2 short dependent launches.
class BitonicSort : public Benchmark {
 public:
  explicit BitonicSort(const BitonicSortParams& p) : n_(uint32_t(p.n)) {
    if (!std::has_single_bit(n_)) throw InputError(fmt::format("bitonicsort: n={} must be a power of two", n_));
  }

  void setup(Context& ctx) override {
    Rng rng(23);
    keys_.resize(n_);
    for (auto& k : keys_) k = rng.u32();
    dkeys_ = ctx.upload(keys_);
    k_ = ctx.kernel("bitonicsort", "bitonic_step");
    uint32_t stages = std::countr_zero(n_);
    ctx.expect_launches(stages * (stages + 1) / 2);
  }

  void run(Context& ctx) override {
    uint32_t half = n_ / 2, stages = std::countr_zero(n_);
    for (uint32_t stage = 0; stage < stages; ++stage)
      for (uint32_t pass = 0; pass <= stage; ++pass)
        ctx.launch(k_, {half, 1, 1}, {std::min<uint32_t>(half, 256), 1, 1}, {buf(dkeys_), val(stage), val(pass)});
  }

  void verify(Context& ctx) override {
    std::vector<uint32_t> ref = keys_;
    std::sort(ref.begin(), ref.end());
    expect_equal("keys", ctx.download<uint32_t>(dkeys_, n_), ref);
  }

 private:
  uint32_t n_;
  std::vector<uint32_t> keys_;
  uint64_t dkeys_ = 0;
  Kernel k_;
};

}  // namespace

STROBE_BENCHMARK(BitonicSort, "bitonicsort", "Bitonic sorting network over 32-bit keys, one launch per pass",
                 {int_param(STROBE_FIELD(BitonicSortParams, n), 1 << 16, 2, 1 << 24, "keys (power of two)").with_small(1024)});

}  // namespace strobe::workloads
