// particlefilter: Rodinia particlefilter (float OpenCL version): particles track a moving disk through a noisy video.
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

/// particlefilter's parameters, bound to their declarations in STROBE_BENCHMARK below.
struct ParticleFilterParams {
  int64_t particles = 0, frames = 0;
};

constexpr double kUnit = 0x1p-24;     ///< float unit roundoff: half an ulp, relative
constexpr double kTiny = 0x1p-126;    ///< FLT_MIN: the device flushes anything smaller to zero
constexpr int32_t kSize = 128;        ///< video width and height (Rodinia's default)

/// One step of Rodinia's generator as randu in particlefilter.cl takes it (wrapping multiply).
int32_t lcg(int32_t s) { return int32_t(1103515245u * uint32_t(s) + 12345u) % 2147483647; }
/// The uniform number randu returns for generator state `s`.
float unif(int32_t s) { return std::fabs(float(s) / 2147483647.0f); }

/// The device's state after one frame's four launches.
struct Frame {
  std::vector<int32_t> seed;
  std::vector<float> x, y, lik, w, cdf, u, xj, yj;
  float sum = 0;
};

/// Four launches per frame (likelihood, sum, normalize, find_index). The state after every frame
/// is kept, so verification can check each launch from the device's own inputs: the device's
/// log, cos and exp differ from the host's by ulps, and one ulp in a CDF step can resample a
/// different particle, so a host run started once from frame 0 would diverge.
class ParticleFilter : public Benchmark {
 public:
  explicit ParticleFilter(const ParticleFilterParams& p)
      : n_(uint32_t(p.particles)), frames_(uint32_t(p.frames)), groups_((n_ + kWg - 1) / kWg) {}

  void setup(Context& ctx) override {
    make_video();
    for (int32_t dx = -4; dx <= 4; ++dx)  // the particle's disk: offsets closer than 5 pixels
      for (int32_t dy = -4; dy <= 4; ++dy)
        if (dx * dx + dy * dy < 25) objxy_.push_back(dx), objxy_.push_back(dy);
    ones_ = uint32_t(objxy_.size() / 2);
    Rng rng(47);
    seed0_.resize(n_);
    for (auto& s : seed0_) s = int32_t(rng.u32() >> 1);
    xj0_.assign(n_, float(kSize / 2));  // every particle starts at the image centre
    dvideo_ = ctx.upload(video_), dobjxy_ = ctx.upload(objxy_), dseed_ = ctx.upload(seed0_);
    dxj_ = ctx.upload(xj0_), dyj_ = ctx.upload(xj0_);
    dx_ = ctx.alloc<float>(n_), dy_ = ctx.alloc<float>(n_), dw_ = ctx.alloc<float>(n_);
    dlik_ = ctx.alloc<float>(n_), dcdf_ = ctx.alloc<float>(n_), du_ = ctx.alloc<float>(n_);
    dind_ = ctx.alloc<int32_t>(size_t(n_) * ones_), dpart_ = ctx.alloc<float>(groups_), du1_ = ctx.alloc<float>(1);
    klik_ = ctx.kernel("particlefilter", "pf_likelihood"), ksum_ = ctx.kernel("particlefilter", "pf_sum");
    knorm_ = ctx.kernel("particlefilter", "pf_normalize"), kfind_ = ctx.kernel("particlefilter", "pf_find_index");
    ctx.expect_launches(4 * (frames_ - 1));
  }

