#include "experiment/frame_compare.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include <fmt/format.h>

#include "common/cpu_clock.h"
#include "common/error.h"
#include "experiment/frame_runs.h"
#include "sampling/eval/compare_stats.h"
#include "sampling/megsim/frame_selection.h"

namespace strobe::experiment {

namespace {

using sampling::median;

/// Times frames for one method: a fresh GPU per call, the comparison's warm frames before each.
class Timer : public sampling::FrameTimer {
 public:
  Timer(const FrameTarget& t, const std::vector<uint64_t>& frames, const char* progress)
      : t_(t), frames_(frames), progress_(progress) {}
  sampling::TimedFrames time(const std::vector<uint64_t>& frames) override {
    for (uint64_t f : frames)
      if (!std::binary_search(frames_.begin(), frames_.end(), f))
        throw InputError(fmt::format("frame {}: not among the frames compared", f));
    return render_and_time(t_, single_frames(frames), t_.warm, progress_);
  }

 private:
  const FrameTarget& t_;
  const std::vector<uint64_t>& frames_;  ///< ascending
  const char* progress_;
};

/// One method's runs.
struct MethodRuns {
  std::string name;
  sampling::BuiltFrameMethod built;
  std::vector<double> seconds, cpu_seconds;  ///< per repeat: the method's own run
  sampling::FrameEstimate last;
  std::vector<double> detailed, detailed_cpu;
};

/// Each statistic's estimate against the reference's total: signed relative errors.
sampling::FrameMeasure errors(const sampling::FrameMeasure& estimate, const sampling::FrameMeasure& reference) {
  sampling::FrameMeasure e{};
  for (size_t i = 0; i < e.size(); ++i) e[i] = reference[i] != 0 ? (estimate[i] - reference[i]) / reference[i] : 0.0;
  return e;
}

/// How many random frames the baseline needs for MEGsim's cycle error, computed from the
/// reference's per-frame cycles (no further simulation): mean |error| over `seeds` draws for each
/// sample size from `k`, doubling, up to all frames.
nlohmann::json random_frames_needed(const std::vector<double>& cycles, size_t k, double target, uint64_t seed) {
  constexpr uint64_t kSeeds = 20;
  double total = 0;
  for (double c : cycles) total += c;
  nlohmann::json sizes = nlohmann::json::array();
  nlohmann::json needed = nullptr;
  for (size_t m = std::max<size_t>(k, 1);; m = std::min(cycles.size(), m * 2)) {
    double sum = 0;
    for (uint64_t s = 0; s < kSeeds; ++s) {
      double picked = 0;
      for (size_t row : sampling::megsim::random_frames(cycles.size(), m, seed + s)) picked += cycles[row];
      const double estimate = picked * double(cycles.size()) / double(m);
      sum += std::abs(estimate - total) / total;
    }
    const double mean = sum / double(kSeeds);
    sizes.push_back({{"frames", m}, {"mean_abs_cycle_error", mean}});
    if (needed.is_null() && mean <= target) needed = m;
    if (m == cycles.size()) break;
  }
  return {{"target_abs_cycle_error", target}, {"frames_needed", needed}, {"seeds", kSeeds}, {"by_size", sizes},
          {"note", "computed from the reference's per-frame cycles: the mean over the seeds of |error| of the "
                   "random estimate with that many frames"}};
}

/// MEGsim's random baseline set against MEGsim: how many random frames reach MEGsim's error.
void add_baseline_analysis(report::FrameComparison& out) {
  const report::FrameMethodComparison *megsim = nullptr;
  report::FrameMethodComparison* random = nullptr;
  for (report::FrameMethodComparison& m : out.methods) {
    if (m.name == "megsim") megsim = &m;
    if (m.name == "random-frames") random = &m;
  }
  if (!megsim || !random) return;
  std::vector<double> cycles;
  for (const auto& [frame, m] : out.per_frame) cycles.push_back(m[0]);
  const nlohmann::json a =
      random_frames_needed(cycles, random->result.frames_simulated.size(), std::abs(megsim->errors[0]),
                           random->result.details.at("seed").get<uint64_t>());
  const nlohmann::json& needed = a["frames_needed"];
  random->result.notes.push_back(fmt::format(
      "MEGsim's cycle error needs {} random frames on average",
      needed.is_null() ? std::string("more than all") : std::to_string(needed.get<size_t>())));
  random->analysis["frames_for_megsim_error"] = a;
}

}  // namespace

ValidatedFrameCompare validate(const FrameCompareSpec& given) {
  FrameCompareSpec s = given;
  if (s.frames.warm_frames.empty()) s.frames.warm_frames = is_frames_capture(s.frames.workload) ? "0" : "2";
  if (s.methods.empty()) throw InputError("--sampling: name at least one frame-sampling method");
  for (const std::string& m : s.methods) sampling::make_frame_method(m, s.sampling_sets);  // unknown names fail here
  sampling::check_frame_sampling_sets(s.methods, s.sampling_sets);
  if (s.repeat < 1 || s.repeat > CompareSpec::kMaxRepeat)
    throw InputError(fmt::format("--repeat {}: must be 1 to {}", s.repeat, CompareSpec::kMaxRepeat));
  ValidatedFrameCompare v{s, resolve(s.frames)};
  if (v.target.capture && (!s.reference_runs.empty() || !s.profile_runs.empty()))
    throw InputError("--reference-runs and --profile-runs: a capture's reference and counts come from the capture");
  return v;
}

report::FrameComparison compare_frames(const ValidatedFrameCompare& c) {
  const FrameCompareSpec& s = c.spec;
  const FrameTarget& t = c.target;
  report::FrameComparison out;
  out.workload = t.workload;
  out.trace = t.trace;
  out.config = timing::to_json(t.gpu);
  out.warm_frames = t.warm;
  out.repeat = s.repeat;
  if (t.capture) {
    const capture::CaptureFile& f = *t.capture->file;
    out.capture_seconds = f.index().capture_seconds;
    out.capture = {{"file", f.path()},
                   {"warm_state", t.warm_state},
                   {"capture_seconds", out.capture_seconds},
                   {"bytes", f.size()},
                   {"note", "full detail replays every frame in order from the capture; the methods read its counts "
                            "(no functional pass) and time their frames alone, warmed from its history"}};
    out.reference_source = "replayed from the capture in this process";
  }
  const auto progress = [&](const char* name) { return s.progress ? name : nullptr; };

  std::vector<MethodRuns> runs;
  bool profile = false;
  for (const std::string& m : s.methods) {
    runs.push_back({m, sampling::make_frame_method(m, s.sampling_sets)});
    profile |= runs.back().built.needs_profile;
  }
  // Earlier runs' files are read once; their seconds are those the runs measured.
  FrameReference ref;
  if (!s.reference_runs.empty()) {
    nlohmann::json sources = nlohmann::json::array();
    ref = reference_from_runs(s.reference_runs, t, sources);
    out.reference_source = {{"runs", sources}};
    out.reference_runs = s.reference_runs.size();
  } else if (!t.capture) {
    out.reference_source = "simulated in this process";
  }
  CountedFrames from_files;
  if (profile && !s.profile_runs.empty()) {
    out.profile_source = {{"runs", nlohmann::json::array()}};
    from_files = profile_from_runs(s.profile_runs, t, out.profile_source["runs"]);
  }

  std::vector<double> ref_seconds, ref_cpu, profile_seconds, profile_cpu;
  std::vector<sampling::FrameCounts> counts;
  for (int r = 0; r < s.repeat; ++r) {
    // The reference: every frame in order, each timed after the one before it.
    if (s.reference_runs.empty()) {
      FrameReference fresh;
      const sampling::TimedFrames timed = render_and_time(t, t.ranges, 0, progress("full detail"), &fresh.order);
      for (const auto& [f, tf] : timed.by_frame) fresh.by_frame[f] = tf.measure;
      fresh.seconds = timed.seconds, fresh.cpu_seconds = timed.cpu_seconds;
      if (r > 0 && fresh.by_frame != ref.by_frame)
        throw FaultError(fmt::format("not deterministic: compare {}: repeat {} of full detail gave other statistics than the first", t.workload, r + 1));
      ref = std::move(fresh);
    }
    ref_seconds.push_back(ref.seconds), ref_cpu.push_back(ref.cpu_seconds);
    if (ref.order.size() < 2)
      throw InputError(fmt::format("compare {}: {} frame; frame sampling needs at least 2", t.workload, ref.order.size()));
    // The functional profile, once per repeat, charged to every method that reads it.
    if (profile) {
      const CountedFrames p = s.profile_runs.empty() ? render_counts(t, t.ranges) : from_files;
      for (size_t i = 0; i < p.frames.size() && i < ref.order.size(); ++i)
        if (p.frames[i].frame != ref.order[i])
          throw InputError(fmt::format("compare {}: the functional pass's frame {} is the reference's frame {}",
                                       t.workload, p.frames[i].frame, ref.order[i]));
      if (p.frames.size() != ref.order.size())
        throw InputError(fmt::format("compare {}: the functional pass rendered {} frames, the reference {}",
                                     t.workload, p.frames.size(), ref.order.size()));
      counts.clear();
      for (const gfx::FrameStats& f : p.frames) counts.push_back(frame_counts(f));
      profile_seconds.push_back(p.seconds), profile_cpu.push_back(p.cpu_seconds);
    }
    std::vector<uint64_t> frames = ref.order;
    std::sort(frames.begin(), frames.end());
    for (MethodRuns& m : runs) {
      Timer timer(t, frames, progress(m.name.c_str()));
      sampling::FrameInputs in{m.built.needs_profile ? &counts : nullptr, frames, &timer};
      const auto t0 = std::chrono::steady_clock::now();
      const double cpu0 = process_cpu_seconds();
      sampling::FrameEstimate e = m.built.method->run(in);
      m.seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      m.cpu_seconds.push_back(process_cpu_seconds() - cpu0);
      m.detailed.push_back(e.detailed_seconds), m.detailed_cpu.push_back(e.detailed_cpu_seconds);
      if (r > 0 && (e.estimate != m.last.estimate || e.frames_simulated != m.last.frames_simulated))
        throw FaultError(fmt::format("not deterministic: compare {}: repeat {} of {} gave another estimate than the first",
                                     t.workload, r + 1, m.name));
      m.last = std::move(e);
    }
  }

  for (uint64_t f : ref.order) {
    const sampling::FrameMeasure& m = ref.by_frame.at(f);
    for (size_t i = 0; i < m.size(); ++i) out.totals[i] += m[i];
    out.per_frame.emplace_back(f, m);
  }
  out.reference = {median(ref_seconds), median(ref_cpu)};
  for (size_t i = 0; i < runs.size(); ++i) {
    MethodRuns& m = runs[i];
    report::FrameMethodComparison mc;
    mc.name = m.name;
    mc.reads_profile = m.built.needs_profile;
    mc.result = std::move(m.last);
    mc.errors = errors(mc.result.estimate, out.totals);
    if (!mc.result.weights.empty()) {
      sampling::FrameMeasure from{};
      for (const auto& [f, w] : mc.result.weights)
        for (size_t k = 0; k < from.size(); ++k) from[k] += w * ref.by_frame.at(f)[k];
      mc.from_reference = from;
      mc.errors_from_reference = errors(from, out.totals);
    }
    for (size_t k = 0; k < sampling::kFrameStatistics.size(); ++k) {
      const auto it = mc.result.intervals.find(sampling::kFrameStatistics[k]);
      if (it != mc.result.intervals.end())
        mc.covers_full_detail[it->first] = std::abs(out.totals[k] - it->second.total) <= it->second.half_width;
    }
    std::vector<double> total, total_cpu, selection, selection_cpu;
    for (int r = 0; r < s.repeat; ++r) {
      const double p = mc.reads_profile ? profile_seconds[size_t(r)] : 0, pc = mc.reads_profile ? profile_cpu[size_t(r)] : 0;
      total.push_back(p + m.seconds[size_t(r)]), total_cpu.push_back(pc + m.cpu_seconds[size_t(r)]);
      selection.push_back(m.seconds[size_t(r)] - m.detailed[size_t(r)]);
      selection_cpu.push_back(m.cpu_seconds[size_t(r)] - m.detailed_cpu[size_t(r)]);
      mc.speedups.push_back(ref_seconds[size_t(r)] / total.back());
    }
    if (mc.reads_profile) mc.profile = {median(profile_seconds), median(profile_cpu)};
    mc.selection = {median(selection), median(selection_cpu)};
    mc.detailed = {median(m.detailed), median(m.detailed_cpu)};
    mc.total = {median(total), median(total_cpu)};
    mc.speedup = {median(mc.speedups), *std::min_element(mc.speedups.begin(), mc.speedups.end()),
                  *std::max_element(mc.speedups.begin(), mc.speedups.end())};
    mc.speedup_detailed_only = mc.detailed.seconds > 0 ? out.reference.seconds / mc.detailed.seconds : 0.0;
    mc.speedup_cpu = mc.total.cpu_seconds > 0 ? out.reference.cpu_seconds / mc.total.cpu_seconds : 0.0;
    if (t.capture) mc.speedup_one_shot = out.reference.seconds / (mc.total.seconds + out.capture_seconds);
    out.methods.push_back(std::move(mc));
  }
  add_baseline_analysis(out);
  return out;
}

}  // namespace strobe::experiment
