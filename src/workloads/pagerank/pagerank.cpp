// pagerank: iterative PageRank in pull form, two launches per iteration.
#include <vector>

#include "workloads/benchmark.h"
#include "workloads/context.h"
#include "workloads/graph.h"
#include "workloads/rng.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

/// pagerank's parameters, bound to their declarations in STROBE_BENCHMARK below.
struct PageRankParams {
  int64_t vertices = 0, degree = 0, iterations = 0;
};

/// PageRank on a power-law graph: per iteration, a contribution kernel and a gather over in-edges.
class PageRank : public Benchmark {
 public:
  explicit PageRank(const PageRankParams& p)
      : n_(uint32_t(p.vertices)), degree_(uint32_t(p.degree)), iters_(uint32_t(p.iterations)) {}

  void setup(Context& ctx) override {
    Csr g = make_graph(n_, n_, degree_, true, 20);
    in_ = transpose(g, n_);
    outdeg_.resize(n_);
    for (uint32_t v = 0; v < n_; ++v) outdeg_[v] = g.row_ptr[v + 1] - g.row_ptr[v];
    dinptr_ = ctx.upload(in_.row_ptr), dinsrc_ = ctx.upload(in_.cols), doutdeg_ = ctx.upload(outdeg_);
    drank_ = ctx.upload(std::vector<float>(n_, 1.0f / float(n_))), dcontrib_ = ctx.alloc<float>(n_);
    kc_ = ctx.kernel("pagerank", "pr_contrib"), ku_ = ctx.kernel("pagerank", "pr_update");
    ctx.expect_launches(2 * iters_);
  }

  void run(Context& ctx) override {
    float base = (1.0f - kDamping) / float(n_);
    for (uint32_t it = 0; it < iters_; ++it) {
      ctx.launch(kc_, {round_up(n_, 256), 1, 1}, {256, 1, 1}, {buf(drank_), buf(doutdeg_), buf(dcontrib_), val(n_)});
      ctx.launch(ku_, {round_up(n_, 256), 1, 1}, {256, 1, 1},
                 {buf(dinptr_), buf(dinsrc_), buf(dcontrib_), buf(drank_), val(n_), val(base), val(kDamping)});
    }
  }

  void verify(Context& ctx) override {
    std::vector<float> rank(n_, 1.0f / float(n_)), contrib(n_);
    float base = (1.0f - kDamping) / float(n_);
    for (uint32_t it = 0; it < iters_; ++it) {
      for (uint32_t v = 0; v < n_; ++v) contrib[v] = outdeg_[v] ? rank[v] / float(outdeg_[v]) : 0.0f;
      for (uint32_t v = 0; v < n_; ++v) {
        float sum = 0;
        for (uint32_t e = in_.row_ptr[v]; e < in_.row_ptr[v + 1]; ++e) sum += contrib[in_.cols[e]];
        rank[v] = base + kDamping * sum;
      }
    }
    // Same summation order as the device; only multiply-add rounding can differ (an ulp or two per iteration).
    expect_close("rank", ctx.download<float>(drank_, n_), rank, 1e-5 * iters_, 1e-9);
  }

 private:
  static constexpr float kDamping = 0.85f;
  uint32_t n_, degree_, iters_;
  Csr in_;
  std::vector<uint32_t> outdeg_;
  uint64_t dinptr_ = 0, dinsrc_ = 0, doutdeg_ = 0, drank_ = 0, dcontrib_ = 0;
  Kernel kc_, ku_;
};

}  // namespace

STROBE_BENCHMARK(PageRank, "pagerank", "Iterative PageRank (pull) on a power-law graph, two launches per iteration",
                 {int_param(STROBE_FIELD(PageRankParams, vertices), 1 << 16, 2, 1 << 24, "vertices").with_small(2000),
                  int_param(STROBE_FIELD(PageRankParams, degree), 8, 1, 256, "average out-degree").with_small(4),
                  int_param(STROBE_FIELD(PageRankParams, iterations), 10, 1, 1000, "iterations").with_small(3)});

}  // namespace strobe::workloads
