// md: Lennard-Jones forces over a neighbour list (SHOC MD).
#include <cmath>
#include <vector>

#include "workloads/benchmark.h"
#include "workloads/context.h"
#include "workloads/rng.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

/// md's parameters, bound to their declarations in STROBE_BENCHMARK below.
struct MolecularDynamicsParams {
  int64_t atoms = 0, neighbors = 0;
};

/// Molecular dynamics force kernel: data-dependent gathers of neighbour positions.
class MolecularDynamics : public Benchmark {
 public:
  explicit MolecularDynamics(const MolecularDynamicsParams& p) : n_(uint32_t(p.atoms)), maxn_(uint32_t(p.neighbors)) {}

  void setup(Context& ctx) override {
    // Atoms on a jittered cubic lattice (spacing 1, jitter +-0.2): no pair closer than 0.6,
    // so the r^-13 force stays bounded.
    Rng rng(31);
    uint32_t side = 1;
    while (side * side * side < n_) ++side;
    pos_.resize(4 * size_t(n_));
    for (uint32_t i = 0; i < n_; ++i) {
      uint32_t c[3] = {i % side, (i / side) % side, i / (side * side)};
      for (int k = 0; k < 3; ++k) pos_[4 * i + k] = float(c[k]) + rng.uniform(-0.2f, 0.2f);
      pos_[4 * i + 3] = 0;
    }
    // Neighbour lists: atoms within the list cutoff in the lattice neighbourhood, randomly
    // ordered, truncated at maxn_, padded with -1; stored neighbour-major.
    neigh_.assign(size_t(maxn_) * n_, -1);
    for (uint32_t i = 0; i < n_; ++i) {
      std::vector<int32_t> list;
      int ci[3] = {int(i % side), int((i / side) % side), int(i / (side * side))};
      for (int dz = -2; dz <= 2; ++dz)
        for (int dy = -2; dy <= 2; ++dy)
          for (int dx = -2; dx <= 2; ++dx) {
            int x = ci[0] + dx, y = ci[1] + dy, z = ci[2] + dz;
            if (x < 0 || y < 0 || z < 0 || x >= int(side) || y >= int(side) || z >= int(side)) continue;
            uint32_t j = uint32_t((z * int(side) + y) * int(side) + x);
            if (j == i || j >= n_) continue;
            if (r2(i, j) < kListCutSq) list.push_back(int32_t(j));
          }
      for (size_t k = list.size(); k > 1; --k) std::swap(list[k - 1], list[rng.below(uint32_t(k))]);
      for (size_t k = 0; k < list.size() && k < maxn_; ++k) neigh_[k * n_ + i] = list[k];
    }
    dpos_ = ctx.upload(pos_), dneigh_ = ctx.upload(neigh_), dforce_ = ctx.alloc<float>(4 * size_t(n_));
    k_ = ctx.kernel("md", "md_lj");
    ctx.expect_launches(1);
  }

  void run(Context& ctx) override {
    ctx.launch(k_, {round_up(n_, 256), 1, 1}, {256, 1, 1},
               {buf(dpos_), buf(dneigh_), buf(dforce_), val(n_), val(maxn_), val(kCutSq), val(kLj1), val(kLj2)});
  }

  void verify(Context& ctx) override {
    auto f = ctx.download<float>(dforce_, 4 * size_t(n_));
    std::vector<double> ref(f.size(), 0.0), bound(f.size(), 0.0);
    for (uint32_t i = 0; i < n_; ++i)
      for (uint32_t k = 0; k < maxn_; ++k) {
        int32_t j = neigh_[size_t(k) * n_ + i];
        if (j < 0) break;
        double d[3], rr = 0;
        for (int c = 0; c < 3; ++c) d[c] = double(pos_[4 * i + c]) - pos_[4 * size_t(j) + c], rr += d[c] * d[c];
        if (rr >= kCutSq) continue;
        double inv = 1.0 / rr, r6 = inv * inv * inv, s = inv * r6 * (kLj1 * r6 - kLj2);
        for (int c = 0; c < 3; ++c) ref[4 * i + c] += d[c] * s, bound[4 * i + c] += std::fabs(d[c] * s);
      }
    // Each term carries a few float roundings (~1e-6 relative); allow 1e-5 of the sum of |terms|.
    for (auto& b : bound) b = 1e-5 * b + 1e-6;
    expect_within("force", f, ref, bound);
  }

 private:
  double r2(uint32_t i, uint32_t j) const {
    double s = 0;
    for (int c = 0; c < 3; ++c) s += (double(pos_[4 * i + c]) - pos_[4 * j + c]) * (double(pos_[4 * i + c]) - pos_[4 * j + c]);
    return s;
  }

  static constexpr float kCutSq = 4.0f, kLj1 = 1.5f, kLj2 = 2.0f;
  static constexpr double kListCutSq = 5.0;  // list radius a little beyond the force cutoff, as MD codes keep a skin
  uint32_t n_, maxn_;
  std::vector<float> pos_;
  std::vector<int32_t> neigh_;
  uint64_t dpos_ = 0, dneigh_ = 0, dforce_ = 0;
  Kernel k_;
};

}  // namespace

STROBE_BENCHMARK(MolecularDynamics, "md", "Lennard-Jones forces over neighbour lists (SHOC MD): irregular gathers",
                 {int_param(STROBE_FIELD(MolecularDynamicsParams, atoms), 1 << 15, 1, 1 << 22, "atoms").with_small(2000),
                  int_param(STROBE_FIELD(MolecularDynamicsParams, neighbors), 64, 1, 128, "neighbour-list capacity per atom").with_small(32)});

}  // namespace strobe::workloads
