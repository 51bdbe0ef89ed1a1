#include "report/frame_run.h"

#include <fmt/format.h>

namespace strobe::report {

nlohmann::json frame_measure_json(const sampling::FrameMeasure& m) {
  nlohmann::json j;
  for (size_t i = 0; i < sampling::kFrameStatistics.size(); ++i) j[sampling::kFrameStatistics[i]] = m[i];
  return j;
}

namespace {

uint64_t total_cycles(const FrameRun& r) {
  uint64_t c = 0;
  for (const FrameRecord& f : r.frames)
    if (f.timing) c += f.timing->detail.at("cycles").get<uint64_t>();
  return c;
}

double timing_seconds(const FrameRun& r) {
  double s = 0;
  for (const FrameRecord& f : r.frames)
    if (f.timing) s += f.timing->seconds;
  return s;
}

}  // namespace

nlohmann::json to_json(const FrameRun& r) {
  nlohmann::json frames = nlohmann::json::array();
  for (const FrameRecord& f : r.frames) {
    nlohmann::json j = gfx::to_json(f.counts);
    if (f.timing) {
      j["timing"] = f.timing->detail;
      j["timing"]["seconds"] = f.timing->seconds;
      j["timing"]["cpu_seconds"] = f.timing->cpu_seconds;
      // MEGsim's statistics, so that strobe compare can take these frames as its reference.
      j["timing"]["statistics"] = frame_measure_json(f.timing->statistics);
    }
    if (!f.image.empty()) j["image"] = f.image;
    if (!f.reference.is_null()) j["reference"] = f.reference;
    frames.push_back(std::move(j));
  }
  nlohmann::json out{{"workload", r.workload}, {"trace", r.trace}, {"mode", r.mode}, {"frames", std::move(frames)}};
  if (!r.profile.empty()) {
    out["profile"] = r.profile;
  } else {
    out["total"] = gfx::to_json(r.total);
    out["total"].erase("frame");
    out["pipelines_compiled"] = r.pipelines_compiled;
    out["warm_frames"] = r.warm_frames;
    out["tile_size"] = r.tile_size;
  }
  if (!r.config.is_null()) {
    const uint64_t cycles = total_cycles(r);
    out["config"] = r.config;
    out["timing"] = {{"cycles", cycles}, {"sim_seconds", double(cycles) / (r.clock_mhz * 1e6)}, {"seconds", timing_seconds(r)}};
  }
  if (!r.sampling.is_null()) out["sampling"] = r.sampling;
  return out;
}

std::string frame_line(const FrameRecord& f) {
  const gfx::FrameStats& s = f.counts;
  std::string line = fmt::format("frame {}: {} draws, {} vertices, {} primitives, {} fragments, {} pixels written, {:.2f} s",
                                 s.frame, s.draws, s.vertices, s.primitives, s.fragments, s.pixels_written, s.seconds);
  if (f.timing) {
    const nlohmann::json& t = f.timing->detail;
    const uint64_t cycles = t.at("cycles").get<uint64_t>();
    line += fmt::format("; {} cycles ({} geometry, {} tiles), IPC {:.2f}, timed in {:.2f} s", cycles,
                        t["pipeline"].value("geometry_cycles", uint64_t(0)), t["pipeline"].value("tile_cycles", uint64_t(0)),
                        cycles ? t.at("wave_instructions").get<double>() / double(cycles) : 0.0, f.timing->seconds);
  }
  if (!f.reference.is_null()) line += "; against the reference: " + f.reference.value("text", std::string());
  return line;
}

std::string frame_run_text(const FrameRun& r) {
  if (!r.profile.empty())
    return fmt::format("{} frames' counts from {} (not rendered)\n{}", r.frames.size(), r.profile, r.selection_text);
  return fmt::format("{} frames: {} draws, {} vertex and {} pixel shader invocations, {:.2f} s; {} pipelines compiled{}\n",
                     r.frames.size(), r.total.draws, r.total.vs_invocations, r.total.ps_invocations, r.total.seconds,
                     r.pipelines_compiled,
                     r.config.is_null() ? std::string()
                                        : fmt::format("; {} cycles timed in {:.2f} s", total_cycles(r), timing_seconds(r))) +
         r.selection_text;
}

FrameRecord frame_record_from_json(const nlohmann::json& f) {
  FrameRecord r;
  r.counts = gfx::frame_stats_from_json(f);
  if (f.contains("timing")) {
    const nlohmann::json& t = f.at("timing");
    FrameTimingRecord tr;
    for (size_t i = 0; i < sampling::kFrameStatistics.size(); ++i)
      tr.statistics[i] = t.at("statistics").at(sampling::kFrameStatistics[i]).get<double>();
    tr.seconds = t.at("seconds").get<double>();
    tr.cpu_seconds = t.value("cpu_seconds", 0.0);
    tr.detail = t;
    r.timing = std::move(tr);
  }
  r.image = f.value("image", std::string());
  r.reference = f.value("reference", nlohmann::json());
  return r;
}

}  // namespace strobe::report
