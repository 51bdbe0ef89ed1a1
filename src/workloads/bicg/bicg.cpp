// bicg: the BiCG sub-kernel q = A p, s = A^T r (PolyBench).
#include <vector>

#include "workloads/benchmark.h"
#include "workloads/context.h"
#include "workloads/rng.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

/// bicg's parameters, bound to their declarations in STROBE_BENCHMARK below.
struct BicgParams {
  int64_t rows = 0, cols = 0;
};

/// PolyBench BICG: two independent matrix-vector products, one per kernel.
class Bicg : public Benchmark {
 public:
  explicit Bicg(const BicgParams& p) : rows_(uint32_t(p.rows)), cols_(uint32_t(p.cols)) {}

  void setup(Context& ctx) override {
    Rng rng(10);
    a_.resize(size_t(rows_) * cols_), p_.resize(cols_), r_.resize(rows_);
    for (auto& v : a_) v = rng.uniform(-1, 1);
    for (auto& v : p_) v = rng.uniform(-1, 1);
    for (auto& v : r_) v = rng.uniform(-1, 1);
    da_ = ctx.upload(a_), dp_ = ctx.upload(p_), dr_ = ctx.upload(r_);
    dq_ = ctx.alloc<float>(rows_), ds_ = ctx.alloc<float>(cols_);
    kq_ = ctx.kernel("polybench", "bicg_q"), ks_ = ctx.kernel("polybench", "bicg_s");
    ctx.expect_launches(2);
  }

  void run(Context& ctx) override {
    ctx.launch(kq_, {round_up(rows_, 256), 1, 1}, {256, 1, 1}, {buf(da_), buf(dp_), buf(dq_), val(rows_), val(cols_)});
    ctx.launch(ks_, {round_up(cols_, 256), 1, 1}, {256, 1, 1}, {buf(da_), buf(dr_), buf(ds_), val(rows_), val(cols_)});
  }

  void verify(Context& ctx) override {
    std::vector<float> q(rows_), s(cols_);
    for (uint32_t i = 0; i < rows_; ++i) {
      float acc = 0;
      for (uint32_t j = 0; j < cols_; ++j) acc += a_[size_t(i) * cols_ + j] * p_[j];
      q[i] = acc;
    }
    for (uint32_t j = 0; j < cols_; ++j) {
      float acc = 0;
      for (uint32_t i = 0; i < rows_; ++i) acc += r_[i] * a_[size_t(i) * cols_ + j];
      s[j] = acc;
    }
    // Same summation order; fused multiply-adds shift each partial sum by at most an ulp.
    expect_close("q", ctx.download<float>(dq_, rows_), q, 1e-4, 1e-5 * cols_);
    expect_close("s", ctx.download<float>(ds_, cols_), s, 1e-4, 1e-5 * rows_);
  }

 private:
  uint32_t rows_, cols_;
  std::vector<float> a_, p_, r_;
  uint64_t da_ = 0, dp_ = 0, dr_ = 0, dq_ = 0, ds_ = 0;
  Kernel kq_, ks_;
};

}  // namespace

STROBE_BENCHMARK(Bicg, "bicg", "PolyBench BICG q = A p, s = A^T r",
                 {int_param(STROBE_FIELD(BicgParams, rows), 2048, 1, 16384, "rows of A").with_small(100), int_param(STROBE_FIELD(BicgParams, cols), 2048, 1, 16384, "columns of A").with_small(70)});

}  // namespace strobe::workloads
