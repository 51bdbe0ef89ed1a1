// fir: a finite impulse response filter over a signal processed in blocks, one launch per block.
#include <vector>

#include "workloads/benchmark.h"
#include "workloads/context.h"
#include "workloads/rng.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

/// fir's parameters, bound to their declarations in STROBE_BENCHMARK below.
struct FirParams {
  int64_t n = 0, taps = 0, blocks = 0;
};

/// FIR filter; the history of each block is the tail of the previous one, as in Hetero-Mark.
class Fir : public Benchmark {
 public:
  explicit Fir(const FirParams& p) : n_(uint32_t(p.n)), taps_(uint32_t(p.taps)), blocks_(uint32_t(p.blocks)) {
    if (n_ % blocks_) throw InputError(fmt::format("fir: n={} is not a multiple of blocks={}", n_, blocks_));
  }

  void setup(Context& ctx) override {
    Rng rng(1);
    x_.assign(n_ + taps_ - 1, 0.0f);  // taps-1 zeros of history before the first sample
    for (uint32_t i = taps_ - 1; i < x_.size(); ++i) x_[i] = rng.uniform(-1, 1);
    coeff_.resize(taps_);
    for (auto& c : coeff_) c = rng.uniform(-1, 1) / float(taps_);
    dx_ = ctx.upload(x_), dc_ = ctx.upload(coeff_), dy_ = ctx.alloc<float>(n_);
    k_ = ctx.kernel("fir", "fir");
    ctx.expect_launches(blocks_);
  }

  void run(Context& ctx) override {
    uint32_t count = n_ / blocks_;
    for (uint32_t b = 0; b < blocks_; ++b)
      ctx.launch(k_, {round_up(count, 256), 1, 1}, {256, 1, 1},
                 {buf(dx_), buf(dc_), buf(dy_), val(taps_), val(b * count), val(count)});
  }

  void verify(Context& ctx) override {
    auto y = ctx.download<float>(dy_, n_);
    std::vector<float> ref(n_);
    for (uint32_t i = 0; i < n_; ++i) {
      float acc = 0;
      for (uint32_t j = 0; j < taps_; ++j) acc += coeff_[j] * x_[i + taps_ - 1 - j];
      ref[i] = acc;
    }
    // The device may fuse multiply-adds; |terms| <= 1/taps, so the sum's error stays far below 1e-5.
    expect_close("y", y, ref, 1e-5, 1e-6);
  }

 private:
  uint32_t n_, taps_, blocks_;
  std::vector<float> x_, coeff_;
  uint64_t dx_ = 0, dc_ = 0, dy_ = 0;
  Kernel k_;
};

}  // namespace

STROBE_BENCHMARK(Fir, "fir", "FIR filter over a signal in blocks, one launch per block (Hetero-Mark)",
                 {int_param(STROBE_FIELD(FirParams, n), 1 << 18, 64, 1 << 26, "total samples").with_small(4096),
                  int_param(STROBE_FIELD(FirParams, taps), 16, 1, 1024, "filter taps"),
                  int_param(STROBE_FIELD(FirParams, blocks), 4, 1, 1024, "blocks (launches); must divide n")});

}  // namespace strobe::workloads
