// mm: dense matrix multiply C = A B with 16x16 LDS tiles.
#include <vector>

#include "workloads/benchmark.h"
#include "workloads/context.h"
#include "workloads/rng.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

/// mm's parameters, bound to their declarations in STROBE_BENCHMARK below.
struct MatMulParams {
  int64_t m = 0, n = 0, k = 0, matrix_cores = 0;
};

/// Tiled SGEMM: compute-bound, LDS- and barrier-heavy.
class MatMul : public Benchmark {
 public:
  explicit MatMul(const MatMulParams& p)
      : m_(uint32_t(p.m)), n_(uint32_t(p.n)), k_(uint32_t(p.k)), mfma_(p.matrix_cores != 0) {
    for (auto [name, v] : {std::pair{"m", m_}, {"n", n_}, {"k", k_}})
      if (v % 16) throw InputError(fmt::format("mm: {}={} must be a multiple of 16", name, v));
  }

  void setup(Context& ctx) override {
    Rng rng(5);
    a_.resize(size_t(m_) * k_), b_.resize(size_t(k_) * n_);
    for (auto& v : a_) v = rng.uniform(-1, 1);
    for (auto& v : b_) v = rng.uniform(-1, 1);
    da_ = ctx.upload(a_), db_ = ctx.upload(b_), dc_ = ctx.alloc<float>(size_t(m_) * n_);
    if (mfma_ && ctx.device().isa() != isa::Target::Gfx942)
      throw InputError("mm: matrix_cores=1 needs gfx942's matrix cores (gpu.isa=gfx942, or --arch mi300x)");
    if (mfma_ && (m_ % 32 || n_ % 32))
      throw InputError(fmt::format("mm: matrix_cores=1 computes 32x32 tiles; m={} and n={} must be multiples of 32", m_, n_));
    kernel_ = ctx.kernel("mm", mfma_ ? "mm_mfma" : "mm");
    ctx.expect_launches(1);
  }

  void run(Context& ctx) override {
    const std::vector<ArgValue> args = {buf(da_), buf(db_), buf(dc_), val(m_), val(n_), val(k_)};
    // The matrix-core kernel is a work-group of four waves per 32x32 tile of C.
    if (mfma_) ctx.launch(kernel_, {n_ / 32 * 256, m_ / 32, 1}, {256, 1, 1}, args);
    else ctx.launch(kernel_, {n_, m_, 1}, {16, 16, 1}, args);
  }

  void verify(Context& ctx) override {
    std::vector<float> ref(size_t(m_) * n_);
    for (uint32_t r = 0; r < m_; ++r)
      for (uint32_t c = 0; c < n_; ++c) {
        float acc = 0;
        for (uint32_t i = 0; i < k_; ++i) acc += a_[size_t(r) * k_ + i] * b_[size_t(i) * n_ + c];
        ref[size_t(r) * n_ + c] = acc;
      }
    // Same order of k; fused multiply-adds may round each step differently: k steps of <= 2^-24 * |partial|
    // (the matrix cores round once per four k, which the same bound covers).
    expect_close("c", ctx.download<float>(dc_, ref.size()), ref, 1e-4, 1e-6 * k_);
  }

 private:
  uint32_t m_, n_, k_;
  bool mfma_;
  std::vector<float> a_, b_;
  uint64_t da_ = 0, db_ = 0, dc_ = 0;
  Kernel kernel_;
};

}  // namespace

STROBE_BENCHMARK(MatMul, "mm", "Dense SGEMM C = A*B with 16x16 LDS tiles",
                 {int_param(STROBE_FIELD(MatMulParams, m), 512, 16, 8192, "rows of A and C (multiple of 16)").with_small(64),
                  int_param(STROBE_FIELD(MatMulParams, n), 512, 16, 8192, "columns of B and C (multiple of 16)").with_small(48),
                  int_param(STROBE_FIELD(MatMulParams, k), 512, 16, 8192, "columns of A, rows of B (multiple of 16)").with_small(32),
                  int_param(STROBE_FIELD(MatMulParams, matrix_cores), 0, 0, 1,
                            "1: gfx942's matrix cores, 32x32 tiles of C staged in LDS (needs gpu.isa=gfx942; m, n multiples of 32)")});

}  // namespace strobe::workloads
