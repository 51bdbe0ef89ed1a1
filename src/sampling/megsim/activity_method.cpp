// `megsim-activity`: MEGsim with its stage weights from strobe's own activity instead of the
// paper's Mali-450 power shares. MEGsim's representatives are timed first; their activity, each
// scaled by its cluster's size, estimates the whole sequence's, whose shares become the weights
// of a second selection. Frames the first selection timed are not timed again.
#include <fmt/format.h>

#include "sampling/megsim/selection.h"

namespace strobe::sampling::megsim {

namespace {

class ActivityWeighted : public FrameMethod {
 public:
  explicit ActivityWeighted(const MethodOptions& o) : p_(Params::from(o)) {}
  FrameEstimate run(const FrameInputs& in) override {
    const Selection first = select(*in.counts, p_);
    TimedFrames timed = in.timer->time(first.description["representative_frames"].get<std::vector<uint64_t>>());
    StageActivity a;
    for (size_t c = 0; c < first.clusters.clusters.size(); ++c) {
      const StageActivity& r = timed.by_frame.at(first.representatives[c]).activity;
      const double size = double(first.clusters.clusters[c].members.size());
      a.geometry += size * r.geometry, a.raster += size * r.raster, a.tiling += size * r.tiling;
    }
    const StageWeights w = weights_from_activity(a);
    Params second_p = p_;
    second_p.geometry_weight = w.geometry, second_p.raster_weight = w.raster, second_p.tiling_weight = w.tiling;
    const Selection second = select(*in.counts, second_p);
    std::vector<uint64_t> fresh;
    for (uint64_t f : second.description["representative_frames"].get<std::vector<uint64_t>>())
      if (!timed.by_frame.count(f)) fresh.push_back(f);
    if (!fresh.empty()) {
      TimedFrames more = in.timer->time(fresh);
      timed.by_frame.merge(more.by_frame);
      timed.seconds += more.seconds, timed.cpu_seconds += more.cpu_seconds;
    }
    FrameEstimate e;
    e.estimate = extrapolate(second, timed.by_frame);
    e.weights = weights(second);
    for (const auto& [f, _] : timed.by_frame) e.frames_simulated.push_back(f);  // both selections' frames
    e.detailed_seconds = timed.seconds;
    e.detailed_cpu_seconds = timed.cpu_seconds;
    e.interval_note = kNoIntervalWhy;
    e.details = second.description;
    e.details["method"] = "megsim-activity";
    e.details["activity"] = {{"geometry", a.geometry}, {"raster", a.raster}, {"tiling", a.tiling},
                             {"unit", "busy unit-cycles: 4 SIMD cycles per vertex or pixel shader wave instruction; "
                                      "rasteriser and blender busy cycles; setup and tiler busy cycles"},
                             {"from", "megsim's representatives, each scaled by its cluster's size"}};
    e.notes.push_back(fmt::format("stage weights from strobe's activity: geometry {:.3f}, raster {:.3f}, tiling "
                                  "{:.3f} (the paper's: 0.108, 0.745, 0.147)",
                                  w.geometry, w.raster, w.tiling));
    return e;
  }

 private:
  Params p_;
};

}  // namespace

STROBE_FRAME_METHOD(kActivity, "megsim-activity",
                    "MEGsim with stage weights from the simulated pipeline's busy unit-cycles (strobe's variant)",
                    Params::schema(),
                    [](const MethodOptions& o) -> std::unique_ptr<FrameMethod> {
                      return std::make_unique<ActivityWeighted>(o);
                    },
                    [](const MethodOptions&) { return true; });

}  // namespace strobe::sampling::megsim
