// bfs: frontier-based breadth-first search, one launch per level.
#include <deque>
#include <vector>

#include "workloads/benchmark.h"
#include "workloads/context.h"
#include "workloads/graph.h"
#include "workloads/rng.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

/// bfs's parameters, bound to their declarations in STROBE_BENCHMARK below.
struct BfsParams {
  int64_t vertices = 0, degree = 0, uniform = 0;
};

/// Level-synchronous BFS with an explicit frontier queue built by atomics; the host reads the
/// next frontier's size after each launch, as a real GPU BFS driver does.
class Bfs : public Benchmark {
 public:
  explicit Bfs(const BfsParams& p)
      : n_(uint32_t(p.vertices)), degree_(uint32_t(p.degree)), uniform_(p.uniform != 0) {}

  void setup(Context& ctx) override {
    g_ = make_graph(n_, n_, degree_, !uniform_, 17);
    drp_ = ctx.upload(g_.row_ptr), dcols_ = ctx.upload(g_.cols);
    std::vector<int32_t> level(n_, -1);
    level[0] = 0;
    dlevel_ = ctx.upload(level);
    dq_[0] = ctx.alloc<uint32_t>(n_), dq_[1] = ctx.alloc<uint32_t>(n_);  // alloc zero-fills: queue 0 = {0}
    dsize_ = ctx.alloc<uint32_t>(1);
    k_ = ctx.kernel("bfs", "bfs_expand");
  }

  void run(Context& ctx) override {
    uint32_t size = 1, cur = 0;  // the frontier starts as {vertex 0}
    for (int32_t depth = 0; size > 0; ++depth, cur ^= 1) {
      ctx.write(dsize_, std::vector<uint32_t>{0});
      ctx.launch(k_, {round_up(size, 64), 1, 1}, {64, 1, 1},
                 {buf(drp_), buf(dcols_), buf(dlevel_), buf(dq_[cur]), val(size), buf(dq_[cur ^ 1]), buf(dsize_),
                  val(depth)});
      size = ctx.read_scalar<uint32_t>(dsize_);
    }
  }

  void verify(Context& ctx) override {
    std::vector<int32_t> ref(n_, -1);
    std::deque<uint32_t> q{0};
    ref[0] = 0;
    while (!q.empty()) {
      uint32_t v = q.front();
      q.pop_front();
      for (uint32_t e = g_.row_ptr[v]; e < g_.row_ptr[v + 1]; ++e)
        if (ref[g_.cols[e]] < 0) ref[g_.cols[e]] = ref[v] + 1, q.push_back(g_.cols[e]);
    }
    expect_equal("level", ctx.download<int32_t>(dlevel_, n_), ref);
  }

 private:
  uint32_t n_, degree_;
  bool uniform_;
  Csr g_;
  uint64_t drp_ = 0, dcols_ = 0, dlevel_ = 0, dq_[2] = {0, 0}, dsize_ = 0;
  Kernel k_;
};

}  // namespace

STROBE_BENCHMARK(Bfs, "bfs", "Frontier-based BFS from vertex 0 on a power-law graph, one launch per level",
                 {int_param(STROBE_FIELD(BfsParams, vertices), 1 << 17, 2, 1 << 24, "vertices").with_small(3000),
                  int_param(STROBE_FIELD(BfsParams, degree), 8, 1, 256, "average out-degree").with_small(4),
                  int_param(STROBE_FIELD(BfsParams, uniform), 0, 0, 1, "1: uniform out-degrees instead of power-law")});

}  // namespace strobe::workloads
