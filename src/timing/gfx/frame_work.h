// What the graphics timing model times: one frame's work as the functional pipeline recorded
// it, in the order a tile-based GPU does it. A frame is a list of render passes; a pass runs the
// geometry of all its draws first (vertex shading, primitive setup, binning), then its tiles,
// each tile going through its draws in order. The functional pipeline supplies every shader
// wave (an executor that sets the wave up from the draw's recorded inputs) and every count the
// fixed-function stages are timed by, so timing never changes an image. Nothing here knows GL.
#pragma once

#include <cstdint>
#include <vector>

namespace strobe::emu { class Executor; }
namespace strobe::isa { struct Program; }

namespace strobe::timing {

/// One shader stage of one draw: its waves, launched one per group through the SPI.
struct ShaderWork {
  emu::Executor* executor = nullptr;  ///< init_workgroup(wg, k, ...) sets up wave k of the stage
  const isa::Program* program = nullptr;
  uint32_t vgprs = 0, sgprs = 0;      ///< registers the compiled shader allocates
  uint32_t waves = 0;
};

/// A pixel wave's fixed-function work: quads the rasteriser produced for it and pixels the
/// blender writes after it.
struct PixelWaveWork {
  uint16_t quads = 0;
  uint16_t pixels = 0;  ///< colour writes after the depth test (each costs the ROP a slot)
};

/// A draw's work inside one tile: its primitives binned there, its quads rasterised there (those
/// that early Z removed included) and its pixel waves (a contiguous range of the draw's).
struct TileWork {
  uint32_t tile = 0;         ///< row-major index in the pass's tile grid
  uint32_t bin_entries = 0;  ///< the draw's primitives whose bounding box overlaps the tile
  uint32_t quads = 0;        ///< quads rasterised (before hierarchical and early Z)
  uint32_t hiz_quads = 0;    ///< of those, rejected by hierarchical Z a block at a time
  uint32_t first_wave = 0, waves = 0;  ///< into DrawWork::pixel_waves
};

/// One draw: vertex shading, primitive setup and binning, then per tile its pixel work.
struct DrawWork {
  ShaderWork vs, ps;
  uint64_t primitives = 0;   ///< assembled (before culling): what primitive setup processes
  std::vector<PixelWaveWork> pixel_waves;  ///< in launch order (tile by tile, ascending)
  std::vector<TileWork> tiles;             ///< ascending tile index; only tiles with work
};

/// Draws into one render target between its start (a target change, a clear after draws, or
/// the frame's start) and its end. Its tiles are loaded from memory unless the pass began by
/// clearing them, and stored when they are done.
struct PassWork {
  uint32_t target = 0;           ///< the render target's identity within the frame (addresses)
  uint32_t width = 0, height = 0;
  uint32_t color_bytes = 4;      ///< bytes per colour pixel (0: no colour attachment)
  uint32_t depth_bytes = 0;      ///< bytes per depth pixel (0: no depth attachment)
  bool color_cleared = false;    ///< the pass began by clearing colour: no colour tile load
  bool depth_cleared = false;    ///< ... depth: no depth tile load
  std::vector<DrawWork> draws;
};

/// A frame's work in order.
struct FrameWork {
  uint64_t frame = 0;  ///< index in the trace
  uint32_t tile_size = 16;  ///< pixels per tile side the recording binned and packed waves by
  std::vector<PassWork> passes;
};

}  // namespace strobe::timing
