// The tile-based pipeline's parameters and counters, shared by its stages (tbr_pipeline.h).
#pragma once

#include <cstdint>

namespace strobe::timing {

struct GpuConfig;

/// The fixed-function stages' parameters (the `gfx.*` keys, plus the NoC latency and the line
/// size they share with the memory system).
struct GraphicsParams {
  uint32_t tile_size = 16, tile_units = 16, prims_per_cycle = 4, bins_per_cycle = 4, bin_entry_bytes = 8;
  uint32_t raster_quads_per_cycle = 1, blend_pixels_per_cycle = 4, waves_in_flight = 32, fetch_ahead = 3;
  bool store_depth = false;
  bool hiz = true;                 ///< gfx.hiz: hierarchical Z rejects whole blocks
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

}  // namespace strobe::timing
