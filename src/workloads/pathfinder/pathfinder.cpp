// pathfinder: minimum-cost path down a grid by dynamic programming, one launch per row.
#include <algorithm>
#include <vector>

#include "workloads/benchmark.h"
#include "workloads/context.h"
#include "workloads/rng.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

/// pathfinder's parameters, bound to their declarations in STROBE_BENCHMARK below.
struct PathFinderParams {
  int64_t rows = 0, cols = 0;
};

/// Rodinia pathfinder: many short, dependent, memory-bound launches.
class PathFinder : public Benchmark {
 public:
  explicit PathFinder(const PathFinderParams& p) : rows_(uint32_t(p.rows)), cols_(uint32_t(p.cols)) {}

  void setup(Context& ctx) override {
    Rng rng(30);
    wall_.resize(size_t(rows_) * cols_);
    for (auto& w : wall_) w = int32_t(rng.below(10));
    dwall_ = ctx.upload(wall_);
    d_[0] = ctx.upload(std::vector<int32_t>(wall_.begin(), wall_.begin() + cols_)), d_[1] = ctx.alloc<int32_t>(cols_);
    k_ = ctx.kernel("pathfinder", "pathfinder_row");
    ctx.expect_launches(rows_ - 1);
  }

  void run(Context& ctx) override {
    for (uint32_t r = 1; r < rows_; ++r)
      ctx.launch(k_, {round_up(cols_, 256), 1, 1}, {256, 1, 1},
                 {buf(dwall_), buf(d_[(r - 1) & 1]), buf(d_[r & 1]), val(cols_), val(r)});
  }

  void verify(Context& ctx) override {
    std::vector<int32_t> cur(wall_.begin(), wall_.begin() + cols_), next(cols_);
    for (uint32_t r = 1; r < rows_; ++r) {
      for (uint32_t j = 0; j < cols_; ++j) {
        int32_t best = cur[j];
        if (j > 0) best = std::min(best, cur[j - 1]);
        if (j + 1 < cols_) best = std::min(best, cur[j + 1]);
        next[j] = wall_[size_t(r) * cols_ + j] + best;
      }
      cur.swap(next);
    }
    expect_equal("cost", ctx.download<int32_t>(d_[(rows_ - 1) & 1], cols_), cur);
  }

 private:
  uint32_t rows_, cols_;
  std::vector<int32_t> wall_;
  uint64_t dwall_ = 0, d_[2] = {0, 0};
  Kernel k_;
};

}  // namespace

STROBE_BENCHMARK(PathFinder, "pathfinder", "Rodinia pathfinder: grid dynamic programming, one launch per row",
                 {int_param(STROBE_FIELD(PathFinderParams, rows), 100, 2, 100000, "rows (launches + 1)").with_small(20),
                  int_param(STROBE_FIELD(PathFinderParams, cols), 1 << 16, 1, 1 << 24, "columns").with_small(1000)});

}  // namespace strobe::workloads
