// One GL draw or clear executed by the functional pipeline: vertex shading on the emulator,
// primitive assembly, clipping, culling and rasterisation into quads, early or late depth
// testing, pixel shading on the emulator, and blending into the target. The counts of every
// stage go to the frame's FrameStats.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "emu/graphics.h"
#include "emu/wave.h"
#include "emu/workgroup_threads.h"
#include "gfx/pipeline/frame_stats.h"
#include "gfx/pipeline/pipeline_cache.h"
#include "gfx/pipeline/shading.h"
#include "gfx/pipeline/surfaces.h"
#include "gfx/pipeline/texture_store.h"
#include "gfx/stream/gl_state.h"

namespace strobe::emu {
class GlobalMemory;
}

namespace strobe::gfx {

struct FrameRecording;

/// Hierarchical Z: the farthest depth of each 8x8-pixel block of a depth buffer, computed when
/// first asked for in a draw and forgotten when the draw writes depth into the block. A draw's
/// fragments whose nearest depth in a block is no nearer than the block's farthest all fail
/// a LESS or LEQUAL test, so the block's quads are rejected without per-pixel tests.
struct HizCache {
  static constexpr int kBlock = 8;
  const RenderTarget* target = nullptr;
  int blocks_x = 0, blocks_y = 0;
  std::vector<float> farthest;
  std::vector<uint8_t> valid;
  /// Starts a draw against `t`: every block is recomputed on first use.
  void begin(const RenderTarget& t);
  /// The farthest depth in the block holding pixel (x, y).
  float farthest_at(int x, int y);
  /// Pixel (x, y) was written.
  void wrote(int x, int y) { valid[size_t(y / kBlock) * size_t(blocks_x) + size_t(x / kBlock)] = 0; }
  /// The index of the block holding pixel (x, y).
  uint32_t block_of(int x, int y) const { return uint32_t(y / kBlock) * uint32_t(blocks_x) + uint32_t(x / kBlock); }
};

/// Everything a draw uses besides its own snapshot. Reused from draw to draw.
struct DrawContext {
  emu::GlobalMemory* mem = nullptr;  ///< the frame's device memory
  PipelineCache* pipelines = nullptr;
  TextureStore* textures = nullptr;
  Surfaces* surfaces = nullptr;
  FrameStats* stats = nullptr;
  int tile_size = 16;  ///< pixels per side of a tile: bin entries, and pixel waves never span two
  FrameRecording* recording = nullptr;  ///< when set, each draw's work is recorded for timing
  /// Vertex and index data already placed in `mem` this frame, by contents.
  std::map<const std::vector<uint8_t>*, uint64_t> placed;
  HizCache hiz;
  /// Host threads pixel waves are shaded on (shading.h); the results are the same for any.
  uint32_t threads = 1;
  std::unique_ptr<emu::HostThreads> pool;  ///< `threads` of them when more than one
  std::vector<PixelWave> pixel_waves;        ///< the batch being shaded
  std::vector<ShadingSlot> shading_slots;    ///< one per thread
};

/// Pixel waves shaded per host thread in one batch: enough that threads rarely wait for each
/// other, few enough that a batch's exports stay small (about 3 KB a wave).
inline constexpr size_t kPixelWavesPerThread = 32;

/// Renders `d` into its target. Throws NotImplementedError for what the pipeline does not draw
/// (points and lines, fixed-function GL) and InputError for a draw whose data is missing.
void execute_draw(const GlDraw& d, DrawContext& cx);

/// Applies `c` to its target.
void execute_clear(const GlClear& c, DrawContext& cx);

/// Copies `b`'s rectangle from its read framebuffer to its draw framebuffer (blit.cpp).
void execute_blit(const GlBlit& b, DrawContext& cx);

}  // namespace strobe::gfx
