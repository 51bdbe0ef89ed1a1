// lavamd: Rodinia lavaMD, pairwise potential and force between particles of neighbouring boxes.
#include <cmath>
#include <vector>

#include "workloads/benchmark.h"
#include "workloads/context.h"
#include "workloads/rng.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

/// lavamd's parameters, bound to their declarations in STROBE_BENCHMARK below.
struct LavaMdParams {
  int64_t boxes1d = 0, particles = 0;
};

/// A particle's "v" term and position, or its potential and force (the kernel's four_vector).
struct FourVector {
  float v, x, y, z;
};

/// Rodinia lavaMD: one launch, one work-group of 128 per box, each neighbour box staged in LDS.
class LavaMd : public Benchmark {
 public:
  explicit LavaMd(const LavaMdParams& p) : b1_(uint32_t(p.boxes1d)), per_box_(uint32_t(p.particles)) {}

  void setup(Context& ctx) override {
    // Neighbours: the boxes within one step on every axis, no wrap-around at the grid's faces.
    uint32_t nboxes = b1_ * b1_ * b1_;
    boxes_.assign(size_t(nboxes) * 27, 0);
    for (uint32_t z = 0; z < b1_; ++z)
      for (uint32_t y = 0; y < b1_; ++y)
        for (uint32_t x = 0; x < b1_; ++x) {
          int32_t* b = &boxes_[size_t((z * b1_ + y) * b1_ + x) * 27];
          for (int dz = -1; dz <= 1; ++dz)
            for (int dy = -1; dy <= 1; ++dy)
              for (int dx = -1; dx <= 1; ++dx) {
                int nz = int(z) + dz, ny = int(y) + dy, nx = int(x) + dx, side = int(b1_);
                if ((dz | dy | dx) == 0 || nz < 0 || ny < 0 || nx < 0 || nz >= side || ny >= side || nx >= side)
                  continue;
                b[++b[0]] = (nz * side + ny) * side + nx;
              }
        }
    // Every value is one of 0.1, 0.2, ..., 1.0, as Rodinia draws them.
    Rng rng(43);
    auto draw = [&] { return float(rng.below(10) + 1) / 10.0f; };
    rv_.resize(size_t(nboxes) * per_box_), qv_.resize(rv_.size());
    for (auto& r : rv_) r = {draw(), draw(), draw(), draw()};
    for (auto& q : qv_) q = draw();
    dboxes_ = ctx.upload(boxes_), drv_ = ctx.upload(rv_), dqv_ = ctx.upload(qv_);
    dfv_ = ctx.alloc<FourVector>(rv_.size());
    k_ = ctx.kernel("lavamd", "lavamd");
    ctx.expect_launches(1);
  }

  void run(Context& ctx) override {
    uint32_t nboxes = b1_ * b1_ * b1_;
    ctx.launch(k_, {nboxes * kThreads, 1, 1}, {kThreads, 1, 1},
               {val(kAlpha), val(per_box_), buf(dboxes_), buf(drv_), buf(dqv_), buf(dfv_),
                lds(per_box_ * sizeof(FourVector)), lds(per_box_ * sizeof(FourVector)), lds(per_box_ * sizeof(float))});
  }

  void verify(Context& ctx) override {
    // The same sums in double and in the device's order (home box, then the table's neighbours),
    // with an error bound per output. The device rounds each partial sum S_i (at most u |S_i|,
    // u = 2^-24) and each term t_i: with every input in [0.1, 1] and a2 = 0.5, r2 is off by at
    // most 14u absolute (three products, two sums), so u2 = r2 / 2 by 7u and exp(-u2) by 7u + 2u
    // (ocml's expf is within 1 ulp) relative; the force's difference and two products add 3u.
    // So |got - sum| <= u (sum |S_i| + 12 sum |t_i|), and 16 leaves room for second-order terms.
    const double u = 0x1p-24, a2 = 2.0 * kAlpha * kAlpha;
    size_t np = rv_.size();
    std::vector<double> want(4 * np, 0.0), bound(4 * np, 0.0);
    for (size_t bx = 0; bx < boxes_.size() / 27; ++bx) {
      const int32_t* b = &boxes_[bx * 27];
      for (uint32_t i = 0; i < per_box_; ++i) {
        const FourVector& a = rv_[bx * per_box_ + i];
        double s[4] = {0, 0, 0, 0}, partial[4] = {0, 0, 0, 0}, terms[4] = {0, 0, 0, 0};
        for (int k = 0; k <= b[0]; ++k) {
          size_t other = size_t(k == 0 ? bx : size_t(b[k])) * per_box_;
          for (uint32_t j = 0; j < per_box_; ++j) {
            const FourVector& o = rv_[other + j];
            double r2 = double(a.v) + o.v - (double(a.x) * o.x + double(a.y) * o.y + double(a.z) * o.z);
            double vij = std::exp(-a2 * r2), q = qv_[other + j];
            double t[4] = {q * vij, q * 2 * vij * (double(a.x) - o.x), q * 2 * vij * (double(a.y) - o.y),
                           q * 2 * vij * (double(a.z) - o.z)};
            for (int c = 0; c < 4; ++c) s[c] += t[c], partial[c] += std::fabs(s[c]), terms[c] += std::fabs(t[c]);
          }
        }
        for (int c = 0; c < 4; ++c) {
          want[4 * (bx * per_box_ + i) + c] = s[c];
          bound[4 * (bx * per_box_ + i) + c] = u * (partial[c] + 16 * terms[c]);
        }
      }
    }
    auto fv = ctx.download<float>(dfv_, 4 * np);  // v, x, y, z per particle
    expect_within("fv", fv, want, bound);
  }

 private:
  static constexpr uint32_t kThreads = 128;  ///< work-items per box (Rodinia's NUMBER_THREADS)
  static constexpr float kAlpha = 0.5f;      ///< Rodinia's par.alpha
  uint32_t b1_, per_box_;
  std::vector<int32_t> boxes_;  ///< per box: neighbour count, then up to 26 neighbour box numbers
  std::vector<FourVector> rv_;
  std::vector<float> qv_;
  uint64_t dboxes_ = 0, drv_ = 0, dqv_ = 0, dfv_ = 0;
  Kernel k_;
};

}  // namespace

STROBE_BENCHMARK(LavaMd, "lavamd", "Rodinia lavaMD: particle potentials and forces over 27 neighbouring boxes, LDS-staged",
                 {int_param(STROBE_FIELD(LavaMdParams, boxes1d), 10, 1, 32, "boxes per side of the cubic grid").with_small(3),
                  int_param(STROBE_FIELD(LavaMdParams, particles), 100, 1, 1024, "particles per box").with_small(100)});

}  // namespace strobe::workloads