  void run(Context& ctx) override {
    history_.clear();
    Dim3 grid{groups_ * kWg, 1, 1}, local{kWg, 1, 1};  // Rodinia launches all four over every particle
    for (uint32_t k = 1; k < frames_; ++k) {  // frame 0 only places the object, as in Rodinia
      ctx.launch(klik_, grid, local,
                 {buf(dx_), buf(dy_), buf(dxj_), buf(dyj_), buf(dw_), buf(dlik_), buf(dind_), buf(dvideo_),
                  buf(dobjxy_), buf(dseed_), buf(dpart_), val(n_), val(ones_), val(uint32_t(kSize)), val(frames_),
                  val(k)});
      ctx.launch(ksum_, grid, local, {buf(dpart_), buf(dseed_), buf(du1_), val(groups_), val(n_)});
      ctx.launch(knorm_, grid, local, {buf(dw_), buf(dpart_), buf(dcdf_), buf(du_), buf(du1_), val(n_)});
      ctx.launch(kfind_, grid, local, {buf(dx_), buf(dy_), buf(dcdf_), buf(du_), buf(dxj_), buf(dyj_), val(n_)});
      Frame f{ctx.read<int32_t>(dseed_, n_), ctx.read<float>(dx_, n_), ctx.read<float>(dy_, n_),
              ctx.read<float>(dlik_, n_), ctx.read<float>(dw_, n_), ctx.read<float>(dcdf_, n_),
              ctx.read<float>(du_, n_), ctx.read<float>(dxj_, n_), ctx.read<float>(dyj_, n_),
              ctx.read_scalar<float>(dpart_)};
      history_.push_back(std::move(f));
    }
  }

  void verify(Context& ctx) override {
    // The final particle arrays go through the verification download path.
    Frame& last = history_.back();
    last.xj = ctx.download<float>(dxj_, n_), last.yj = ctx.download<float>(dyj_, n_);
    last.x = ctx.download<float>(dx_, n_), last.y = ctx.download<float>(dy_, n_);
    last.lik = ctx.download<float>(dlik_, n_), last.w = ctx.download<float>(dw_, n_);
    last.cdf = ctx.download<float>(dcdf_, n_), last.u = ctx.download<float>(du_, n_);
    last.seed = ctx.download<int32_t>(dseed_, n_);
    std::vector<double> est_got, est_ref, est_bound;
    for (uint32_t k = 1; k < frames_; ++k) {
      const Frame* prev = k > 1 ? &history_[k - 2] : nullptr;
      check_frame(k, prev ? prev->seed : seed0_, prev ? prev->xj : xj0_, prev ? prev->yj : xj0_, history_[k - 1],
                  est_got, est_ref, est_bound);
    }
    // The estimated object position per frame: the weighted mean of the particles, as Rodinia's host computes it.
    expect_within("estimated position (x, y per frame)", est_got, est_ref, est_bound);
    // The last frame's video indices follow exactly from the device's particle positions.
    std::vector<int32_t> ind(size_t(n_) * ones_);
    for (uint32_t i = 0; i < n_; ++i)
      for (uint32_t c = 0; c < ones_; ++c) ind[size_t(i) * ones_ + c] = video_index(last.x[i], last.y[i], c, frames_ - 1);
    expect_equal("ind", ctx.download<int32_t>(dind_, ind.size()), ind);
  }

 private:
  /// Rodinia's synthetic video: a disk of radius 5 starting at the centre and moving (+1, -2)
  /// pixels a frame from frame 1 on, plus Gaussian noise of deviation 5 (a sum of 12 uniforms:
  /// exact arithmetic, so every host makes the same video). Rodinia's intensities (100
  /// background, 228 disk) give likelihoods near +-328, whose exp over- and underflows float.
  /// Here the background is 160 and the disk 172 (the likelihood is neutral at 164, so it still
  /// favours the disk), clamped to [151, 181]: every pixel's term lies in [-66.6, 87.1], so any
  /// particle's weight exp(mean term) / n is finite and, for n up to 2^17, a normal float; the
  /// weight sum can neither overflow nor vanish.
  void make_video() {
    Rng rng(46);
    video_.resize(size_t(kSize) * kSize * frames_);
    for (uint32_t k = 0; k < frames_; ++k) {
      int32_t step = k ? int32_t(k) - 1 : 0, cx = kSize / 2 + step, cy = std::abs(kSize / 2 - 2 * step);
      for (int32_t x = 0; x < kSize; ++x)
        for (int32_t y = 0; y < kSize; ++y) {
          bool disk = (x - cx) * (x - cx) + (y - cy) * (y - cy) <= 25;
          double g = -6;
          for (int j = 0; j < 12; ++j) g += double(rng.u32() >> 8) * 0x1p-24;
          double v = std::clamp(std::round((disk ? 172 : 160) + 5 * g), 151.0, 181.0);
          video_[(size_t(x) * kSize + y) * frames_ + k] = uint8_t(v);
        }
    }
  }

