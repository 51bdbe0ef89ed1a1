// The report of a graphics run (`strobe run gfx:...`): each frame's functional counts, and in
// timing mode its timing and MEGsim's statistics; its image and its error against a reference
// renderer's. Written by frame_run.cpp and read back by the comparisons that take earlier runs'
// frames as their reference or profile, so the file's shape has one definition.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "gfx/pipeline/frame_stats.h"
#include "sampling/frame_method.h"

namespace strobe::report {

/// A frame on the timing model.
struct FrameTimingRecord {
  nlohmann::json detail;                  ///< report::frame_timing_json of the frame
  sampling::FrameMeasure statistics{};    ///< MEGsim's statistics
  double seconds = 0, cpu_seconds = 0;    ///< timing it (rendering excluded)
};

/// One frame rendered.
struct FrameRecord {
  gfx::FrameStats counts;                 ///< with its rendering seconds
  std::optional<FrameTimingRecord> timing;
  std::string image;                      ///< the PPM written, or empty
  nlohmann::json reference;               ///< the error against the reference image, or null
};

/// A graphics run.
struct FrameRun {
  std::string workload, trace, mode, warm_frames;
  int tile_size = 16;
  size_t pipelines_compiled = 0;
  std::vector<FrameRecord> frames;
  gfx::FrameStats total;                  ///< the frames' counts summed
  nlohmann::json config;                  ///< timing: the GPU configuration, else null
  double clock_mhz = 0;                   ///< timing: the configuration's clock
  nlohmann::json sampling;                ///< MEGsim's selection, or null
  std::string selection_text;             ///< its lines for the terminal
  std::string profile;                    ///< the run file MEGsim's counts came from, or empty (rendered)
};

/// Frame statistics as a JSON object by name (sampling::kFrameStatistics).
nlohmann::json frame_measure_json(const sampling::FrameMeasure& m);

/// The run as JSON.
nlohmann::json to_json(const FrameRun& r);

/// One frame's line for the terminal.
std::string frame_line(const FrameRecord& f);

/// The closing lines for the terminal.
std::string frame_run_text(const FrameRun& r);

/// A frame of a run's JSON read back; nlohmann::json::exception where a field is missing.
FrameRecord frame_record_from_json(const nlohmann::json& f);

}  // namespace strobe::report
