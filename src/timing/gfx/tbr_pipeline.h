// The tile-based rendering pipeline's timing: the fixed-function stages around the compute units
// and the shader-launch unit (SPI) that hands them graphics waves. A frame's render passes run
// one after another; each pass runs in two phases.
//  - Geometry: the SPI launches every draw's vertex waves in draw order; once a draw's last
//    vertex wave retires, primitive setup (assembly, clipping, culling) takes its primitives at
//    gfx.prims_per_cycle and the tiler writes its bin entries, at gfx.bins_per_cycle, to the
//    per-tile lists in memory (L2 writes).
//  - Tiles: gfx.tile_units units each take the next tile in row-major order. A unit is a
//    pipeline working on several tiles at once:
//     - fetch: it requests a tile's bin list (and, unless the pass cleared them, loads its colour
//       and depth tiles), up to gfx.fetch_ahead tiles ahead of the one it rasterises;
//     - rasterise: it rasterises and early-depth-tests each draw's quads there in order at
//       gfx.raster_quads_per_cycle, handing each pixel wave to the SPI when its quads are done;
//       at most gfx.pixel_waves_in_flight waves wait between the rasteriser and the blender,
//       and a full queue stalls the rasteriser;
//     - blend: the blender takes waves in order as they retire and writes their pixels at
//       gfx.blend_pixels_per_cycle into the on-chip colour tile;
//     - store: once a tile's last wave is blended it is written back (colour, and depth under
//       gfx.store_depth), streamed out at the NoC's bytes per cycle, one tile at a time per unit;
//       writes are posted, so the buffer is free once its data has left.
//    A pass ends when its last tile's writes are acknowledged.
// The stages are parts of their own: the SPI (spi.h, placing waves by the compute dispatcher's
// rule), setup and the tiler (geometry_stage.h), the bin lists (bin_lists.h), the tile units
// (tile_units.h) and the path to the L2 (line_port.h); this class sequences the passes and
// phases and routes the engine's events to them.
// Fixed-function memory traffic goes straight to the L2 banks, over the NoC's latency, at
// synthetic addresses (per-target tile arrays, per-tile bin lists) that never alias device
// memory. Shader waves run on the CUs exactly as compute waves do: their vertex fetches, texture
// samples and uniform loads go through the L1s.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "timing/cu/compute_unit.h"
#include "timing/cu/cu_params.h"
#include "timing/cu/wave_source.h"
#include "timing/engine/engine.h"
#include "timing/gfx/bin_lists.h"
#include "timing/gfx/frame_work.h"
#include "timing/gfx/geometry_stage.h"
#include "timing/gfx/gfx_params.h"
#include "timing/gfx/line_port.h"
#include "timing/gfx/spi.h"
#include "timing/gfx/tile_units.h"
#include "timing/mem/mem_req.h"
#include "timing/stats/stats.h"

namespace strobe::timing {

/// The pipeline (see the file comment): the graphics WaveSource.
class TbrPipeline final : public WaveSource {
 public:
  TbrPipeline(Engine& engine, RequestPool& pool, StatsRegistry& stats, std::vector<ComputeUnit*> cus,
              std::vector<Component*> l2_banks, const GraphicsParams& p, const CuParams& cu);
  /// Starts frame `f` at `start`; finished() turns true, and the engine stops, when its last
  /// pass's last tile is stored. Throws InputError for a shader that cannot fit on a CU.
  /// `f` and everything it points to must live until then.
  void begin(Cycle start, const FrameWork& f);
  bool finished() const { return pass_ >= frame_->passes.size(); }
  /// Cycle the frame's last tile was stored.
  Cycle finish_time() const { return finish_; }
  /// Grows with every retired wave, finished stage and memory response (the watchdog's view).
  uint64_t progress() const { return progress_; }
  /// Cycle each phase of each pass ended, in order (geometry, tiles, geometry, ...).
  const std::vector<uint64_t>& phase_ends() const { return phase_ends_; }

  void mark_room(uint32_t cu) override { spi_.mark_room(cu); }
  /// The earliest cycle the pipeline may act at: under the quantum runner a wave's retirement
  /// and an L2 response reach it when their window ends, after the CUs and the L2 have run to
  /// `t`, and what they allow happens then (as for the compute dispatcher). 0 on one engine.
  void set_floor(Cycle t) { floor_ = t; }
  void handle(Cycle now, uint32_t kind, uint32_t arg) override;
  std::string describe_state() const override;
  const GraphicsCounters& counters() const { return c_; }

 private:
  /// Refuses a frame this pipeline cannot time (InputError): other tiles, a shader that fits on
  /// no SIMD, a tile outside its pass's grid, pixel waves a draw did not record.
  void check(const FrameWork& f) const;
  void begin_pass(Cycle now);
  void end_phase(Cycle now);
  /// Moves to the tile phase once the geometry phase is over.
  void check_geometry_done(Cycle now);
  /// Starts the pass's tile phase (or, for a pass without tiles, ends it).
  void start_tiles(Cycle now);
  /// The pass's last tile is in memory: the next pass, or the frame's end.
  void end_pass(Cycle now);

  Cycle floor_{0};
  Engine& engine_;
  GraphicsParams p_;
  CuParams cu_;
  GraphicsCounters c_;
  uint64_t progress_ = 0;
  LinePort port_;
  BinLists bins_;
  Spi spi_;
  GeometryStage geometry_stage_;
  TileUnits tiles_;

  const FrameWork* frame_ = nullptr;
  size_t pass_ = 0;
  bool geometry_ = false;  // in the pass's geometry phase
  size_t pass_tiles_ = 0;
  Cycle phase_start_{0}, finish_{0};
  std::vector<uint64_t> phase_ends_;
};

}  // namespace strobe::timing
