// gemm: PolyBench GEMM C = alpha A B + beta C without LDS tiling.
#include <vector>

#include "workloads/benchmark.h"
#include "workloads/context.h"
#include "workloads/rng.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

/// gemm's parameters, bound to their declarations in STROBE_BENCHMARK below.
struct GemmParams {
  int64_t ni = 0, nj = 0, nk = 0;
};

/// Naive GEMM: every operand from global memory, the cache-dependent counterpart of `mm`.
class Gemm : public Benchmark {
 public:
  explicit Gemm(const GemmParams& p) : ni_(uint32_t(p.ni)), nj_(uint32_t(p.nj)), nk_(uint32_t(p.nk)) {}

  void setup(Context& ctx) override {
    Rng rng(33);
    a_.resize(size_t(ni_) * nk_), b_.resize(size_t(nk_) * nj_), c_.resize(size_t(ni_) * nj_);
    for (auto* v : {&a_, &b_, &c_})
      for (auto& x : *v) x = rng.uniform(-1, 1);
    da_ = ctx.upload(a_), db_ = ctx.upload(b_), dc_ = ctx.upload(c_);
    k_ = ctx.kernel("polybench", "gemm_naive");
    ctx.expect_launches(1);
  }

  void run(Context& ctx) override {
    ctx.launch(k_, {round_up(nj_, 16), round_up(ni_, 16), 1}, {16, 16, 1},
               {buf(da_), buf(db_), buf(dc_), val(ni_), val(nj_), val(nk_), val(kAlpha), val(kBeta)});
  }

  void verify(Context& ctx) override {
    std::vector<float> ref(c_.size());
    for (uint32_t i = 0; i < ni_; ++i)
      for (uint32_t j = 0; j < nj_; ++j) {
        float acc = 0;
        for (uint32_t k = 0; k < nk_; ++k) acc += a_[size_t(i) * nk_ + k] * b_[size_t(k) * nj_ + j];
        ref[size_t(i) * nj_ + j] = kAlpha * acc + kBeta * c_[size_t(i) * nj_ + j];
      }
    // Same k order; multiply-add rounding may differ by an ulp per step.
    expect_close("c", ctx.download<float>(dc_, ref.size()), ref, 1e-4, 1e-6 * nk_);
  }

 private:
  static constexpr float kAlpha = 1.5f, kBeta = 1.2f;  // PolyBench's values
  uint32_t ni_, nj_, nk_;
  std::vector<float> a_, b_, c_;
  uint64_t da_ = 0, db_ = 0, dc_ = 0;
  Kernel k_;
};

}  // namespace

STROBE_BENCHMARK(Gemm, "gemm", "PolyBench GEMM C = alpha*A*B + beta*C, operands straight from global memory",
                 {int_param(STROBE_FIELD(GemmParams, ni), 256, 1, 8192, "rows of A and C").with_small(40),
                  int_param(STROBE_FIELD(GemmParams, nj), 256, 1, 8192, "columns of B and C").with_small(36),
                  int_param(STROBE_FIELD(GemmParams, nk), 256, 1, 8192, "columns of A, rows of B").with_small(20)});

}  // namespace strobe::workloads
