// What rendering one frame did, counted by the functional pipeline: the per-frame features a
// frame-sampling method (MEGsim) clusters on, and the work the timing model will time.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "emu/graphics.h"

namespace strobe::gfx {

/// One shader's work in a frame.
struct ShaderCounts {
  uint64_t invocations = 0;        ///< vertices or covered pixels shaded
  uint64_t waves = 0;
  uint64_t wave_instructions = 0;  ///< instructions issued, once per wave
  uint64_t sample_instructions = 0;  ///< of those, image_sample with a lane active
  uint64_t sample_lanes = 0;         ///< lanes those image_samples filtered
  uint64_t texel_fetches = 0;        ///< texels those lanes read (1 point, 4 bilinear, 8 trilinear)

  /// Wave instructions with each image_sample counted as the texels a lane of it reads on
  /// average rather than as 1: MEGsim's texture-weighted shader work (METHODS.md 4.1).
  double texture_weighted_instructions() const;
  /// Adds another's counts.
  ShaderCounts& operator+=(const ShaderCounts& o);
};

/// Counts of one frame, in pipeline order.
struct FrameStats {
  uint64_t frame = 0;       ///< index in the trace (by swaps)
  uint64_t clears = 0, draws = 0, blits = 0;
  uint64_t vertices = 0;    ///< vertices the draws named (indices, or glDrawArrays' count)
  uint64_t vs_invocations = 0;  ///< distinct vertices shaded (one per index value per draw)
  uint64_t primitives = 0;      ///< triangles and line segments assembled
  uint64_t frustum_culled = 0;  ///< entirely outside one clip plane
  uint64_t clipped = 0;         ///< crossing the near or far plane, so cut by the clipper
  uint64_t face_culled = 0;     ///< back- (or front-) facing or zero-area, after clipping
  uint64_t rasterized = 0;      ///< triangles (after clipping) that covered at least one pixel
  uint64_t bin_entries = 0;     ///< tiles the rasterised triangles' bounding boxes overlap
  uint64_t quads = 0;           ///< 2x2 quads with at least one covered pixel
  uint64_t fragments = 0;       ///< covered pixels
  uint64_t hiz_rejected_quads = 0;  ///< quads hierarchical Z rejected by 8x8 block, before early Z
  uint64_t early_z_tested = 0, early_z_passed = 0;  ///< fragments depth-tested before shading
  uint64_t late_z_tested = 0, late_z_passed = 0;    ///< ... after shading (discard or depth export)
  uint64_t ps_invocations = 0;  ///< covered pixels shaded
  uint64_t helper_lanes = 0;    ///< uncovered pixels of shaded quads (derivatives only)
  uint64_t discarded = 0;       ///< shaded pixels the shader killed
  std::array<uint64_t, emu::kTexFilterKinds> sample_lanes{};   ///< image_sample lanes by filter
  std::array<uint64_t, emu::kTexFilterKinds> texel_fetches{};  ///< texels read by filter
  uint64_t pixels_written = 0;  ///< colour writes (after the depth test)
  uint64_t blended_pixels = 0;  ///< of those, with blending on
  std::map<std::string, ShaderCounts> vertex_shaders, pixel_shaders;  ///< by program name
  double seconds = 0;           ///< wall-clock time to render the frame
  double cpu_seconds = 0;       ///< the process's CPU time to render the frame

  /// Adds another frame's counts (not its index).
  FrameStats& operator+=(const FrameStats& o);
};

/// The counts as JSON (the program maps as objects by name).
nlohmann::json to_json(const FrameStats& s);

/// The counts to_json wrote (the wall-clock seconds and per-filter texture counters as well);
/// nlohmann::json::exception for a value of the wrong shape, a missing counter reads 0.
FrameStats frame_stats_from_json(const nlohmann::json& j);

}  // namespace strobe::gfx
