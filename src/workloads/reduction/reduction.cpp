// reduction: integer sum through a per-group LDS tree and one global atomic per group.
#include <numeric>
#include <vector>

#include "workloads/benchmark.h"
#include "workloads/context.h"
#include "workloads/rng.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

/// reduction's parameters, bound to their declarations in STROBE_BENCHMARK below.
struct ReductionParams {
  int64_t n = 0, groups = 0;
};

/// Sum reduction: grid-stride accumulation, LDS tree, then atomics across groups.
class Reduction : public Benchmark {
 public:
  explicit Reduction(const ReductionParams& p) : n_(uint32_t(p.n)), groups_(uint32_t(p.groups)) {}

  void setup(Context& ctx) override {
    Rng rng(11);
    in_.resize(n_);
    for (auto& v : in_) v = int32_t(rng.below(2001)) - 1000;
    din_ = ctx.upload(in_), dtotal_ = ctx.alloc<int32_t>(1);
    k_ = ctx.kernel("reduction", "reduction");
    ctx.expect_launches(1);
  }

  void run(Context& ctx) override {
    ctx.launch(k_, {groups_ * kWg, 1, 1}, {kWg, 1, 1}, {buf(din_), buf(dtotal_), lds(kWg * 4), val(n_)});
  }

  void verify(Context& ctx) override {
    // Integer addition wraps identically in any order, so the sum is exact.
    int32_t ref = int32_t(std::accumulate(in_.begin(), in_.end(), int64_t(0)));
    expect_equal("total", ctx.download<int32_t>(dtotal_, 1), std::vector<int32_t>{ref});
  }

 private:
  static constexpr uint32_t kWg = 256;
  uint32_t n_, groups_;
  std::vector<int32_t> in_;
  uint64_t din_ = 0, dtotal_ = 0;
  Kernel k_;
};

}  // namespace

STROBE_BENCHMARK(Reduction, "reduction", "Integer sum: grid-stride loads, LDS tree per group, then global atomics",
                 {int_param(STROBE_FIELD(ReductionParams, n), 1 << 20, 1, 1 << 28, "elements").with_small(10000),
                  int_param(STROBE_FIELD(ReductionParams, groups), 64, 1, 65536, "work-groups of 256").with_small(4)});

}  // namespace strobe::workloads