  /// The video index the likelihood kernel samples for disk point c of a particle at (x, y).
  int32_t video_index(float x, float y, uint32_t c, uint32_t k) const {
    int32_t rx = int32_t(std::floor(x + 0.5f)), ry = int32_t(std::floor(y + 0.5f));
    int32_t idx = std::abs((rx + objxy_[2 * c]) * kSize * int32_t(frames_) + (ry + objxy_[2 * c + 1]) * int32_t(frames_) +
                           int32_t(k));
    return idx >= kSize * kSize * int32_t(frames_) ? 0 : idx;
  }

  /// Checks frame k's launches from the state before it (generator states, resampled particles)
  /// and appends the frame's estimated position, its reference and their bound.
  void check_frame(uint32_t k, const std::vector<int32_t>& seed0, const std::vector<float>& xj0,
                   const std::vector<float>& yj0, const Frame& f, std::vector<double>& est_got,
                   std::vector<double>& est_ref, std::vector<double>& est_bound) const {
    auto name = [k](const char* what) { return fmt::format("frame {} {}", k, what); };
    // Generators: four draws per particle, one more from particle 0 for u1; integers, exact.
    std::vector<int32_t> seed(n_);
    std::vector<double> x(n_), y(n_), xb(n_), yb(n_);
    for (uint32_t i = 0; i < n_; ++i) {
      int32_t s[5] = {seed0[i]};
      for (int j = 1; j < 5; ++j) s[j] = lcg(s[j - 1]);
      auto move = [&](int32_t su, int32_t sv, double from, double drift, double scale, double& pos, double& bound) {
        double r = std::sqrt(-2.0 * std::log(double(unif(su))));
        pos = from + drift + scale * r * std::cos(double(2.0f * 3.14159265358979f * unif(sv)));
        // randu's divide may be 2.5 ulps (5 units) off: through 2*pi*v and cos (2 ulps) that is
        // under 40 units of cos absolute, and log and sqrt add 8 units of r; through u it moves r
        // by at most 5 units / r (linearised) or sqrt(10 units) (sqrt is subadditive). The
        // multiplies and adds round 4 times at the position's magnitude.
        double dr = r > 0 ? std::min(5 * kUnit / r, std::sqrt(10 * kUnit)) : std::sqrt(10 * kUnit);
        bound = scale * (48 * kUnit * r + dr) + 4 * kUnit * (std::fabs(from) + std::fabs(drift) + scale * r);
      };
      move(s[1], s[2], xj0[i], 1.0, 5.0, x[i], xb[i]);
      move(s[3], s[4], yj0[i], -2.0, 2.0, y[i], yb[i]);
      seed[i] = s[4];
    }
    seed[0] = lcg(seed[0]);
    expect_equal(name("seed"), f.seed, seed);
    expect_within(name("x"), f.x, x, xb);
    expect_within(name("y"), f.y, y, yb);
    // Likelihoods from the device's positions: each term is exact but for the device's divide
    // (2.5 ulps); recursive summation of `ones` terms adds (ones - 1) roundings of the running sum.
    std::vector<double> lik(n_), likb(n_), raw(n_);
    double sum = 0;
    for (uint32_t i = 0; i < n_; ++i) {
      double s = 0, mag = 0;
      for (uint32_t c = 0; c < ones_; ++c) {
        double v = video_[video_index(f.x[i], f.y[i], c, k)];
        double t = ((v - 100) * (v - 100) - (v - 228) * (v - 228)) / 50;
        s += t, mag += std::fabs(t);
      }
      lik[i] = s / ones_, likb[i] = (ones_ + 10) * kUnit * mag / ones_;
      raw[i] = std::exp(double(f.lik[i])) / n_;  // the weight from the device's own likelihood
      sum += raw[i];
    }
    expect_within(name("likelihood"), f.lik, lik, likb);
    // The weight sum: a raw weight is within 14 units (1/n, exp, multiply); the 512-wide tree
    // and the serial sum of the groups add one unit per level to a sum of non-negative terms;
    // flushed subnormal weights lose under FLT_MIN each.
    double sum_rel = (14 + 9 + groups_) * kUnit;
    expect_within(name("weight sum"), std::vector<float>{f.sum}, {sum}, {sum * sum_rel + n_ * kTiny});
    // Normalised weights: the same plus 5 units for the divide, and a flushed result or input.
    std::vector<double> w(n_), wb(n_);
    for (uint32_t i = 0; i < n_; ++i)
      w[i] = raw[i] / sum, wb[i] = w[i] * (sum_rel + 19 * kUnit) + 2 * kTiny * (1 + 1 / sum);
    expect_within(name("weights"), f.w, w, wb);
    // The CDF repeats the device's float additions of its own weights in order: exact, but for
    // flushed subnormal weights.
    std::vector<float> cdf(n_);
    float acc = 0;
    for (uint32_t i = 0; i < n_; ++i) cdf[i] = acc += f.w[i];
    expect_close(name("cdf"), f.cdf, cdf, 0, n_ * kTiny);
    // Resampling points u1 + i/n: three divides and a multiply on u1, a divide on i/n and the
    // add, all of non-negative terms: within 12 units of u.
    std::vector<float> u(n_);
    float u1 = (1.0f / float(n_)) * unif(seed[0]);
    for (uint32_t i = 0; i < n_; ++i) u[i] = u1 + float(i) / float(n_);
    expect_close(name("u"), f.u, u, 12 * kUnit, 0);
    // Resampling from the device's CDF and points is a search: exact.
    std::vector<float> xj(n_), yj(n_);
    for (uint32_t i = 0; i < n_; ++i) {
      auto it = std::find_if(f.cdf.begin(), f.cdf.end(), [&](float c) { return c >= f.u[i]; });
      size_t idx = it == f.cdf.end() ? n_ - 1 : size_t(it - f.cdf.begin());
      xj[i] = f.x[idx], yj[i] = f.y[idx];
    }
    expect_equal(name("resampled x"), f.xj, xj);
    expect_equal(name("resampled y"), f.yj, yj);
    // The estimate sum(x_i w_i) of each coordinate: the bounds above, weighted.
    for (int axis = 0; axis < 2; ++axis) {
      const std::vector<float>& pos = axis ? f.y : f.x;
      const std::vector<double>& ref = axis ? y : x;
      const std::vector<double>& rb = axis ? yb : xb;
      double got = 0, want = 0, bound = 0;
      for (uint32_t i = 0; i < n_; ++i) {
        got += double(pos[i]) * f.w[i], want += ref[i] * w[i];
        bound += std::fabs(double(pos[i])) * wb[i] + w[i] * rb[i];
      }
      // plus the double-precision rounding of the two sums of n terms
      est_got.push_back(got), est_ref.push_back(want), est_bound.push_back(bound + 0x1p-40 * (1 + std::fabs(want)));
    }
  }

