// `random-frames`: MEGsim's baseline. As many frames as MEGsim selects (or `frames`), drawn at
// random from the seed, each standing for n / k of them, so that selection by features is set
// against chance at the same cost.
#include "sampling/megsim/selection.h"

namespace strobe::sampling::megsim {

namespace {

#define STROBE_RANDOM_FRAMES_PARAMS(X) \
  X(int, frames, 0, 0, 10000000, "frames drawn (0: as many as MEGsim selects under the same parameters)")

STROBE_METHOD_PARAMS(RandomParams, STROBE_RANDOM_FRAMES_PARAMS);

std::vector<MethodParam> schema() {
  std::vector<MethodParam> s = Params::schema();
  for (MethodParam& p : RandomParams::schema()) s.push_back(std::move(p));
  return s;
}

class RandomFrames : public FrameMethod {
 public:
  explicit RandomFrames(const MethodOptions& o) : p_(Params::from(o)), r_(RandomParams::from(o)) {}
  FrameEstimate run(const FrameInputs& in) override {
    const size_t n = in.frames.size();
    const size_t k = r_.frames > 0 ? std::min(n, size_t(r_.frames)) : select(*in.counts, p_).clusters.clusters.size();
    std::vector<uint64_t> picked;
    for (size_t row : random_frames(n, k, p_.seed)) picked.push_back(in.frames[row]);
    const TimedFrames t = in.timer->time(picked);
    FrameEstimate e;
    for (uint64_t f : picked) {
      e.weights[f] = double(n) / double(k);
      for (size_t i = 0; i < e.estimate.size(); ++i) e.estimate[i] += t.by_frame.at(f).measure[i] * double(n) / double(k);
    }
    e.frames_simulated = picked;
    e.detailed_seconds = t.seconds;
    e.detailed_cpu_seconds = t.cpu_seconds;
    e.details = {{"method", "random-frames"}, {"seed", p_.seed}, {"representative_frames", picked}};
    return e;
  }

 private:
  Params p_;
  RandomParams r_;
};

}  // namespace

STROBE_FRAME_METHOD(kRandom, "random-frames",
                    "MEGsim's baseline: as many frames as it selects, drawn at random, each standing for n / k",
                    schema(),
                    [](const MethodOptions& o) -> std::unique_ptr<FrameMethod> { return std::make_unique<RandomFrames>(o); },
                    [](const MethodOptions& o) { return RandomParams::from(o).frames == 0; });

}  // namespace strobe::sampling::megsim
