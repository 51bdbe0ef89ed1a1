// nw: Needleman-Wunsch global sequence alignment, one launch per anti-diagonal of 16x16 blocks.
#include <algorithm>
#include <vector>

#include "workloads/benchmark.h"
#include "workloads/context.h"
#include "workloads/rng.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

/// nw's parameters, bound to their declarations in STROBE_BENCHMARK below.
struct NeedlemanWunschParams {
  int64_t length = 0, penalty = 0;
};

/// Rodinia nw: a wavefront of blocks whose parallelism grows then shrinks across launches.
class NeedlemanWunsch : public Benchmark {
 public:
  explicit NeedlemanWunsch(const NeedlemanWunschParams& p) : n_(uint32_t(p.length)), penalty_(int32_t(p.penalty)) {
    if (n_ % 16) throw InputError(fmt::format("nw: length={} must be a multiple of 16", n_));
  }

  void setup(Context& ctx) override {
    // Two random sequences over 24 symbols and a random symmetric substitution matrix (like BLOSUM62).
    Rng rng(24);
    int32_t sub[24][24];
    for (int a = 0; a < 24; ++a)
      for (int b = 0; b <= a; ++b) sub[a][b] = sub[b][a] = a == b ? 4 + int32_t(rng.below(8)) : int32_t(rng.below(9)) - 4;
    std::vector<uint32_t> s1(n_), s2(n_);
    for (auto& s : s1) s = rng.below(24);
    for (auto& s : s2) s = rng.below(24);
    ref_.resize(size_t(n_) * n_);
    for (uint32_t i = 0; i < n_; ++i)
      for (uint32_t j = 0; j < n_; ++j) ref_[size_t(i) * n_ + j] = sub[s1[i]][s2[j]];
    uint32_t w = n_ + 1;
    init_.assign(size_t(w) * w, 0);
    for (uint32_t i = 0; i < w; ++i) init_[size_t(i) * w] = -int32_t(i) * penalty_, init_[i] = -int32_t(i) * penalty_;
    dscore_ = ctx.upload(init_), dref_ = ctx.upload(ref_);
    k_ = ctx.kernel("nw", "nw_diagonal");
    ctx.expect_launches(2 * (n_ / 16) - 1);
  }

  void run(Context& ctx) override {
    uint32_t nb = n_ / 16;
    for (uint32_t diag = 0; diag < 2 * nb - 1; ++diag) {
      uint32_t first = diag < nb ? 0 : diag - nb + 1, last = std::min(diag, nb - 1);
      ctx.launch(k_, {16 * (last - first + 1), 1, 1}, {16, 1, 1},
                 {buf(dscore_), buf(dref_), val(n_), val(penalty_), val(diag), val(first)});
    }
  }

  void verify(Context& ctx) override {
    uint32_t w = n_ + 1;
    std::vector<int32_t> s = init_;
    for (uint32_t i = 1; i < w; ++i)
      for (uint32_t j = 1; j < w; ++j)
        s[size_t(i) * w + j] = std::max({s[size_t(i - 1) * w + j - 1] + ref_[size_t(i - 1) * n_ + j - 1],
                                         s[size_t(i) * w + j - 1] - penalty_, s[size_t(i - 1) * w + j] - penalty_});
    expect_equal("score", ctx.download<int32_t>(dscore_, s.size()), s);
  }

 private:
  uint32_t n_;
  int32_t penalty_;
  std::vector<int32_t> ref_, init_;
  uint64_t dscore_ = 0, dref_ = 0;
  Kernel k_;
};

}  // namespace

STROBE_BENCHMARK(NeedlemanWunsch, "nw", "Needleman-Wunsch alignment, 16x16 LDS blocks, one launch per block diagonal",
                 {int_param(STROBE_FIELD(NeedlemanWunschParams, length), 1024, 16, 8192, "sequence length (multiple of 16)").with_small(96),
                  int_param(STROBE_FIELD(NeedlemanWunschParams, penalty), 10, 0, 1000, "gap penalty")});

}  // namespace strobe::workloads