  static constexpr uint32_t kWg = 512;  // as WG in particlefilter.cl
  uint32_t n_, frames_, groups_, ones_ = 0;
  std::vector<uint8_t> video_;
  std::vector<int32_t> objxy_, seed0_;
  std::vector<float> xj0_;
  std::vector<Frame> history_;
  uint64_t dvideo_ = 0, dobjxy_ = 0, dseed_ = 0, dxj_ = 0, dyj_ = 0, dx_ = 0, dy_ = 0, dw_ = 0, dlik_ = 0, dcdf_ = 0,
           du_ = 0, dind_ = 0, dpart_ = 0, du1_ = 0;
  Kernel klik_, ksum_, knorm_, kfind_;
};

}  // namespace

STROBE_BENCHMARK(ParticleFilter, "particlefilter",
                 "Particle filter tracking a disk through a noisy video (Rodinia particlefilter, float OpenCL)",
                 {int_param(STROBE_FIELD(ParticleFilterParams, particles), 12000, 1, 1 << 17,
                            "particles (resampling searches the CDF linearly: quadratic work)")
                      .with_small(1000),
                  int_param(STROBE_FIELD(ParticleFilterParams, frames), 10, 2, 30,
                            "video frames; the particles track frames 1 to frames-1 (4 launches each)")
                      .with_small(4)});

}  // namespace strobe::workloads
