// `megsim-stratified`: MEGsim's clusters as the strata of a random sample of frames, Neyman-
// allocated by each cluster's spread of functional shader work, so that each statistic's total
// comes with a Student t interval (stratified_frames.h).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "sampling/megsim/selection.h"
#include "sampling/megsim/stratified_frames.h"

namespace strobe::sampling::megsim {

namespace {

class Stratified : public FrameMethod {
 public:
  explicit Stratified(const MethodOptions& o) : p_(Params::from(o)) {}
  FrameEstimate run(const FrameInputs& in) override {
    const std::vector<FrameCounts>& counts = *in.counts;
    const Selection s = select(counts, p_);
    const FrameSelection& sel = s.clusters;
    std::vector<double> proxy;
    for (const FrameCounts& f : counts) proxy.push_back(shader_work(f));
    const uint64_t n = p_.strata_frames > 0 ? uint64_t(p_.strata_frames) : 2 * sel.clusters.size();
    const StratifiedFrames d = draw_stratified_frames(sel, proxy, n, p_.seed);
    std::vector<uint64_t> frames;
    for (const auto& rows : d.rows)
      for (size_t r : rows) frames.push_back(counts[r].frame);
    std::sort(frames.begin(), frames.end());
    const TimedFrames t = in.timer->time(frames);
    FrameEstimate e;
    std::string estimator;
    for (size_t i = 0; i < e.estimate.size(); ++i) {
      const StratifiedTotal st = estimate_stratified_total(
          sel, d, proxy, [&](size_t row) { return t.by_frame.at(counts[row].frame).measure[i]; }, p_.confidence);
      e.estimate[i] = st.estimate.total;
      estimator = st.estimator;
      e.intervals[kFrameStatistics[i]] = {st.estimate.total, st.estimate.total_se, st.estimate.half_width,
                                          st.estimate.rel_error, st.estimate.df};
    }
    e.confidence = p_.confidence;
    e.frames_simulated = frames;
    e.detailed_seconds = t.seconds;
    e.detailed_cpu_seconds = t.cpu_seconds;
    e.interval_note = fmt::format("{} estimator, {} frames over {} clusters", estimator, frames.size(), sel.clusters.size());
    nlohmann::json per_cluster = nlohmann::json::array();
    for (size_t h = 0; h < d.rows.size(); ++h) {
      nlohmann::json drawn = nlohmann::json::array();
      for (size_t r : d.rows[h]) drawn.push_back(counts[r].frame);
      per_cluster.push_back({{"size", sel.clusters[h].members.size()}, {"proxy_sd", d.proxy_sd[h]}, {"frames", drawn}});
    }
    e.details = {{"method", "megsim-stratified"},
                 {"strata", "megsim's clusters"},
                 {"allocation", "Neyman by each cluster's spread of functional shader work, at least 2 per cluster"},
                 {"estimator", estimator},
                 {"confidence", p_.confidence},
                 {"seed", p_.seed},
                 {"clusters", per_cluster},
                 {"representative_frames", frames}};
    return e;
  }

 private:
  Params p_;
};

}  // namespace

STROBE_FRAME_METHOD(kStratified, "megsim-stratified",
                    "MEGsim's clusters as strata of a random sample of frames: estimates with confidence intervals "
                    "(strobe's variant)",
                    Params::schema(),
                    [](const MethodOptions& o) -> std::unique_ptr<FrameMethod> { return std::make_unique<Stratified>(o); },
                    [](const MethodOptions&) { return true; });

}  // namespace strobe::sampling::megsim
