// A render pass's tile phase: gfx.tile_units units each take the next tile in row-major order. A
// unit is a pipeline working on several tiles at once:
//  - fetch: it requests a tile's bin list (and, unless the pass cleared them, loads its colour
//    and depth tiles), up to gfx.fetch_ahead tiles ahead of the one it rasterises;
//  - rasterise: it rasterises and early-depth-tests each draw's quads there in order at
//    gfx.raster_quads_per_cycle, handing each pixel wave to the SPI when its quads are done; at
//    most gfx.pixel_waves_in_flight waves wait between the rasteriser and the blender, and a
//    full queue stalls the rasteriser;
//  - blend: the blender takes waves in order as they retire and writes their pixels at
//    gfx.blend_pixels_per_cycle into the on-chip colour tile;
//  - store: once a tile's last wave is blended it is written back (colour, and depth under
//    gfx.store_depth), streamed out at the NoC's bytes per cycle, one tile at a time per unit;
//    writes are posted, so the buffer is free once its data has left.
// The phase is over when the last tile's writes are acknowledged.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "timing/engine/engine.h"
#include "timing/gfx/bin_lists.h"
#include "timing/gfx/frame_work.h"
#include "timing/gfx/gfx_params.h"
#include "timing/gfx/line_port.h"
#include "timing/gfx/spi.h"

namespace strobe::timing {

/// The tile units (see the file comment). `owner` receives their wake-ups (kGfxRasterStep,
/// kGfxTileDrained) and memory responses, and hands them back here.
class TileUnits {
 public:
  TileUnits(Engine& engine, Component& owner, const GraphicsParams& p, GraphicsCounters& c, Spi& spi, BinLists& bins,
            LinePort& port, uint64_t& progress);
  /// Starts the tiles of `pass` (`tiles` of them; tiles of `tile_size` pixels a side); false
  /// when there are none, and the phase is already over.
  bool start(const PassWork& pass, uint32_t tile_size, size_t tiles, Cycle now);
  /// A pixel wave retired: the one of `unit`'s blend queue numbered `seq`.
  void retired(uint32_t unit, uint32_t seq, Cycle now);
  /// kGfxRasterStep for `unit`.
  void raster_wake(uint32_t unit, Cycle now);
  /// kGfxTileDrained for `unit`: stores its oldest blended tile if its store path is free.
  /// Returns whether the pass is over.
  bool drained(uint32_t unit, Cycle now);
  /// A response to `tag`'s `lines`; returns whether the pass is over.
  bool response(uint32_t tag, uint32_t lines, Cycle now);
  std::string describe() const;

 private:
  /// A tile a unit reserved: its bin list (and loads) requested, answered when `pending` is 0.
  struct Fetch {
    uint32_t tile = 0;
    uint32_t pending = 0;  // memory lines not yet answered
    uint32_t seq = 0;      // the unit's reservation count (tags the responses)
    Cycle issued{0};
  };
  /// One entry of a unit's blend queue: a pixel wave, or the end of a tile.
  struct BlendEntry {
    uint16_t pixels = 0;
    bool retired = false;
    bool tile_end = false;  // the tile `tile` is complete once the blender passes this
    uint32_t tile = 0;
    Cycle raster_end{0};    // tile ends: when its rasterisation finished
  };
  /// A tile unit: a front end (fetch, rasterise), a back end (blend in order) and a store path,
  /// each working on a different tile at once.
  struct Unit {
    std::deque<Fetch> fetch;          // reserved tiles, oldest first; the front one rasterises
    uint32_t fetch_seq = 0;
    bool rastering = false;           // the front fetch's tile is being rasterised
    size_t item = 0;                  // next (draw, TileWork) of that tile
    uint32_t wave_in_item = 0;        // next wave of that TileWork
    Cycle item_start{0};              // when the rasteriser began the current TileWork
    Cycle raster_at{0};               // when the rasteriser is free
    Cycle wake{Cycle::never()};       // a pending kGfxRasterStep
    Cycle stalled_since{0};
    bool stalled = false;
    std::deque<BlendEntry> blend;     // waves and tile ends in order, not yet blended
    uint32_t blend_base = 0;          // sequence number of blend.front()
    uint32_t waves_queued = 0;        // pixel waves in `blend`
    Cycle rop_free{0};                // when the blender is free
    std::deque<std::pair<uint32_t, Cycle>> drained;  // blended tiles and when, waiting for the store path
    Cycle store_free{0};              // when the store path has sent its current tile
  };

  /// Reserves tiles for unit `u` (one rasterising, gfx.fetch_ahead more) and requests their data.
  void fill_fetch(uint32_t u, Cycle now);
  /// Starts rasterising the unit's front tile if its data has arrived and the rasteriser is idle.
  void try_raster(uint32_t u, Cycle now);
  void raster_step(uint32_t u, Cycle now);
  void blend(uint32_t u, Cycle now);
  /// Every tile stored and acknowledged.
  bool pass_done() const { return tiles_done_ >= tile_items_.size() && !store_lines_; }

  Engine& engine_;
  Component& owner_;
  const GraphicsParams& p_;
  GraphicsCounters& c_;
  Spi& spi_;
  BinLists& bins_;
  LinePort& port_;
  uint64_t& progress_;
  const PassWork* pass_ = nullptr;
  uint32_t tile_size_ = 0;
  uint32_t next_tile_ = 0, tiles_done_ = 0;  // done: stores issued
  uint64_t store_lines_ = 0;                 // tile-store writes not yet acknowledged
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> tile_items_;  // per tile: (draw, TileWork index)
  std::vector<Unit> units_;
};

}  // namespace strobe::timing
