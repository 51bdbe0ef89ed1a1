// The tile phase of a render pass: each tile unit's fetch, rasteriser, blender and store path
// (the pipeline of tbr_pipeline.h's file comment), each working on its own tile.
#include <algorithm>

#include "timing/engine/events.h"
#include "timing/gfx/tbr_addresses.h"
#include "timing/gfx/tbr_pipeline.h"

namespace strobe::timing {

using namespace tbr;

void TbrPipeline::start_tiles(Cycle now) {
  const PassWork& pass = frame_->passes[pass_];
  const size_t tiles = size_t(tiles_x_) * tiles_y_;
  tile_items_.assign(tiles, {});
  for (uint32_t d = 0; d < pass.draws.size(); ++d)
    for (uint32_t k = 0; k < pass.draws[d].tiles.size(); ++k) tile_items_[pass.draws[d].tiles[k].tile].push_back({d, k});
  next_tile_ = tiles_done_ = 0;
  store_lines_ = 0;
  if (tiles == 0) {  // a zero-sized target: nothing to render
    end_phase(now);
    if (++pass_ < frame_->passes.size()) return begin_pass(now);
    finish_ = now;
    engine_.stop();
    return;
  }
  for (Unit& un : units_) un = Unit{};
  for (uint32_t u = 0; u < units_.size(); ++u) fill_fetch(u, now);
}

void TbrPipeline::fill_fetch(uint32_t u, Cycle now) {
  Unit& un = units_[u];
  const PassWork& pass = frame_->passes[pass_];
  const uint64_t pixels = uint64_t(frame_->tile_size) * frame_->tile_size;
  while (un.fetch.size() < p_.fetch_ahead + 1 && next_tile_ < tile_items_.size()) {
    Fetch f;
    f.tile = next_tile_++;
    f.seq = un.fetch_seq++;
    f.issued = now;
    ++c_.tiles;
    const uint32_t tag = u | (f.seq % kMaxFetches) << kFetchShift;
    if (list_fill_[f.tile]) {
      f.pending += bin_list_access(f.tile, 0, ReqKind::Read, tag, now);
      c_.bin_bytes_read += list_fill_[f.tile];
    }
    if (pass.color_bytes && !pass.color_cleared) {
      f.pending += send_lines(now, kColorBase + pass.target * kTargetStride + f.tile * pixels * pass.color_bytes,
                              pixels * pass.color_bytes, ReqKind::Read, tag);
      c_.tile_bytes_loaded += pixels * pass.color_bytes;
    }
    if (pass.depth_bytes && !pass.depth_cleared) {
      f.pending += send_lines(now, kDepthBase + pass.target * kTargetStride + f.tile * pixels * pass.depth_bytes,
                              pixels * pass.depth_bytes, ReqKind::Read, tag);
      c_.tile_bytes_loaded += pixels * pass.depth_bytes;
    }
    un.fetch.push_back(f);
  }
  try_raster(u, now);
}

void TbrPipeline::try_raster(uint32_t u, Cycle now) {
  Unit& un = units_[u];
  if (un.rastering || un.fetch.empty() || un.fetch.front().pending) return;
  // The rasteriser waited for this tile's data from when it was free (or the request, if later).
  const Cycle idle_from = std::max(un.raster_at, un.fetch.front().issued);
  if (now > idle_from) c_.memory_wait += (now - idle_from).value();
  un.rastering = true;
  un.item = 0;
  un.wave_in_item = 0;
  un.raster_at = std::max(un.raster_at, now);
  un.item_start = un.raster_at;
  raster_step(u, now);
}

void TbrPipeline::raster_step(uint32_t u, Cycle now) {
  Unit& un = units_[u];
  const PassWork& pass = frame_->passes[pass_];
  const uint32_t tile = un.fetch.front().tile;
  const auto& items = tile_items_[tile];
  const uint32_t rate = p_.raster_quads_per_cycle;
  while (un.item < items.size()) {
    const auto [d, k] = items[un.item];
    const DrawWork& draw = pass.draws[d];
    const TileWork& tw = draw.tiles[k];
    // Hierarchical Z rejects a block of up to 16 quads per cycle; the rest go through the
    // rasteriser and early Z at its quad rate.
    const uint64_t hiz = std::min(tw.hiz_quads, tw.quads);
    const uint64_t item_cycles =
        div_up(tw.quads - hiz, rate) + (p_.hiz ? div_up(hiz, kHizQuadsPerBlock) : div_up(hiz, rate));
    if (un.wave_in_item >= tw.waves) {  // the draw's quads here are all rasterised
      un.raster_at = un.item_start + item_cycles;
      c_.raster_busy += item_cycles;
      c_.quads += tw.quads;
      c_.hiz_quads += hiz;
      c_.tile_buffer_accesses += 4 * (tw.quads - hiz);  // a depth access per pixel of each quad tested
      ++un.item;
      un.wave_in_item = 0;
      un.item_start = un.raster_at;
      continue;
    }
    if (un.waves_queued >= p_.waves_in_flight) {  // the queue to the blender is full
      if (!un.stalled) un.stalled = true, un.stalled_since = now;
      return spi_try(now);
    }
    // Wave w of the TileWork is ready once the quads before and in it are rasterised (a share
    // of the TileWork's raster time in proportion to its position).
    const Cycle ready = un.item_start + div_up(item_cycles * (un.wave_in_item + 1), tw.waves);
    if (ready > now) {
      if (un.wake != ready) {
        un.wake = ready;
        engine_.schedule(ready, this, kGfxRasterStep, u);
      }
      return spi_try(now);
    }
    const uint32_t id = tw.first_wave + un.wave_in_item;  // in range: check() saw to it
    const uint32_t seq = un.blend_base + uint32_t(un.blend.size());
    un.blend.push_back(BlendEntry{draw.pixel_waves[id].pixels, false, false, tile, Cycle{0}});
    ++un.waves_queued;
    enqueue(draw.ps, id, LaunchRef{true, d, u, seq});
    ++un.wave_in_item;
  }
  // The tile is rasterised: the blender closes it after its waves, and the front end moves on.
  un.blend.push_back(BlendEntry{0, true, true, tile, un.raster_at});
  un.fetch.pop_front();
  un.rastering = false;
  spi_try(now);
  blend(u, now);
  fill_fetch(u, now);
}

void TbrPipeline::blend(uint32_t u, Cycle now) {
  Unit& un = units_[u];
  // The blender takes waves in launch order: a wave that retired early waits for those before it.
  while (!un.blend.empty() && un.blend.front().retired) {
    const BlendEntry e = un.blend.front();
    un.blend.pop_front();
    ++un.blend_base;
    if (e.tile_end) {
      const Cycle done = std::max({un.rop_free, e.raster_end, now});
      un.drained.push_back({e.tile, done});
      engine_.schedule(done, this, kGfxTileDrained, u);
      continue;
    }
    const uint64_t cycles = div_up(e.pixels, p_.blend_pixels_per_cycle);
    un.rop_free = std::max(un.rop_free, now) + cycles;
    c_.blend_busy += cycles;
    c_.pixels_blended += e.pixels;
    c_.tile_buffer_accesses += e.pixels;  // a colour write per pixel
    --un.waves_queued;
  }
  if (un.stalled && un.waves_queued < p_.waves_in_flight) {
    un.stalled = false;
    c_.raster_stalled += (now - un.stalled_since).value();
    // The stall delayed the rest of the current draw's quads in the tile.
    if (un.wave_in_item > 0) un.item_start = un.item_start + (now - un.stalled_since).value();
    raster_step(u, now);
  }
}

void TbrPipeline::try_store(uint32_t u, Cycle now) {
  Unit& un = units_[u];
  if (un.drained.empty() || un.drained.front().second > now) return;
  if (un.store_free > now) {  // still sending the previous tile
    engine_.schedule(un.store_free, this, kGfxTileDrained, u);
    return;
  }
  const uint32_t tile = un.drained.front().first;
  un.drained.pop_front();
  const PassWork& pass = frame_->passes[pass_];
  const uint64_t pixels = uint64_t(frame_->tile_size) * frame_->tile_size;
  uint64_t bytes = 0;
  if (pass.color_bytes) {
    store_lines_ += send_lines(now, kColorBase + pass.target * kTargetStride + tile * pixels * pass.color_bytes,
                               pixels * pass.color_bytes, ReqKind::Write, kStoreTag | u);
    bytes += pixels * pass.color_bytes;
  }
  if (pass.depth_bytes && p_.store_depth) {
    store_lines_ += send_lines(now, kDepthBase + pass.target * kTargetStride + tile * pixels * pass.depth_bytes,
                               pixels * pass.depth_bytes, ReqKind::Write, kStoreTag | u);
    bytes += pixels * pass.depth_bytes;
  }
  c_.tile_bytes_stored += bytes;
  un.store_free = now + div_up(bytes, p_.noc_bytes_per_cycle);
  ++progress_;
  ++tiles_done_;
  if (!un.drained.empty()) engine_.schedule(std::max(un.store_free, un.drained.front().second), this, kGfxTileDrained, u);
  check_pass_done(now);
}

void TbrPipeline::check_pass_done(Cycle now) {
  if (tiles_done_ < tile_items_.size() || store_lines_) return;
  // The pass's last tile is in memory.
  end_phase(now);
  if (++pass_ < frame_->passes.size()) return begin_pass(now);
  finish_ = now;
  engine_.stop();
}

void TbrPipeline::response(uint32_t tag, uint32_t lines, Cycle now) {
  const uint32_t u = tag & kUnitMask;
  Unit& un = units_[u];
  if (tag & kStoreTag) {
    store_lines_ -= lines;
    return check_pass_done(now);
  }
  const uint32_t seq = (tag & ~kStoreTag) >> kFetchShift;
  for (Fetch& f : un.fetch)
    if (f.seq % kMaxFetches == seq) {
      f.pending -= lines;
      break;
    }
  try_raster(u, now);
}

}  // namespace strobe::timing
