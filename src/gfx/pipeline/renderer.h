// The functional graphics pipeline: renders a trace's frames, draw by draw, with the programs'
// own shaders on strobe's emulator, and counts what every stage did. Render targets and compiled
// programs persist from frame to frame, as they do in the GL; device memory is the frame's own.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "gfx/pipeline/draw.h"
#include "gfx/pipeline/frame_recording.h"
#include "gfx/pipeline/frame_stats.h"
#include "gfx/pipeline/pipeline_cache.h"
#include "gfx/pipeline/render_target.h"
#include "gfx/pipeline/surfaces.h"
#include "gfx/pipeline/texture_store.h"
#include "gfx/stream/frame_stream.h"

namespace strobe::gfx {

/// Parameters of the functional pipeline that change its counts.
struct RendererOptions {
  int tile_size = 16;  ///< pixels per side of a tile: bin entries, and the tiles pixel waves are packed by
  bool record = false; ///< keep each frame's work and memory for the timing model (recording())
  uint32_t threads = 1; ///< host threads pixel waves are shaded on; the frames are the same for any
};

/// Renders frames in order.
class Renderer {
 public:
  explicit Renderer(RendererOptions o = {});
  ~Renderer();
  /// Renders `frame` (number `index` of its trace) and returns its counts.
  FrameStats render(const GlFrame& frame, uint64_t index);
  /// The window as the last frame left it (before its swap).
  const RenderTarget& window() const { return surfaces_.window(); }
  /// Pipelines compiled so far.
  size_t pipelines_compiled() const { return pipelines_.compiled(); }
  /// With RendererOptions::record, the last frame rendered, recorded for timing (else null);
  /// valid until the next render().
  const FrameRecording* recording() const { return recording_.get(); }

 private:
  RendererOptions options_;
  PipelineCache pipelines_;
  TextureStore textures_;
  Surfaces surfaces_;
  DrawContext cx_;
  std::unique_ptr<FrameRecording> recording_;
};

/// Renders the frames of `ranges` (ascending, disjoint) of the trace at `path` (the calls of
/// other frames only set up state) and calls `on_frame` after each with its counts and the
/// renderer (for its window). A last frame of UINT64_MAX means to the end of the trace; a frame
/// past the end is an InputError. `warm_frames` frames before each range are rendered too, and
/// not reported (UINT64_MAX: every frame from 0): what they rendered into textures that later
/// frames sample (glmark2's desktop windows, a game's exposure adapting over frames) is then
/// there, as in a full replay. `on_warm_frame`, when given, is called after each of those (the
/// timing model times them too, unreported, so that they warm its caches).
void render_trace(const std::string& path, const std::vector<FrameRange>& ranges, const RendererOptions& options,
                  const std::function<void(const FrameStats&, const Renderer&)>& on_frame, uint64_t warm_frames = 0,
                  const std::function<void(const FrameStats&, const Renderer&)>& on_warm_frame = {});

/// `ranges` (ascending, disjoint) each widened by `warm_frames` frames before it, merged where
/// they then meet: the frames render_trace renders.
std::vector<FrameRange> with_warm_frames(const std::vector<FrameRange>& ranges, uint64_t warm_frames);

}  // namespace strobe::gfx
