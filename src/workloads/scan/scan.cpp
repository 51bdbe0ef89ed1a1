// scan: exclusive prefix sum of integers with a recursive block-sum hierarchy.
#include <vector>

#include "workloads/benchmark.h"
#include "workloads/context.h"
#include "workloads/rng.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

/// scan's parameters, bound to their declarations in STROBE_BENCHMARK below.
struct ScanParams {
  int64_t n = 0;
};

/// Multi-level scan (SHOC Scan): 2 launches per level plus one for the top level.
class Scan : public Benchmark {
 public:
  explicit Scan(const ScanParams& p) : n_(uint32_t(p.n)) {}

  void setup(Context& ctx) override {
    Rng rng(28);
    in_.resize(n_);
    for (auto& v : in_) v = int32_t(rng.below(2001)) - 1000;
    din_ = ctx.upload(in_), dout_ = ctx.alloc<int32_t>(n_);
    // One block-sum buffer (and its scan) per level, until a level fits in one block.
    for (uint32_t len = n_; len > kWg; len = (len + kWg - 1) / kWg) {
      uint32_t blocks = (len + kWg - 1) / kWg;
      levels_.push_back({len, ctx.alloc<int32_t>(blocks), ctx.alloc<int32_t>(blocks)});
    }
    top_sum_ = ctx.alloc<int32_t>(1);
    kb_ = ctx.kernel("scan", "scan_block"), ka_ = ctx.kernel("scan", "scan_add");
    ctx.expect_launches(2 * levels_.size() + 1);
  }

  void run(Context& ctx) override { scan(ctx, din_, dout_, 0); }

  void verify(Context& ctx) override {
    std::vector<int32_t> ref(n_);
    uint32_t acc = 0;  // unsigned: wrap-around is defined and matches the device
    for (uint32_t i = 0; i < n_; ++i) ref[i] = int32_t(acc), acc += uint32_t(in_[i]);
    expect_equal("out", ctx.download<int32_t>(dout_, n_), ref);
  }

 private:
  struct Level {
    uint32_t len;
    uint64_t sums, scanned;
  };

  /// Scans `len(level)` elements of `in` into `out`; level == levels_.size() is the single-block top.
  void scan(Context& ctx, uint64_t in, uint64_t out, size_t level) {
    uint32_t len = level < levels_.size() ? levels_[level].len : (level ? (levels_[level - 1].len + kWg - 1) / kWg : n_);
    uint64_t sums = level < levels_.size() ? levels_[level].sums : top_sum_;
    ctx.launch(kb_, {round_up(len, kWg), 1, 1}, {kWg, 1, 1}, {buf(in), buf(out), buf(sums), val(len), lds(kWg * 4)});
    if (level == levels_.size()) return;
    scan(ctx, sums, levels_[level].scanned, level + 1);
    ctx.launch(ka_, {round_up(len, kWg), 1, 1}, {kWg, 1, 1}, {buf(out), buf(levels_[level].scanned), val(len)});
  }

  static constexpr uint32_t kWg = 256;
  uint32_t n_;
  std::vector<int32_t> in_;
  std::vector<Level> levels_;
  uint64_t din_ = 0, dout_ = 0, top_sum_ = 0;
  Kernel kb_, ka_;
};

}  // namespace

STROBE_BENCHMARK(Scan, "scan", "Exclusive prefix sum: LDS block scans and a recursive block-sum hierarchy (SHOC Scan)",
                 {int_param(STROBE_FIELD(ScanParams, n), 1 << 20, 1, 1 << 28, "elements").with_small(70000)});

}  // namespace strobe::workloads
