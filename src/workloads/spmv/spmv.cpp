// spmv: CSR sparse matrix-vector product on a power-law (or uniform) sparsity pattern.
#include <cmath>
#include <vector>

#include "workloads/benchmark.h"
#include "workloads/context.h"
#include "workloads/graph.h"
#include "workloads/rng.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

/// spmv's parameters, bound to their declarations in STROBE_BENCHMARK below.
struct SpmvParams {
  int64_t rows = 0, degree = 0, uniform = 0, vector = 0;
};

/// Scalar CSR SpMV: with power-law rows, work per work-item varies by orders of magnitude.
class Spmv : public Benchmark {
 public:
  explicit Spmv(const SpmvParams& p)
      : rows_(uint32_t(p.rows)), degree_(uint32_t(p.degree)), uniform_(p.uniform != 0),
        vector_(p.vector != 0) {}

  void setup(Context& ctx) override {
    a_ = make_graph(rows_, rows_, degree_, !uniform_, 15);
    Rng rng(16);
    vals_.resize(a_.nnz()), x_.resize(rows_);
    for (auto& v : vals_) v = rng.uniform(-1, 1);
    for (auto& v : x_) v = rng.uniform(-1, 1);
    drp_ = ctx.upload(a_.row_ptr), dcols_ = ctx.upload(a_.cols), dvals_ = ctx.upload(vals_);
    dx_ = ctx.upload(x_), dy_ = ctx.alloc<float>(rows_);
    k_ = ctx.kernel("spmv", vector_ ? "spmv_vector" : "spmv_csr");
    ctx.expect_launches(1);
  }

  void run(Context& ctx) override {
    if (vector_) {
      if (uint64_t(rows_) * 64 > 0xffffff00ull) throw InputError("spmv: rows * 64 work-items exceed a 32-bit grid");
      ctx.launch(k_, {round_up(uint64_t(rows_) * 64, 256), 1, 1}, {256, 1, 1},
                 {buf(drp_), buf(dcols_), buf(dvals_), buf(dx_), buf(dy_), val(rows_), lds(256 * 4)});
      return;
    }
    ctx.launch(k_, {round_up(rows_, 256), 1, 1}, {256, 1, 1},
               {buf(drp_), buf(dcols_), buf(dvals_), buf(dx_), buf(dy_), val(rows_)});
  }

  void verify(Context& ctx) override {
    // Double-precision reference; the device sums in a different order for the vector kernel, so
    // allow Higham's bound for any summation order, (len + 2) * 2^-24 * sum |terms|.
    std::vector<double> ref(rows_), bound(rows_);
    for (uint32_t r = 0; r < rows_; ++r) {
      double acc = 0, mag = 0;
      for (uint32_t e = a_.row_ptr[r]; e < a_.row_ptr[r + 1]; ++e) {
        double t = double(vals_[e]) * x_[a_.cols[e]];
        acc += t, mag += std::fabs(t);
      }
      ref[r] = acc;
      bound[r] = double(a_.row_ptr[r + 1] - a_.row_ptr[r] + 2) * 0x1p-24 * mag + 1e-30;
    }
    expect_within("y", ctx.download<float>(dy_, rows_), ref, bound);
  }

 private:
  uint32_t rows_, degree_;
  bool uniform_, vector_;
  Csr a_;
  std::vector<float> vals_, x_;
  uint64_t drp_ = 0, dcols_ = 0, dvals_ = 0, dx_ = 0, dy_ = 0;
  Kernel k_;
};

}  // namespace

STROBE_BENCHMARK(Spmv, "spmv", "CSR sparse matrix-vector product, power-law row lengths (scalar kernel)",
                 {int_param(STROBE_FIELD(SpmvParams, rows), 1 << 16, 1, 1 << 24, "rows and columns").with_small(2000),
                  int_param(STROBE_FIELD(SpmvParams, degree), 16, 1, 1024, "average non-zeros per row").with_small(8),
                  int_param(STROBE_FIELD(SpmvParams, uniform), 0, 0, 1, "1: uniform row lengths instead of power-law"),
                  int_param(STROBE_FIELD(SpmvParams, vector), 0, 0, 1, "1: one wavefront per row (vector CSR) instead of one work-item")});

}  // namespace strobe::workloads
