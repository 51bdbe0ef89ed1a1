// The tile-based rendering pipeline's timing: the fixed-function stages around the compute units
// and the shader-launch unit (SPI) that hands them graphics waves. A frame's render passes run
// one after another; each pass runs in two phases.
//  - Geometry: the SPI launches every draw's vertex waves in draw order; once a draw's last
//    vertex wave retires, primitive setup (assembly, clipping, culling) takes its primitives at
//    gfx.prims_per_cycle and the tiler writes its bin entries, at gfx.bins_per_cycle, to the
//    per-tile lists in memory (L2 writes).
//  - Tiles: gfx.tile_units units each take the next tile in row-major order. A unit reads the
//    tile's bin list (and, unless the pass cleared them, loads its colour and depth tiles), then
//    rasterises and early-depth-tests each draw's quads there in order at
//    gfx.raster_quads_per_cycle, handing each pixel wave to the SPI when its quads are done. At
//    most gfx.pixel_waves_in_flight waves wait between the rasteriser and the blender; a full
//    queue stalls the rasteriser. The blender takes waves in order as they retire and writes
//    their pixels at gfx.blend_pixels_per_cycle into the on-chip colour tile. When the last wave
//    is blended the tile is stored (colour, and depth under gfx.store_depth) from a second tile
//    buffer while the unit moves on to its next tile; a unit whose previous store is still in
//    flight waits for it (double buffering). A pass ends when its last tile is stored.
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
  uint32_t raster_quads_per_cycle = 1, blend_pixels_per_cycle = 4, waves_in_flight = 32;
  bool store_depth = false;
  bool invalidate_caches = false;  ///< gfx.frame_caches = invalidate
  uint32_t line_bytes = 64, noc_latency = 40, wave_interval = 1;

  /// Reads the `gfx.*` keys and the shared ones.
  static GraphicsParams from_config(const GpuConfig& c);
};

/// What the fixed-function stages did (registered as `gfx.*` statistics; a frame's are the
/// difference of snapshots).
struct GraphicsCounters {
  uint64_t frames = 0, passes = 0, tiles = 0, vs_waves = 0, ps_waves = 0;
  uint64_t primitives = 0, bin_entries = 0, quads = 0, pixels_blended = 0;
  uint64_t bin_bytes_written = 0, bin_bytes_read = 0, tile_bytes_loaded = 0, tile_bytes_stored = 0;
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
  enum class Phase : uint8_t { Idle, Load, Raster, Store };
  /// A tile unit's state while it renders one tile.
  struct Unit {
    Phase phase = Phase::Idle;
    uint32_t tile = 0;
    size_t item = 0;                  // next (draw, TileWork) of the tile to rasterise
    uint32_t wave_in_item = 0;        // next wave of that TileWork
    Cycle item_start{0};              // when the rasteriser began the current TileWork
    Cycle raster_at{0};               // when the rasteriser is free
    Cycle rop_free{0};                // when the blender is free
    Cycle wake{Cycle::never()};       // a pending kGfxRasterStep
    Cycle waiting_since{0};           // start of a stall or a memory wait
    bool stalled = false;
    uint32_t pending_lines = 0;       // memory lines not yet answered
    uint32_t launched = 0, blended = 0, total_waves = 0;
    std::vector<uint16_t> pixels;     // per launched wave, in order
    std::vector<uint8_t> retired;     // per launched wave
  };
  /// What a launched wave's retirement refers to.
  struct LaunchRef {
    bool pixel = false;
    uint32_t draw = 0;
    uint32_t unit = 0;
    uint32_t seq = 0;  // pixel waves: order within the unit's tile
  };

  void begin_pass(Cycle now);
  void end_phase(Cycle now);
  // Geometry.
  void try_setup(Cycle now);
  void setup_done(Cycle now);
  void check_geometry_done(Cycle now);
  // Tiles.
  void start_tiles(Cycle now);
  void start_tile(uint32_t u, Cycle now);
  void memory_done(uint32_t u, Cycle now);
  void raster_step(uint32_t u, Cycle now);
  void blend_ready(uint32_t u, Cycle now);
  /// The unit's tile is fully blended at `when`: schedule its store.
  void drain(uint32_t u, Cycle when);
  /// Issues the store of unit `u`'s current tile and starts its next tile.
  void begin_store(uint32_t u, Cycle now);
  /// A tile's store completed.
  void tile_stored(uint32_t u, Cycle now);
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

  // Tile phase.
  uint32_t tiles_x_ = 0, tiles_y_ = 0, next_tile_ = 0, tiles_done_ = 0;
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> tile_items_;  // per tile: (draw, TileWork index)
  std::vector<Unit> units_;
  std::vector<uint32_t> store_lines_;   // per unit: lines of its tile store still in flight
  std::vector<uint8_t> store_waiting_;  // per unit: a blended tile waits for the previous store
};

}  // namespace strobe::timing
