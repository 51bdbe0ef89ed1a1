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
// Fixed-function memory traffic goes straight to the L2 banks, over the NoC's latency, at
// synthetic addresses (per-target tile arrays, per-tile bin lists) that never alias device
// memory. Shader waves run on the CUs exactly as compute waves do: their vertex fetches, texture
// samples and uniform loads go through the L1s.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "timing/cu/compute_unit.h"
#include "timing/cu/cu_params.h"
#include "timing/cu/inst_info.h"
#include "timing/cu/wave_source.h"
#include "timing/engine/engine.h"
#include "timing/gfx/frame_work.h"
#include "timing/mem/mem_req.h"
#include "timing/stats/stats.h"

namespace strobe::timing {

struct GpuConfig;

/// The fixed-function stages' parameters (the `gfx.*` keys, plus the NoC latency and the line
/// size they share with the memory system).
struct GraphicsParams {
  uint32_t tile_size = 16, tile_units = 16, prims_per_cycle = 4, bins_per_cycle = 4, bin_entry_bytes = 8;
  uint32_t raster_quads_per_cycle = 1, blend_pixels_per_cycle = 4, waves_in_flight = 32, fetch_ahead = 3;
  bool store_depth = false;
  bool hiz = true;                 ///< gfx.hiz: hierarchical Z rejects whole blocks
  bool invalidate_caches = false;  ///< gfx.frame_caches = invalidate
  uint32_t line_bytes = 64, noc_latency = 40, noc_bytes_per_cycle = 128, wave_interval = 1;

  /// Reads the `gfx.*` keys and the shared ones.
  static GraphicsParams from_config(const GpuConfig& c);
};

/// What the fixed-function stages did (registered as `gfx.*` statistics; a frame's are the
/// difference of snapshots).
struct GraphicsCounters {
  uint64_t frames = 0, passes = 0, tiles = 0, vs_waves = 0, ps_waves = 0;
  uint64_t primitives = 0, bin_entries = 0, quads = 0, hiz_quads = 0, pixels_blended = 0;
  uint64_t bin_bytes_written = 0, bin_bytes_read = 0, tile_bytes_loaded = 0, tile_bytes_stored = 0;
  /// On-chip tile-buffer accesses: a depth access per pixel of each quad past hierarchical Z, and
  /// a colour access per pixel blended.
  uint64_t tile_buffer_accesses = 0;
  uint64_t geometry_cycles = 0, tile_cycles = 0;  ///< the two phases' spans, summed over passes
  uint64_t setup_busy = 0;     ///< cycles primitive setup and the tiler were busy
  uint64_t raster_busy = 0;    ///< rasteriser cycles, summed over tile units
  uint64_t raster_stalled = 0; ///< cycles rasterisers waited for room in the wave queue, summed
  uint64_t blend_busy = 0;     ///< blender cycles, summed over tile units
  uint64_t memory_wait = 0;    ///< cycles tile units waited for bin-list, load and store traffic, summed
};

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

  void mark_room(uint32_t cu) override { room_[cu / 64] |= uint64_t{1} << (cu % 64); }
  void handle(Cycle now, uint32_t kind, uint32_t arg) override;
  std::string describe_state() const override;
  const GraphicsCounters& counters() const { return c_; }

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
  /// What a launched wave's retirement refers to.
  struct LaunchRef {
    bool pixel = false;
    uint32_t draw = 0;
    uint32_t unit = 0;
    uint32_t seq = 0;  // pixel waves: its blend-queue sequence number in the unit
  };

  /// Refuses a frame this pipeline cannot time (InputError): other tiles, a shader that fits on
  /// no SIMD, a tile outside its pass's grid, pixel waves a draw did not record.
  void check(const FrameWork& f) const;
  void begin_pass(Cycle now);
  void end_phase(Cycle now);
  // Geometry.
  void try_setup(Cycle now);
  void setup_done(Cycle now);
  void check_geometry_done(Cycle now);
  // Tiles (tbr_tiles.cpp).
  void start_tiles(Cycle now);
  /// Reserves tiles for unit `u` (one rasterising, gfx.fetch_ahead more) and requests their data.
  void fill_fetch(uint32_t u, Cycle now);
  /// Starts rasterising the unit's front tile if its data has arrived and the rasteriser is idle.
  void try_raster(uint32_t u, Cycle now);
  void raster_step(uint32_t u, Cycle now);
  void blend(uint32_t u, Cycle now);
  /// Stores the unit's oldest blended tile if its store path is free.
  void try_store(uint32_t u, Cycle now);
  /// Ends the pass once every tile is stored and acknowledged.
  void check_pass_done(Cycle now);
  void response(uint32_t tag, uint32_t lines, Cycle now);
  // SPI and memory.
  void enqueue(const ShaderWork& s, uint32_t id, LaunchRef ref);
  void spi_try(Cycle now);
  /// Sends one request per line of [addr, addr + bytes) to the L2; returns the lines sent.
  uint32_t send_lines(Cycle now, uint64_t addr, uint64_t bytes, ReqKind kind, uint32_t tag);
  WorkgroupNeeds needs_of(const ShaderWork& s) const;
  const std::vector<InstInfo>& info_of(const isa::Program* p);

  Engine& engine_;
  RequestPool& pool_;
  std::vector<ComputeUnit*> cus_;
  std::vector<Component*> l2_;
  GraphicsParams p_;
  CuParams cu_;
  GraphicsCounters c_;
  uint64_t progress_ = 0;

  const FrameWork* frame_ = nullptr;
  size_t pass_ = 0;
  Cycle phase_start_{0}, finish_{0};
  std::vector<uint64_t> phase_ends_;
  std::map<const isa::Program*, std::vector<InstInfo>> info_;

  // SPI.
  std::deque<WorkgroupLaunch> spi_;
  std::vector<uint64_t> room_;
  std::vector<LaunchRef> refs_;  // by launch tag, this pass
  uint32_t rr_ = 0;
  Cycle spi_next_{0};
  bool spi_pending_ = false;

  // Geometry phase.
  bool geometry_ = false;
  std::vector<uint32_t> vs_left_;   // per draw: vertex waves not yet retired
  size_t setup_next_ = 0;
  bool setup_busy_ = false;
  uint32_t geometry_lines_ = 0;     // tiler writes not yet answered
  std::vector<uint64_t> list_fill_; // per tile: bytes in its bin list
  std::vector<std::vector<uint64_t>> list_chunks_;  // per tile: its list's chunks, in order
  uint64_t heap_next_ = 0;          // the bin-list heap's next free chunk
  /// Appends `bytes` to tile `t`'s bin list (tiler writes) or reads the whole list back
  /// (kind Read); returns the lines requested.
  uint32_t bin_list_access(uint32_t t, uint64_t bytes, ReqKind kind, uint32_t tag, Cycle now);

  // Tile phase.
  uint32_t tiles_x_ = 0, tiles_y_ = 0, next_tile_ = 0, tiles_done_ = 0;  // done: stores issued
  uint64_t store_lines_ = 0;  // tile-store writes not yet acknowledged
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> tile_items_;  // per tile: (draw, TileWork index)
  std::vector<Unit> units_;
};

}  // namespace strobe::timing
