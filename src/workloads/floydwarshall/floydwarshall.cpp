// floydwarshall: all-pairs shortest paths, one launch per intermediate vertex k.
#include <vector>

#include "workloads/benchmark.h"
#include "workloads/context.h"
#include "workloads/rng.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

/// floydwarshall's parameters, bound to their declarations in STROBE_BENCHMARK below.
struct FloydWarshallParams {
  int64_t n = 0;
};

/// Floyd-Warshall (AMD APP SDK): n dependent launches over an n x n distance matrix.
class FloydWarshall : public Benchmark {
 public:
  explicit FloydWarshall(const FloydWarshallParams& p) : n_(uint32_t(p.n)) {}

  void setup(Context& ctx) override {
    // Random edge weights below 1000: no path sum can overflow 32 bits.
    Rng rng(22);
    dist_.resize(size_t(n_) * n_);
    for (uint32_t i = 0; i < n_; ++i)
      for (uint32_t j = 0; j < n_; ++j) dist_[size_t(i) * n_ + j] = i == j ? 0 : 1 + rng.below(1000);
    ddist_ = ctx.upload(dist_), dnext_ = ctx.alloc<uint32_t>(dist_.size());
    k_ = ctx.kernel("floydwarshall", "floydwarshall");
    ctx.expect_launches(n_);
  }

  void run(Context& ctx) override {
    for (uint32_t k = 0; k < n_; ++k)
      ctx.launch(k_, {round_up(n_, 16), round_up(n_, 16), 1}, {16, 16, 1}, {buf(ddist_), buf(dnext_), val(n_), val(k)});
  }

  void verify(Context& ctx) override {
    // Within pass k, row k and column k do not change (d[k][k] = 0), so the parallel pass is
    // exactly the sequential one and the path matrix is deterministic too.
    std::vector<uint32_t> d = dist_, next(d.size(), 0);
    for (uint32_t k = 0; k < n_; ++k)
      for (uint32_t i = 0; i < n_; ++i)
        for (uint32_t j = 0; j < n_; ++j) {
          uint32_t via = d[size_t(i) * n_ + k] + d[size_t(k) * n_ + j];
          if (via < d[size_t(i) * n_ + j]) d[size_t(i) * n_ + j] = via, next[size_t(i) * n_ + j] = k;
        }
    expect_equal("dist", ctx.download<uint32_t>(ddist_, d.size()), d);
    expect_equal("next", ctx.download<uint32_t>(dnext_, d.size()), next);
  }

 private:
  uint32_t n_;
  std::vector<uint32_t> dist_;
  uint64_t ddist_ = 0, dnext_ = 0;
  Kernel k_;
};

}  // namespace

STROBE_BENCHMARK(FloydWarshall, "floydwarshall", "Floyd-Warshall all-pairs shortest paths, one launch per k",
                 {int_param(STROBE_FIELD(FloydWarshallParams, n), 256, 1, 4096, "vertices (launches)").with_small(40)});

}  // namespace strobe::workloads
