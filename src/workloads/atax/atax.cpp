// atax: y = A^T (A x) (PolyBench), two kernels.
#include <vector>

#include "workloads/benchmark.h"
#include "workloads/context.h"
#include "workloads/rng.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

/// atax's parameters, bound to their declarations in STROBE_BENCHMARK below.
struct AtaxParams {
  int64_t rows = 0, cols = 0;
};

/// PolyBench ATAX: a row-wise then a column-wise matrix-vector product.
class Atax : public Benchmark {
 public:
  explicit Atax(const AtaxParams& p) : rows_(uint32_t(p.rows)), cols_(uint32_t(p.cols)) {}

  void setup(Context& ctx) override {
    Rng rng(9);
    a_.resize(size_t(rows_) * cols_), x_.resize(cols_);
    for (auto& v : a_) v = rng.uniform(-1, 1);
    for (auto& v : x_) v = rng.uniform(-1, 1);
    da_ = ctx.upload(a_), dx_ = ctx.upload(x_), dtmp_ = ctx.alloc<float>(rows_), dy_ = ctx.alloc<float>(cols_);
    kax_ = ctx.kernel("polybench", "atax_ax"), katy_ = ctx.kernel("polybench", "atax_aty");
    ctx.expect_launches(2);
  }

  void run(Context& ctx) override {
    ctx.launch(kax_, {round_up(rows_, 256), 1, 1}, {256, 1, 1}, {buf(da_), buf(dx_), buf(dtmp_), val(rows_), val(cols_)});
    ctx.launch(katy_, {round_up(cols_, 256), 1, 1}, {256, 1, 1},
               {buf(da_), buf(dtmp_), buf(dy_), val(rows_), val(cols_)});
  }

  void verify(Context& ctx) override {
    std::vector<float> tmp(rows_), y(cols_);
    for (uint32_t i = 0; i < rows_; ++i) {
      float acc = 0;
      for (uint32_t j = 0; j < cols_; ++j) acc += a_[size_t(i) * cols_ + j] * x_[j];
      tmp[i] = acc;
    }
    for (uint32_t j = 0; j < cols_; ++j) {
      float acc = 0;
      for (uint32_t i = 0; i < rows_; ++i) acc += a_[size_t(i) * cols_ + j] * tmp[i];
      y[j] = acc;
    }
    // Same summation order; fused multiply-adds shift each partial sum by at most an ulp.
    expect_close("tmp", ctx.download<float>(dtmp_, rows_), tmp, 1e-4, 1e-5 * cols_);
    expect_close("y", ctx.download<float>(dy_, cols_), y, 1e-4, 1e-4 * rows_);
  }

 private:
  uint32_t rows_, cols_;
  std::vector<float> a_, x_;
  uint64_t da_ = 0, dx_ = 0, dtmp_ = 0, dy_ = 0;
  Kernel kax_, katy_;
};

}  // namespace

STROBE_BENCHMARK(Atax, "atax", "PolyBench ATAX y = A^T (A x): row- then column-wise matrix-vector products",
                 {int_param(STROBE_FIELD(AtaxParams, rows), 2048, 1, 16384, "rows of A").with_small(100), int_param(STROBE_FIELD(AtaxParams, cols), 2048, 1, 16384, "columns of A").with_small(70)});

}  // namespace strobe::workloads
