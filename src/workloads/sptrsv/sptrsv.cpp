// sptrsv: level-scheduled sparse lower-triangular solve L x = b (the cuSPARSE/rocSPARSE level-set method).
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

/// sptrsv's parameters, bound to their declarations in STROBE_BENCHMARK below.
struct SptrsvParams {
  int64_t rows = 0, nnz = 0, band = 0, unit = 0;
};

/// Levels whose rows average at least this many off-diagonal entries get a wavefront per row.
constexpr double kWaveRowMin = 32;

/// Whether row `i` of `n` lies in a dense stripe: the fourth and eighth eighths of the matrix
/// have rows four times as long, with nearer dependencies (a refined region of a mesh).
bool dense_row(uint64_t i, uint64_t n) { return i * 8 / n % 4 == 3; }

/// Host analysis, then one launch per level; the solution is checked against a double-precision
/// forward substitution with a per-row rounding-error bound.
class Sptrsv : public Benchmark {
 public:
  explicit Sptrsv(const SptrsvParams& p)
      : n_(uint32_t(p.rows)), nnz_(uint32_t(p.nnz)), band_(uint32_t(p.band)), unit_(p.unit != 0) {
    // The band must hold a row's columns: up to 2 (nnz - 1) from band/2..band, or 8 (nnz - 1)
    // from band/8..band in a dense stripe (see generate).
    if (uint64_t(band_) < 10 * uint64_t(nnz_ - 1))
      throw InputError(fmt::format("sptrsv: band={} is too narrow for nnz={}: band must be at least "
                                   "10 * (nnz - 1) = {}", band_, nnz_, 10 * (nnz_ - 1)));
  }

  void setup(Context& ctx) override {
    generate();
    // Level of a row: one past the deepest level among its dependencies (0 with none).
    std::vector<uint32_t> level(n_, 0);
    uint32_t levels = 0;
    for (uint32_t r = 0; r < n_; ++r) {
      for (uint32_t e = row_ptr_[r]; e + 1 < row_ptr_[r + 1]; ++e) level[r] = std::max(level[r], level[cols_[e]] + 1);
      levels = std::max(levels, level[r] + 1);
    }
    // Rows grouped by level (ascending within one), and each level's kernel by its mean row length.
    level_ptr_.assign(levels + 1, 0);
    for (uint32_t l : level) ++level_ptr_[l + 1];
    for (uint32_t l = 0; l < levels; ++l) level_ptr_[l + 1] += level_ptr_[l];
    std::vector<uint32_t> rows(n_), fill(level_ptr_.begin(), level_ptr_.end() - 1);
    std::vector<double> offdiag(levels, 0);
    for (uint32_t r = 0; r < n_; ++r) {
      rows[fill[level[r]]++] = r;
      offdiag[level[r]] += row_ptr_[r + 1] - row_ptr_[r] - 1;
    }
    wave_.resize(levels);
    for (uint32_t l = 0; l < levels; ++l) wave_[l] = offdiag[l] >= kWaveRowMin * (level_ptr_[l + 1] - level_ptr_[l]);

    drp_ = ctx.upload(row_ptr_), dcols_ = ctx.upload(cols_), dvals_ = ctx.upload(vals_), db_ = ctx.upload(b_);
    dx_ = ctx.alloc<float>(n_), drows_ = ctx.upload(rows);
    krows_ = ctx.kernel("sptrsv", "sptrsv_rows"), kwave_ = ctx.kernel("sptrsv", "sptrsv_wave");
    ctx.expect_launches(levels);
  }

  void run(Context& ctx) override {
    for (size_t l = 0; l + 1 < level_ptr_.size(); ++l) {
      uint32_t first = level_ptr_[l], count = level_ptr_[l + 1] - first, unit = unit_;
      std::vector<ArgValue> args{buf(drp_), buf(dcols_), buf(dvals_), buf(db_), buf(dx_), buf(drows_),
                                 val(first), val(count), val(unit)};
      if (wave_[l]) {
        args.push_back(lds(256 * sizeof(float)));
        ctx.launch(kwave_, {round_up(uint64_t(count) * 64, 256), 1, 1}, {256, 1, 1}, std::move(args));
      } else {
        // Groups of one wavefront: a level of a few thousand short rows still spreads over every CU.
        ctx.launch(krows_, {round_up(count, 64), 1, 1}, {64, 1, 1}, std::move(args));
      }
    }
  }

