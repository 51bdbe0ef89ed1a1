// The writers of a graphics comparison: its JSON and its terminal lines.
#include <cmath>

#include <fmt/format.h>

#include "report/frame_comparison.h"
#include "report/frame_run.h"

namespace strobe::report {

namespace {

nlohmann::json cost_json(const FrameMethodComparison& m, double FrameCost::*clock) {
  nlohmann::json j{{"selection", m.selection.*clock}, {"detailed", m.detailed.*clock}, {"total", m.total.*clock}};
  if (m.reads_profile) j["functional_profile"] = m.profile.*clock;
  return j;
}

/// The line giving the interval on cycles and whether it holds full detail.
std::string interval_text(const FrameMethodComparison& m, const FrameComparison& c) {
  const sampling::FrameInterval& i = m.result.intervals.at("cycles");
  return fmt::format("{}: cycles = {:.0f} ± {:.0f} ({:.0f}% CI, {}); full detail {:.0f} is {}", m.name, i.total,
                     i.half_width, 100 * m.result.confidence, m.result.interval_note, c.totals[0],
                     m.covers_full_detail.at("cycles") ? "inside" : "outside");
}

nlohmann::json method_json(const FrameMethodComparison& m, const FrameComparison& c) {
  const sampling::FrameEstimate& r = m.result;
  nlohmann::json j = r.details;
  if (!j.contains("method")) j["method"] = m.name;
  j["estimate"] = frame_measure_json(r.estimate);
  j["errors"] = frame_measure_json(m.errors);
  if (m.from_reference) {
    j["estimate_from_reference_frames"] = frame_measure_json(*m.from_reference);
    j["errors_from_reference_frames"] = frame_measure_json(*m.errors_from_reference);
  }
  j["frames_simulated"] = r.frames_simulated.size();
  if (!j.contains("representative_frames")) j["representative_frames"] = r.frames_simulated;
  j["seconds"] = cost_json(m, &FrameCost::seconds);
  j["cpu_seconds"] = cost_json(m, &FrameCost::cpu_seconds);
  j["speedup"] = m.speedup.median;
  j["speedups"] = m.speedups;
  j["speedup_spread"] = {{"median", m.speedup.median}, {"min", m.speedup.min}, {"max", m.speedup.max}};
  j["speedup_detailed_only"] = m.speedup_detailed_only;
  j["speedup_cpu"] = m.speedup_cpu;
  if (!c.capture.is_null()) j["speedup_one_shot"] = m.speedup_one_shot;
  if (!r.intervals.empty()) {
    nlohmann::json intervals;
    for (const auto& [stat, i] : r.intervals)
      intervals[stat] = {{"total", i.total},
                         {"standard_error", i.standard_error},
                         {"half_width", i.half_width},
                         {"relative_half_width", i.relative_half_width},
                         {"df", std::isfinite(i.df) ? nlohmann::json(i.df) : nullptr},
                         {"covers_full_detail", m.covers_full_detail.at(stat)}};
    j["intervals"] = std::move(intervals);
    j["confidence"] = r.confidence;
    j["interval"] = {{"kind", "confidence"}, {"text", interval_text(m, c)}};
  } else if (!r.interval_note.empty()) {
    j["interval"] = sampling::no_interval(r.interval_note);
  }
  j.update(m.analysis);
  return j;
}

}  // namespace

nlohmann::json to_json(const FrameComparison& c) {
  nlohmann::json per_frame = nlohmann::json::array();
  for (const auto& [frame, m] : c.per_frame) {
    nlohmann::json f = frame_measure_json(m);
    f["frame"] = frame;
    per_frame.push_back(std::move(f));
  }
  nlohmann::json methods = nlohmann::json::object();
  for (const FrameMethodComparison& m : c.methods) {
    methods[m.name] = method_json(m, c);
    if (m.reads_profile && !c.profile_source.is_null()) methods[m.name]["profile_source"] = c.profile_source;
  }
  nlohmann::json out = {{"workload", c.workload},
          {"trace", c.trace},
          {"config", c.config},
          {"frames", c.per_frame.size()},
          {"warm_frames", c.warm_frames},
          {"repeat", c.repeat},
          {"reference", {{"seconds", c.reference.seconds},
                         {"cpu_seconds", c.reference.cpu_seconds},
                         {"source", c.reference_source},
                         {"totals", frame_measure_json(c.totals)},
                         {"per_frame", std::move(per_frame)}}},
          {"methods", std::move(methods)}};
  if (!c.capture.is_null()) out["capture"] = c.capture;
  return out;
}

std::string frame_comparison_text(const FrameComparison& c) {
  const size_t n = c.per_frame.size();
  std::string text = fmt::format("{}: {} frames in full detail: {:.0f} cycles, {:.2f} s ({:.2f} CPU s){}\n", c.workload,
                                 n, c.totals[0], c.reference.seconds, c.reference.cpu_seconds,
                                 c.reference_runs ? fmt::format(", from {} runs", c.reference_runs) : std::string());
  for (const FrameMethodComparison& m : c.methods) {
    const auto err = [&](size_t i) { return 100 * m.errors[i]; };
    const size_t k = m.result.frames_simulated.size();
    text += fmt::format("{}: {} of {} frames in detail ({:.1f}x fewer): cycles {:.0f} ({:+.2f}%), DRAM bytes {:+.2f}%, "
                        "L2 accesses {:+.2f}%, tile-buffer accesses {:+.2f}%; {:.2f} s ({:.2f}x{}{}{})\n",
                        m.name, k, n, double(n) / double(k), m.result.estimate[0], err(0), err(1), err(2), err(3),
                        m.total.seconds, m.speedup.median,
                        c.repeat > 1 ? fmt::format(", {:.2f}-{:.2f}x over {} repeats", m.speedup.min, m.speedup.max, c.repeat)
                                     : std::string(),
                        m.reads_profile ? fmt::format(", profiling {:.2f} s included", m.profile.seconds) : std::string(),
                        c.capture.is_null() ? std::string()
                                            : fmt::format("; one-shot {:.2f}x with the capture's {:.2f} s",
                                                          m.speedup_one_shot, c.capture_seconds));
    for (const std::string& note : m.result.notes) text += m.name + ": " + note + "\n";
    if (!m.result.intervals.empty()) text += interval_text(m, c) + "\n";
  }
  return text;
}

}  // namespace strobe::report
