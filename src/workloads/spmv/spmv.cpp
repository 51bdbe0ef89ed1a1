// spmv: CSR sparse matrix-vector product on a power-law (or uniform) sparsity pattern.
#include <vector>

#include "workloads/benchmark.h"
#include "workloads/context.h"
#include "workloads/graph.h"
#include "workloads/rng.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

/// Scalar CSR SpMV: with power-law rows, work per work-item varies by orders of magnitude.
class Spmv : public Benchmark {
 public:
  explicit Spmv(const Params& p)
      : rows_(uint32_t(p.i("rows"))), degree_(uint32_t(p.i("degree"))), uniform_(p.i("uniform") != 0) {}

  void setup(Context& ctx) override {
    a_ = make_graph(rows_, rows_, degree_, !uniform_, 15);
    Rng rng(16);
    vals_.resize(a_.nnz()), x_.resize(rows_);
    for (auto& v : vals_) v = rng.uniform(-1, 1);
    for (auto& v : x_) v = rng.uniform(-1, 1);
    drp_ = ctx.upload(a_.row_ptr), dcols_ = ctx.upload(a_.cols), dvals_ = ctx.upload(vals_);
    dx_ = ctx.upload(x_), dy_ = ctx.alloc<float>(rows_);
    k_ = ctx.kernel("spmv", "spmv_csr");
    ctx.expect_launches(1);
  }

  void run(Context& ctx) override {
    ctx.launch(k_, {round_up(rows_, 256), 1, 1}, {256, 1, 1},
               {buf(drp_), buf(dcols_), buf(dvals_), buf(dx_), buf(dy_), val(rows_)});
  }

  void verify(Context& ctx) override {
    std::vector<float> ref(rows_);
    uint32_t longest = 0;
    for (uint32_t r = 0; r < rows_; ++r) {
      float acc = 0;
      for (uint32_t e = a_.row_ptr[r]; e < a_.row_ptr[r + 1]; ++e) acc += vals_[e] * x_[a_.cols[e]];
      ref[r] = acc;
      longest = std::max(longest, a_.row_ptr[r + 1] - a_.row_ptr[r]);
    }
    // Same order within a row; multiply-add rounding may differ by an ulp per step of the longest row.
    expect_close("y", ctx.download<float>(dy_, rows_), ref, 1e-4, 1e-6 * longest);
  }

 private:
  uint32_t rows_, degree_;
  bool uniform_;
  Csr a_;
  std::vector<float> vals_, x_;
  uint64_t drp_ = 0, dcols_ = 0, dvals_ = 0, dx_ = 0, dy_ = 0;
  Kernel k_;
};

}  // namespace

STROBE_BENCHMARK(Spmv, "spmv", "CSR sparse matrix-vector product, power-law row lengths (scalar kernel)",
                 {int_param("rows", 1 << 16, 1, 1 << 24, "rows and columns").with_small(2000),
                  int_param("degree", 16, 1, 1024, "average non-zeros per row").with_small(8),
                  int_param("uniform", 0, 0, 1, "1: uniform row lengths instead of power-law")});

}  // namespace strobe::workloads
