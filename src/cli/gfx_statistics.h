// The four statistics MEGsim estimates for a frame (METHODS.md §4.6): cycles, DRAM bytes, L2
// accesses and tile-buffer accesses. One definition for `strobe run gfx:... --mode timing`, which
// writes them per frame, and `strobe compare gfx:...`, which estimates and checks them, so that a
// comparison can take its reference from earlier runs' files.
#pragma once

#include <array>

#include <nlohmann/json.hpp>

#include "timing/gpu/gpu.h"

namespace strobe::cli {

/// The statistics' names, as JSON spells them.
inline constexpr std::array<const char*, 4> kFrameStatistics = {"cycles", "dram_bytes", "l2_accesses",
                                                                "tile_buffer_accesses"};

/// A value per statistic, in kFrameStatistics' order.
using FrameMeasure = std::array<double, kFrameStatistics.size()>;

/// A timed frame's statistics.
inline FrameMeasure frame_measure(const timing::FrameTiming& t) {
  return {double(t.cycles), double(t.stats.get("dram.bytes")),
          double(t.stats.sum("l2.", ".reads") + t.stats.sum("l2.", ".writes")),
          double(t.stats.get("gfx.tile_buffer_accesses"))};
}

/// The statistics as a JSON object by name.
inline nlohmann::json to_json(const FrameMeasure& m) {
  nlohmann::json j;
  for (size_t i = 0; i < kFrameStatistics.size(); ++i) j[kFrameStatistics[i]] = m[i];
  return j;
}

/// The statistics to_json wrote; nlohmann::json::exception where one is missing or not a number.
inline FrameMeasure frame_measure_from_json(const nlohmann::json& j) {
  FrameMeasure m{};
  for (size_t i = 0; i < kFrameStatistics.size(); ++i) m[i] = j.at(kFrameStatistics[i]).get<double>();
  return m;
}

}  // namespace strobe::cli
