// histogram: per-group histograms in LDS (local atomics) merged with global atomics.
#include <vector>

#include "workloads/benchmark.h"
#include "workloads/context.h"
#include "workloads/rng.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

/// histogram's parameters, bound to their declarations in STROBE_BENCHMARK below.
struct HistogramParams {
  int64_t n = 0, bins = 0, groups = 0;
};

/// Histogram with a skewed key distribution, so some bins see heavy atomic contention.
class Histogram : public Benchmark {
 public:
  explicit Histogram(const HistogramParams& p)
      : n_(uint32_t(p.n)), bins_(uint32_t(p.bins)), groups_(uint32_t(p.groups)) {}

  void setup(Context& ctx) override {
    Rng rng(12);
    keys_.resize(n_);
    // Half the keys fall in the lowest 1/16 of the range: contention on a few bins.
    for (auto& k : keys_) k = (rng.u32() & 1) ? rng.below(bins_ / 16 + 1) : rng.u32();
    dkeys_ = ctx.upload(keys_), dbins_ = ctx.alloc<uint32_t>(bins_);
    k_ = ctx.kernel("histogram", "histogram");
    ctx.expect_launches(1);
  }

  void run(Context& ctx) override {
    ctx.launch(k_, {groups_ * kWg, 1, 1}, {kWg, 1, 1}, {buf(dkeys_), buf(dbins_), lds(bins_ * 4), val(n_), val(bins_)});
  }

  void verify(Context& ctx) override {
    std::vector<uint32_t> ref(bins_, 0);
    for (uint32_t k : keys_) ++ref[k % bins_];
    expect_equal("bins", ctx.download<uint32_t>(dbins_, bins_), ref);
  }

 private:
  static constexpr uint32_t kWg = 256;
  uint32_t n_, bins_, groups_;
  std::vector<uint32_t> keys_;
  uint64_t dkeys_ = 0, dbins_ = 0;
  Kernel k_;
};

}  // namespace

STROBE_BENCHMARK(Histogram, "histogram", "Histogram with local (LDS) atomics merged by global atomics",
                 {int_param(STROBE_FIELD(HistogramParams, n), 1 << 20, 1, 1 << 28, "keys").with_small(10000),
                  int_param(STROBE_FIELD(HistogramParams, bins), 256, 1, 16384, "bins (LDS holds them all)"),
                  int_param(STROBE_FIELD(HistogramParams, groups), 64, 1, 65536, "work-groups of 256").with_small(4)});

}  // namespace strobe::workloads
