// 2mm: PolyBench/GPU 2mm, D = alpha A B C + beta D as two chained matrix-product launches.
#include <cmath>
#include <vector>

#include "workloads/benchmark.h"
#include "workloads/context.h"
#include "workloads/rng.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

/// 2mm's parameters, bound to their declarations in STROBE_BENCHMARK below.
struct TwoMmParams {
  int64_t ni = 0, nj = 0, nk = 0, nl = 0;
};

/// PolyBench 2mm: tmp = alpha A B, then D = beta D + tmp C, one output element per work-item.
class TwoMm : public Benchmark {
 public:
  explicit TwoMm(const TwoMmParams& p)
      : ni_(uint32_t(p.ni)), nj_(uint32_t(p.nj)), nk_(uint32_t(p.nk)), nl_(uint32_t(p.nl)) {}

  void setup(Context& ctx) override {
    Rng rng(41);
    a_.resize(size_t(ni_) * nk_), b_.resize(size_t(nk_) * nj_), c_.resize(size_t(nj_) * nl_);
    d_.resize(size_t(ni_) * nl_);
    for (auto* v : {&a_, &b_, &c_, &d_})
      for (auto& x : *v) x = rng.uniform(-1, 1);
    da_ = ctx.upload(a_), db_ = ctx.upload(b_), dc_ = ctx.upload(c_), dd_ = ctx.upload(d_);
    dtmp_ = ctx.alloc<float>(size_t(ni_) * nj_);
    ktmp_ = ctx.kernel("polybench_mm", "mm2_tmp"), kd_ = ctx.kernel("polybench_mm", "mm2_d");
    ctx.expect_launches(2);
  }

  void run(Context& ctx) override {
    // PolyBench/GPU's 32x8 work-groups: x walks columns, so a wave reads rows of B and C coalesced.
    ctx.launch(ktmp_, {round_up(nj_, 32), round_up(ni_, 8), 1}, {32, 8, 1},
               {buf(da_), buf(db_), buf(dtmp_), val(ni_), val(nj_), val(nk_), val(kAlpha)});
    ctx.launch(kd_, {round_up(nl_, 32), round_up(ni_, 8), 1}, {32, 8, 1},
               {buf(dtmp_), buf(dc_), buf(dd_), val(ni_), val(nl_), val(nj_), val(kBeta)});
  }

  void verify(Context& ctx) override {
    // Each launch is checked against a double reference built from its own inputs (the second
    // from the device's tmp, itself checked first), with the worst-case float rounding bound.
    // tmp: nk terms alpha*a*b, each rounded twice before its additions: gamma(nk + 1).
    std::vector<float> tmp = ctx.download<float>(dtmp_, size_t(ni_) * nj_);
    ExactProduct ab = exact_product(a_, b_, ni_, nk_, nj_);
    std::vector<double> bound(tmp.size());
    for (size_t e = 0; e < tmp.size(); ++e) {
      ab.value[e] *= kAlpha;
      bound[e] = float_rounding_bound(nk_ + 1) * kAlpha * ab.magnitude[e];
    }
    expect_within("tmp", tmp, ab.value, bound);
    // D: beta*d then nj products added, each term rounded once before its additions: gamma(nj + 1).
    ExactProduct tc = exact_product(tmp, c_, ni_, nj_, nl_);
    for (size_t e = 0; e < d_.size(); ++e) {
      double scaled = double(kBeta) * d_[e];
      tc.value[e] += scaled;
      tc.magnitude[e] += std::fabs(scaled);
    }
    for (auto& m : tc.magnitude) m *= float_rounding_bound(nj_ + 1);
    expect_within("d", ctx.download<float>(dd_, d_.size()), tc.value, tc.magnitude);
  }

 private:
  static constexpr float kAlpha = 1.5f, kBeta = 1.2f;  // PolyBench's values
  uint32_t ni_, nj_, nk_, nl_;
  std::vector<float> a_, b_, c_, d_;
  uint64_t da_ = 0, db_ = 0, dc_ = 0, dd_ = 0, dtmp_ = 0;
  Kernel ktmp_, kd_;
};

}  // namespace

STROBE_BENCHMARK(TwoMm, "2mm", "PolyBench 2mm D = alpha*A*B*C + beta*D: two chained matrix-product launches",
                 {int_param(STROBE_FIELD(TwoMmParams, ni), 512, 1, 8192, "rows of A, tmp and D").with_small(40),
                  int_param(STROBE_FIELD(TwoMmParams, nj), 512, 1, 8192, "columns of B and tmp, rows of C")
                      .with_small(36),
                  int_param(STROBE_FIELD(TwoMmParams, nk), 512, 1, 8192, "columns of A, rows of B").with_small(20),
                  int_param(STROBE_FIELD(TwoMmParams, nl), 512, 1, 8192, "columns of C and D").with_small(44)});

}  // namespace strobe::workloads
