// lud: blocked LU decomposition without pivoting (Rodinia lud), three launches per 16-wide block step.
#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/core.h>

#include "workloads/benchmark.h"
#include "workloads/context.h"
#include "workloads/rng.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

/// lud's parameters, bound to their declarations in STROBE_BENCHMARK below.
struct LudParams {
  int64_t n = 0;
};

/// Rodinia lud: per block step a one-group diagonal factorisation, a perimeter solve over the
/// remaining block row and column, and an internal update of the trailing blocks; the last two
/// launches shrink as the factorisation proceeds, and a final diagonal launch closes it.
class Lud : public Benchmark {
 public:
  explicit Lud(const LudParams& p) : n_(uint32_t(p.n)) {
    if (n_ % kBs) throw InputError(fmt::format("lud: n={} must be a multiple of {}", n_, kBs));
  }

  void setup(Context& ctx) override {
    // Diagonally dominant, so factorisation without pivoting is stable (multipliers stay small).
    Rng rng(41);
    a_.resize(size_t(n_) * n_);
    for (uint32_t i = 0; i < n_; ++i) {
      for (uint32_t j = 0; j < n_; ++j) a_[size_t(i) * n_ + j] = rng.uniform(-1, 1);
      a_[size_t(i) * n_ + i] += float(n_);
    }
    dm_ = ctx.upload(a_);
    kdiag_ = ctx.kernel("lud", "lud_diagonal"), kperi_ = ctx.kernel("lud", "lud_perimeter");
    kint_ = ctx.kernel("lud", "lud_internal");
    ctx.expect_launches(3 * (n_ / kBs - 1) + 1);
  }

  void run(Context& ctx) override {
    uint32_t off = 0;
    for (; off + kBs < n_; off += kBs) {
      uint32_t rest = (n_ - off) / kBs - 1;  // blocks right of (and below) the diagonal block
      ctx.launch(kdiag_, {kBs, 1, 1}, {kBs, 1, 1}, {buf(dm_), val(n_), val(off)});
      ctx.launch(kperi_, {2 * kBs * rest, 1, 1}, {2 * kBs, 1, 1}, {buf(dm_), val(n_), val(off)});
      ctx.launch(kint_, {kBs * rest, kBs * rest, 1}, {kBs, kBs, 1}, {buf(dm_), val(n_), val(off)});
    }
    ctx.launch(kdiag_, {kBs, 1, 1}, {kBs, 1, 1}, {buf(dm_), val(n_), val(off)});
  }

  void verify(Context& ctx) override {
    // The device's strict lower triangle is L (unit diagonal implied), the rest U. Since the LU
    // factors of a nonsingular matrix are unique, L*U reproducing A up to rounding proves them.
    auto lu = ctx.download<float>(dm_, size_t(n_) * n_);
    std::vector<double> prod(lu.size(), 0.0), mag(lu.size(), 0.0);
    for (uint32_t i = 0; i < n_; ++i)
      for (uint32_t k = 0; k <= i; ++k) {
        double l = k == i ? 1.0 : double(lu[size_t(i) * n_ + k]);
        double* p = &prod[size_t(i) * n_];
        double* g = &mag[size_t(i) * n_];
        for (uint32_t j = k; j < n_; ++j) {
          double u = lu[size_t(k) * n_ + j];
          p[j] += l * u;
          g[j] += std::fabs(l * u);
        }
      }
    // Backward error of LU (Higham, Accuracy and Stability, Thm 9.3 via Lemma 8.4): entry (i, j)
    // of L*U - A is at most gamma_m (|L||U|)_ij, gamma_m = m u / (1 - m u), for any order of the
    // inner products and with or without fused multiply-adds. Here m counts the min(i, j) + 1
    // terms of the entry plus 5 for a division (OpenCL allows 2.5 ulp = 5 u, not 0.5 ulp); the
    // double-precision product above adds at most n 2^-53 (|L||U|)_ij.
    std::vector<double> want(a_.begin(), a_.end()), bound(lu.size());
    for (uint32_t i = 0; i < n_; ++i)
      for (uint32_t j = 0; j < n_; ++j) {
        double m = std::min(i, j) + 6.0;
        bound[size_t(i) * n_ + j] = (float_rounding_bound(m) + n_ * 0x1p-53) * mag[size_t(i) * n_ + j];
      }
    expect_within("L*U", prod, want, bound);
  }

 private:
  static constexpr uint32_t kBs = 16;  ///< block size (Rodinia's BLOCK_SIZE)
  uint32_t n_;
  std::vector<float> a_;
  uint64_t dm_ = 0;
  Kernel kdiag_, kperi_, kint_;
};

}  // namespace

STROBE_BENCHMARK(Lud, "lud", "Blocked LU decomposition without pivoting (Rodinia lud), 16x16 LDS blocks",
                 {int_param(STROBE_FIELD(LudParams, n), 1536, 16, 4096, "matrix order (multiple of 16)").with_small(256)});

}  // namespace strobe::workloads
