// backprop: one training step of Rodinia's perceptron (n inputs, 16 hidden units, 1 output).
#include <cmath>
#include <vector>

#include <fmt/core.h>

#include "workloads/benchmark.h"
#include "workloads/context.h"
#include "workloads/rng.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

/// backprop's parameters, bound to their declarations in STROBE_BENCHMARK below.
struct BackpropParams {
  int64_t inputs = 0;
};

constexpr uint32_t kH = 16;
constexpr float kEta = 0.3f, kMomentum = 0.3f;

float squash(float x) { return 1.0f / (1.0f + std::exp(-x)); }

/// Rodinia backprop: an LDS-reduction forward kernel and a weight-update kernel, with the small
/// hidden/output layer work on the host between them, as in the original.
class Backprop : public Benchmark {
 public:
  explicit Backprop(const BackpropParams& p) : n_(uint32_t(p.inputs)) {
    if (n_ % kH) throw InputError(fmt::format("backprop: inputs={} must be a multiple of {}", n_, kH));
  }

  void setup(Context& ctx) override {
    Rng rng(34);
    in_.resize(n_ + 1), w_.resize(size_t(n_ + 1) * (kH + 1)), w2_.resize(kH + 1);
    in_[0] = 1.0f;  // bias unit
    for (uint32_t i = 1; i <= n_; ++i) in_[i] = rng.uniform(0, 1);
    for (auto& w : w_) w = rng.uniform(-0.05f, 0.05f);
    for (auto& w : w2_) w = rng.uniform(-0.5f, 0.5f);
    din_ = ctx.upload(in_), dw_ = ctx.upload(w_), dold_ = ctx.alloc<float>(w_.size());
    dpartial_ = ctx.alloc<float>(size_t(n_ / kH) * kH), ddelta_ = ctx.alloc<float>(kH + 1);
    kf_ = ctx.kernel("backprop", "bp_forward"), ka_ = ctx.kernel("backprop", "bp_adjust");
    ctx.expect_launches(2);
  }

  void run(Context& ctx) override {
    ctx.launch(kf_, {kH, n_, 1}, {kH, kH, 1}, {buf(din_), buf(dw_), buf(dpartial_)});
    // Host: hidden activations, output, errors (Rodinia does this on the CPU too).
    auto partial = ctx.read<float>(dpartial_, size_t(n_ / kH) * kH);
    std::vector<float> hidden(kH + 1, 1.0f);
    for (uint32_t j = 1; j <= kH; ++j) {
      float sum = w_[j];  // bias row
      for (uint32_t b = 0; b < n_ / kH; ++b) sum += partial[size_t(b) * kH + j - 1];
      hidden[j] = squash(sum);
    }
    float out = 0;
    for (uint32_t j = 0; j <= kH; ++j) out += hidden[j] * w2_[j];
    out = squash(out);
    float out_delta = out * (1 - out) * (kTarget - out);
    delta_.assign(kH + 1, 0.0f);
    for (uint32_t j = 1; j <= kH; ++j) delta_[j] = hidden[j] * (1 - hidden[j]) * out_delta * w2_[j];
    ctx.write(ddelta_, delta_);
    ctx.launch(ka_, {kH, n_, 1}, {kH, kH, 1}, {buf(ddelta_), buf(din_), buf(dw_), buf(dold_), val(kEta), val(kMomentum)});
  }

  void verify(Context& ctx) override {
    // Forward partial sums: double reference, any summation order within Higham's bound.
    size_t blocks = n_ / kH;
    std::vector<double> ref(blocks * kH), bound(blocks * kH);
    for (size_t b = 0; b < blocks; ++b)
      for (uint32_t j = 0; j < kH; ++j) {
        double acc = 0, mag = 0;
        for (uint32_t t = 0; t < kH; ++t) {
          size_t i = b * kH + t + 1;
          double p = double(w_[i * (kH + 1) + j + 1]) * in_[i];
          acc += p, mag += std::fabs(p);
        }
        ref[b * kH + j] = acc, bound[b * kH + j] = (kH + 2) * 0x1p-24 * mag + 1e-30;
      }
    expect_within("partial", ctx.download<float>(dpartial_, ref.size()), ref, bound);
    // Weight update from the deltas the run computed; old_dw started at zero.
    std::vector<double> wref(w_.size()), dref(w_.size()), wb(w_.size()), db(w_.size());
    for (uint32_t i = 0; i <= n_; ++i)
      for (uint32_t j = 0; j <= kH; ++j) {
        size_t idx = size_t(i) * (kH + 1) + j;
        double dw = j ? double(kEta) * delta_[j] * in_[i] : 0.0;
        wref[idx] = w_[idx] + dw, dref[idx] = dw;
        db[idx] = 4 * 0x1p-24 * std::fabs(dw) + 1e-30;
        wb[idx] = 4 * 0x1p-24 * (std::fabs(w_[idx]) + std::fabs(dw)) + 1e-30;
      }
    expect_within("w", ctx.download<float>(dw_, w_.size()), wref, wb);
    expect_within("old_dw", ctx.download<float>(dold_, w_.size()), dref, db);
  }

 private:
  static constexpr float kTarget = 0.1f;
  uint32_t n_;
  std::vector<float> in_, w_, w2_, delta_;
  uint64_t din_ = 0, dw_ = 0, dold_ = 0, dpartial_ = 0, ddelta_ = 0;
  Kernel kf_, ka_;
};

}  // namespace

STROBE_BENCHMARK(Backprop, "backprop", "Rodinia backprop training step: LDS-reduced forward layer, momentum weight update",
                 {int_param(STROBE_FIELD(BackpropParams, inputs), 1 << 16, 16, 1 << 22, "input units (multiple of 16)").with_small(1024)});

}  // namespace strobe::workloads
