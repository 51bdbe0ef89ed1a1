// 3mm: PolyBench/GPU 3mm, G = (A B)(C D) as three matrix-product launches.
#include <cmath>
#include <string>
#include <vector>

#include "workloads/benchmark.h"
#include "workloads/context.h"
#include "workloads/rng.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

/// 3mm's parameters, bound to their declarations in STROBE_BENCHMARK below.
struct ThreeMmParams {
  int64_t ni = 0, nj = 0, nk = 0, nl = 0, nm = 0;
};

/// Checks the device's `got` = A (rows x inner) times B (inner x cols), row-major, against the
/// product in double. Summed in k order, each of the inner terms is rounded once as a product and
/// at most inner - 1 times by additions, so the bound is gamma(inner) * sum |a b|.
void expect_product(const std::string& name, const std::vector<float>& got, const std::vector<float>& a,
                    const std::vector<float>& b, uint32_t rows, uint32_t inner, uint32_t cols) {
  ExactProduct p = exact_product(a, b, rows, inner, cols);
  for (auto& m : p.magnitude) m *= float_rounding_bound(inner);
  expect_within(name, got, p.value, p.magnitude);
}

/// PolyBench 3mm: E = A B, F = C D, G = E F, one output element per work-item.
class ThreeMm : public Benchmark {
 public:
  explicit ThreeMm(const ThreeMmParams& p)
      : ni_(uint32_t(p.ni)), nj_(uint32_t(p.nj)), nk_(uint32_t(p.nk)), nl_(uint32_t(p.nl)), nm_(uint32_t(p.nm)) {}

  void setup(Context& ctx) override {
    Rng rng(43);
    a_.resize(size_t(ni_) * nk_), b_.resize(size_t(nk_) * nj_), c_.resize(size_t(nj_) * nm_);
    d_.resize(size_t(nm_) * nl_);
    for (auto* v : {&a_, &b_, &c_, &d_})
      for (auto& x : *v) x = rng.uniform(-1, 1);
    da_ = ctx.upload(a_), db_ = ctx.upload(b_), dc_ = ctx.upload(c_), dd_ = ctx.upload(d_);
    de_ = ctx.alloc<float>(size_t(ni_) * nj_), df_ = ctx.alloc<float>(size_t(nj_) * nl_);
    dg_ = ctx.alloc<float>(size_t(ni_) * nl_);
    ke_ = ctx.kernel("polybench_mm", "mm3_e"), kf_ = ctx.kernel("polybench_mm", "mm3_f");
    kg_ = ctx.kernel("polybench_mm", "mm3_g");
    ctx.expect_launches(3);
  }

  void run(Context& ctx) override {
    // PolyBench/GPU's 32x8 work-groups: x walks columns, so a wave reads rows of the right operand
    // coalesced.
    ctx.launch(ke_, {round_up(nj_, 32), round_up(ni_, 8), 1}, {32, 8, 1},
               {buf(da_), buf(db_), buf(de_), val(ni_), val(nj_), val(nk_)});
    ctx.launch(kf_, {round_up(nl_, 32), round_up(nj_, 8), 1}, {32, 8, 1},
               {buf(dc_), buf(dd_), buf(df_), val(nj_), val(nl_), val(nm_)});
    ctx.launch(kg_, {round_up(nl_, 32), round_up(ni_, 8), 1}, {32, 8, 1},
               {buf(de_), buf(df_), buf(dg_), val(ni_), val(nl_), val(nj_)});
  }

  void verify(Context& ctx) override {
    // Each launch is checked against a double reference of its own inputs: G from the device's E
    // and F, which are checked first, so each bound covers one launch's rounding only.
    std::vector<float> e = ctx.download<float>(de_, size_t(ni_) * nj_);
    std::vector<float> f = ctx.download<float>(df_, size_t(nj_) * nl_);
    expect_product("e", e, a_, b_, ni_, nk_, nj_);
    expect_product("f", f, c_, d_, nj_, nm_, nl_);
    expect_product("g", ctx.download<float>(dg_, size_t(ni_) * nl_), e, f, ni_, nj_, nl_);
  }

 private:
  uint32_t ni_, nj_, nk_, nl_, nm_;
  std::vector<float> a_, b_, c_, d_;
  uint64_t da_ = 0, db_ = 0, dc_ = 0, dd_ = 0, de_ = 0, df_ = 0, dg_ = 0;
  Kernel ke_, kf_, kg_;
};

}  // namespace

STROBE_BENCHMARK(ThreeMm, "3mm", "PolyBench 3mm G = (A*B)*(C*D): three matrix-product launches",
                 {int_param(STROBE_FIELD(ThreeMmParams, ni), 512, 1, 8192, "rows of A, E and G").with_small(40),
                  int_param(STROBE_FIELD(ThreeMmParams, nj), 512, 1, 8192, "columns of B and E, rows of C and F")
                      .with_small(36),
                  int_param(STROBE_FIELD(ThreeMmParams, nk), 512, 1, 8192, "columns of A, rows of B").with_small(20),
                  int_param(STROBE_FIELD(ThreeMmParams, nl), 512, 1, 8192, "columns of D, F and G").with_small(44),
                  int_param(STROBE_FIELD(ThreeMmParams, nm), 512, 1, 8192, "columns of C, rows of D").with_small(28)});

}  // namespace strobe::workloads
