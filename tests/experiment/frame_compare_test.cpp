// A frame-sampling method written as docs/architecture.md says: one class and its registration,
// here uniform every-Nth frames. The comparison runs it beside MEGsim with nothing else to add,
// and the numbers it reports follow from the reference's own frames.
#include <gtest/gtest.h>

#include "common/error.h"
#include "experiment/frame_compare.h"
#include "sampling/frame_method.h"

namespace strobe::experiment {
namespace {

#define EVERY_NTH_PARAMS(X) X(int, every, 3, 1, 1000, "simulate frames 0, N, 2N, ... of the sequence")
STROBE_METHOD_PARAMS(EveryNthParams, EVERY_NTH_PARAMS);

/// Every N-th frame, each standing for the N frames from it.
class EveryNth : public sampling::FrameMethod {
 public:
  explicit EveryNth(const sampling::MethodOptions& o) : p_(EveryNthParams::from(o)) {}
  sampling::FrameEstimate run(const sampling::FrameInputs& in) override {
    std::vector<uint64_t> picked;
    for (size_t i = 0; i < in.frames.size(); i += size_t(p_.every)) picked.push_back(in.frames[i]);
    const sampling::TimedFrames t = in.timer->time(picked);
    sampling::FrameEstimate e;
    for (size_t j = 0; j < picked.size(); ++j) {
      const size_t stands_for = std::min(in.frames.size(), (j + 1) * size_t(p_.every)) - j * size_t(p_.every);
      e.weights[picked[j]] = double(stands_for);
      for (size_t s = 0; s < e.estimate.size(); ++s) e.estimate[s] += double(stands_for) * t.by_frame.at(picked[j]).measure[s];
    }
    e.frames_simulated = picked;
    e.detailed_seconds = t.seconds;
    e.detailed_cpu_seconds = t.cpu_seconds;
    e.interval_note = "a systematic sample";
    return e;
  }

 private:
  EveryNthParams p_;
};

STROBE_FRAME_METHOD(kEveryNth, "every-nth", "uniform every-Nth frames (a test's method)", EveryNthParams::schema(),
                    [](const sampling::MethodOptions& o) -> std::unique_ptr<sampling::FrameMethod> {
                      return std::make_unique<EveryNth>(o);
                    },
                    nullptr);

FrameCompareSpec spec(std::vector<std::string> methods, std::vector<std::string> sets = {}) {
  FrameCompareSpec s;
  s.frames.workload = "gfx:" STROBE_BUILD_DIR "/gfx-traces/glmark2-small.trace";
  s.frames.warm_frames = "0";
  s.methods = std::move(methods);
  s.sampling_sets = std::move(sets);
  return s;
}

TEST(FrameCompare, ARegisteredMethodRunsBesideMegsimWithItsOwnParameters) {
  const report::FrameComparison c = compare_frames(validate(spec({"every-nth", "megsim"}, {"every=4"})));
  ASSERT_EQ(c.per_frame.size(), 12u);
  ASSERT_EQ(c.methods.size(), 2u);
  const report::FrameMethodComparison& m = c.methods[0];
  EXPECT_EQ(m.name, "every-nth");
  EXPECT_EQ(m.result.frames_simulated, (std::vector<uint64_t>{0, 4, 8}));
  EXPECT_FALSE(m.reads_profile) << "it never asked for the counts";
  EXPECT_TRUE(c.methods[1].reads_profile);
  // With no warm frames each sampled frame starts cold; the reference's frame 0 does too, so the
  // estimate from the reference's own values agrees on frame 0's share exactly and the weights
  // cover every frame once.
  ASSERT_TRUE(m.from_reference.has_value());
  double weight = 0;
  for (const auto& [f, w] : m.result.weights) weight += w;
  EXPECT_EQ(weight, 12);
  for (size_t s = 0; s < sampling::kFrameStatistics.size(); ++s)
    EXPECT_DOUBLE_EQ(m.errors[s], (m.result.estimate[s] - c.totals[s]) / c.totals[s]) << s;
  EXPECT_GT(m.speedup.median, 0);
}

TEST(FrameCompare, UnknownMethodsAndParametersFailBeforeAnythingRenders) {
  EXPECT_THROW(validate(spec({"every-nth"}, {"every=0"})), InputError);
  EXPECT_THROW(validate(spec({"every-nth"}, {"strata_frames=8"})), InputError) << "megsim's key, megsim not asked";
  EXPECT_THROW(validate(spec({"no-such-method"})), InputError);
  EXPECT_NO_THROW(validate(spec({"every-nth", "megsim-stratified"}, {"every=2", "strata_frames=8"})));
}

}  // namespace
}  // namespace strobe::experiment

namespace strobe::experiment {
namespace {

TEST(FrameCompare, GraphicsOnTheQuantumEngineValidates) {
  // It was refused before the pipeline took a floor and its L2 requests crossed to the hub.
  FrameCompareSpec s = spec({"megsim"});
  s.frames.sets = {"sim.engine=quantum"};
  EXPECT_NO_THROW(validate(s));
}

}  // namespace
}  // namespace strobe::experiment
