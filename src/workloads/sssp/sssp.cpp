// sssp: single-source shortest paths by active-set Bellman-Ford, one launch per round.
#include <functional>
#include <queue>
#include <vector>

#include "workloads/benchmark.h"
#include "workloads/context.h"
#include "workloads/graph.h"
#include "workloads/rng.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

/// sssp's parameters, bound to their declarations in STROBE_BENCHMARK below.
struct SsspParams {
  int64_t vertices = 0, degree = 0, uniform = 0;
};

constexpr uint32_t kInf = 0xffffffffu;

/// Data-driven Bellman-Ford with atomic_min; rounds continue until no distance changes.
class Sssp : public Benchmark {
 public:
  explicit Sssp(const SsspParams& p)
      : n_(uint32_t(p.vertices)), degree_(uint32_t(p.degree)), uniform_(p.uniform != 0) {}

  void setup(Context& ctx) override {
    g_ = make_graph(n_, n_, degree_, !uniform_, 18);
    Rng rng(19);
    w_.resize(g_.nnz());
    for (auto& w : w_) w = 1 + rng.below(100);
    std::vector<uint32_t> dist(n_, kInf), active(n_, 0);
    dist[0] = 0, active[0] = 1;
    drp_ = ctx.upload(g_.row_ptr), dcols_ = ctx.upload(g_.cols), dw_ = ctx.upload(w_);
    ddist_ = ctx.upload(dist), dact_[0] = ctx.upload(active), dact_[1] = ctx.alloc<uint32_t>(n_);
    dchanged_ = ctx.alloc<uint32_t>(1);
    k_ = ctx.kernel("sssp", "sssp_relax");
  }

  void run(Context& ctx) override {
    for (uint32_t round = 0;; ++round) {
      ctx.write(dchanged_, std::vector<uint32_t>{0});
      ctx.launch(k_, {round_up(n_, 256), 1, 1}, {256, 1, 1},
                 {buf(drp_), buf(dcols_), buf(dw_), buf(ddist_), buf(dact_[round & 1]), buf(dact_[(round + 1) & 1]),
                  buf(dchanged_), val(n_)});
      if (!ctx.read_scalar<uint32_t>(dchanged_)) break;
    }
  }

  void verify(Context& ctx) override {
    std::vector<uint32_t> ref(n_, kInf);
    using Item = std::pair<uint32_t, uint32_t>;  // (distance, vertex)
    std::priority_queue<Item, std::vector<Item>, std::greater<>> pq;
    ref[0] = 0, pq.push({0, 0});
    while (!pq.empty()) {
      auto [d, v] = pq.top();
      pq.pop();
      if (d != ref[v]) continue;
      for (uint32_t e = g_.row_ptr[v]; e < g_.row_ptr[v + 1]; ++e)
        if (d + w_[e] < ref[g_.cols[e]]) ref[g_.cols[e]] = d + w_[e], pq.push({d + w_[e], g_.cols[e]});
    }
    expect_equal("dist", ctx.download<uint32_t>(ddist_, n_), ref);  // Dijkstra: exact distances
  }

 private:
  uint32_t n_, degree_;
  bool uniform_;
  Csr g_;
  std::vector<uint32_t> w_;
  uint64_t drp_ = 0, dcols_ = 0, dw_ = 0, ddist_ = 0, dact_[2] = {0, 0}, dchanged_ = 0;
  Kernel k_;
};

}  // namespace

STROBE_BENCHMARK(Sssp, "sssp", "Single-source shortest paths: active-set Bellman-Ford with atomic_min",
                 {int_param(STROBE_FIELD(SsspParams, vertices), 1 << 16, 2, 1 << 24, "vertices").with_small(2000),
                  int_param(STROBE_FIELD(SsspParams, degree), 8, 1, 256, "average out-degree").with_small(4),
                  int_param(STROBE_FIELD(SsspParams, uniform), 0, 0, 1, "1: uniform out-degrees instead of power-law")});

}  // namespace strobe::workloads
