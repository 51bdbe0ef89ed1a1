// `megsim`: the paper's method. Every frame's functional counts are clustered, one frame nearest
// each centroid is simulated in detail, and each statistic is its value times the cluster's size.
#include "sampling/megsim/selection.h"

namespace strobe::sampling::megsim {

namespace {

class Megsim : public FrameMethod {
 public:
  explicit Megsim(const MethodOptions& o) : p_(Params::from(o)) {}
  FrameEstimate run(const FrameInputs& in) override {
    const Selection s = select(*in.counts, p_);
    std::vector<uint64_t> reps = s.description["representative_frames"].get<std::vector<uint64_t>>();
    const TimedFrames t = in.timer->time(reps);
    FrameEstimate e;
    e.estimate = extrapolate(s, t.by_frame);
    e.weights = weights(s);
    e.frames_simulated = std::move(reps);
    e.detailed_seconds = t.seconds;
    e.detailed_cpu_seconds = t.cpu_seconds;
    e.interval_note = kNoIntervalWhy;
    e.details = s.description;
    return e;
  }

 private:
  Params p_;
};

}  // namespace

STROBE_FRAME_METHOD(kMegsim, "megsim",
                    "MEGsim (ISPASS'20): frames clustered by their shader work and primitives, one representative "
                    "frame per cluster in detail",
                    Params::schema(),
                    [](const MethodOptions& o) -> std::unique_ptr<FrameMethod> { return std::make_unique<Megsim>(o); },
                    [](const MethodOptions&) { return true; });

}  // namespace strobe::sampling::megsim