  void verify(Context& ctx) override {
    // Forward substitution in double, with a first-order bound on the device's float error:
    // row r's float sum of b and its products is off by at most gamma(len) * (|b| + sum |l x|)
    // in any summation order (Higham: gamma(k) = k u / (1 - k u), u = 2^-24; a fused multiply-add
    // rounds once), errors already in x[c] enter as |l| e[c], the division adds up to 2.5 ulp of x
    // (OpenCL's single-precision bound; 3 u |x| allowed), and a flushed denormal at most 1e-30.
    // The neglected second-order terms are len * u times smaller. Diagonal dominance keeps the sum
    // of |l| / |d| under 1, so carried errors shrink from level to level instead of compounding.
    const double u = 0x1p-24;
    std::vector<double> x(n_), err(n_);
    for (uint32_t r = 0; r < n_; ++r) {
      uint32_t diag = row_ptr_[r + 1] - 1, len = diag - row_ptr_[r] + 1;
      double s = b_[r], mag = std::fabs(b_[r]), carried = 0;
      for (uint32_t e = row_ptr_[r]; e < diag; ++e) {
        s -= double(vals_[e]) * x[cols_[e]];
        mag += std::fabs(double(vals_[e]) * x[cols_[e]]);
        carried += std::fabs(vals_[e]) * err[cols_[e]];
      }
      double d = unit_ ? 1.0 : double(vals_[diag]);
      x[r] = s / d;
      err[r] = (float_rounding_bound(len) * mag + carried) / std::fabs(d) + (unit_ ? 0 : 3 * u * std::fabs(x[r])) + 1e-30;
    }
    expect_within("x", ctx.download<float>(dx_, n_), x, err);
  }

 private:
  /// A seeded banded lower triangle: row r depends on columns at distance band/2..band below it
  /// (band/8..band in a dense stripe), so a level spans about band/2 rows (band/8 in a stripe),
  /// plus one long-range dependency anywhere above the band in one row of 16. Off-diagonal
  /// magnitudes sum to under 1 and the diagonal lies in [1, 2), so the system is diagonally dominant.
  void generate() {
    Rng rng(47);
    row_ptr_.assign(1, 0), cols_.clear(), vals_.clear(), b_.resize(n_);
    std::vector<uint32_t> c;
    for (uint32_t r = 0; r < n_; ++r) {
      bool dense = dense_row(r, n_);
      uint32_t m = rng.below(2 * (nnz_ - 1) + 1) * (dense ? 4 : 1);  // nnz - 1 off-diagonals on average
      uint32_t near = std::max(1u, dense ? band_ / 8 : band_ / 2), far = std::min(band_, r);
      c.clear();
      for (uint32_t k = 0; near <= far && k < m; ++k) c.push_back(r - near - rng.below(far - near + 1));
      if (r > band_ && rng.below(16) == 0) c.push_back(rng.below(r - band_));
      std::sort(c.begin(), c.end());
      c.erase(std::unique(c.begin(), c.end()), c.end());  // a repeated column is drawn once
      for (uint32_t col : c) cols_.push_back(col), vals_.push_back(rng.uniform(-1, 1) / float(c.size()));
      cols_.push_back(r), vals_.push_back(rng.uniform(1, 2));
      row_ptr_.push_back(uint32_t(cols_.size()));
      b_[r] = rng.uniform(-1, 1);
    }
  }

  uint32_t n_, nnz_, band_;
  bool unit_;
  std::vector<uint32_t> row_ptr_, cols_, level_ptr_;
  std::vector<float> vals_, b_;
  std::vector<bool> wave_;  ///< per level: a wavefront per row instead of a work-item
  uint64_t drp_ = 0, dcols_ = 0, dvals_ = 0, db_ = 0, dx_ = 0, drows_ = 0;
  Kernel krows_, kwave_;
};

}  // namespace

STROBE_BENCHMARK(Sptrsv, "sptrsv", "Sparse lower-triangular solve by level sets, one launch per level (CSR, diagonal last)",
                 {int_param(STROBE_FIELD(SptrsvParams, rows), 1 << 20, 1, 1 << 22, "rows (and columns) of L").with_small(20000),
                  int_param(STROBE_FIELD(SptrsvParams, nnz), 16, 1, 64, "average stored entries per row outside the dense stripes (diagonal included)").with_small(10),
                  int_param(STROBE_FIELD(SptrsvParams, band), 16384, 1, 1 << 22, "reach of the banded dependencies below the diagonal").with_small(1024),
                  int_param(STROBE_FIELD(SptrsvParams, unit), 0, 0, 1, "1: unit diagonal (the stored diagonal is not read)")});

}  // namespace strobe::workloads
