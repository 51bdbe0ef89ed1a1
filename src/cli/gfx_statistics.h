// The four statistics MEGsim estimates for a frame (METHODS.md §4.6): cycles, DRAM bytes, L2
// accesses and tile-buffer accesses. One definition for `strobe run gfx:... --mode timing`, which
// writes them per frame, and `strobe compare gfx:...`, which estimates and checks them, so that a
// comparison can take its reference from earlier runs' files.
#pragma once

#include <array>

#include <nlohmann/json.hpp>

#include "gfx/pipeline/frame_stats.h"
#include "sampling/megsim/frame_features.h"
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

/// A timed frame's activity per MEGsim stage, in busy unit-cycles (strobe has no power model, so
/// a unit busy for a cycle stands in for the paper's power): the SIMD cycles of its vertex and
/// pixel shaders' wave instructions (a wave64 instruction holds a SIMD16 for 4 cycles), the
/// rasterisers' and blenders' busy cycles beside the pixel shaders, and the setup and tiling
/// unit's. `s` is the frame's functional counts, which name each wave's stage.
inline sampling::megsim::StageActivity frame_activity(const timing::FrameTiming& t, const gfx::FrameStats& s) {
  constexpr double kSimdCyclesPerWaveInstruction = 4;
  double vs = 0, ps = 0;
  for (const auto& [name, c] : s.vertex_shaders) vs += double(c.wave_instructions);
  for (const auto& [name, c] : s.pixel_shaders) ps += double(c.wave_instructions);
  return {kSimdCyclesPerWaveInstruction * vs,
          kSimdCyclesPerWaveInstruction * ps + double(t.stats.get("gfx.raster_busy") + t.stats.get("gfx.blend_busy")),
          double(t.stats.get("gfx.setup_busy"))};
}

}  // namespace strobe::cli
