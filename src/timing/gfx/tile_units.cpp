#include "timing/gfx/tile_units.h"

#include <algorithm>

#include <fmt/format.h>

#include "timing/engine/events.h"
#include "timing/gfx/tbr_addresses.h"

namespace strobe::timing {

using namespace tbr;

TileUnits::TileUnits(Engine& engine, Component& owner, const GraphicsParams& p, GraphicsCounters& c, Spi& spi,
                     BinLists& bins, LinePort& port, uint64_t& progress)
    : engine_(engine), owner_(owner), p_(p), c_(c), spi_(spi), bins_(bins), port_(port), progress_(progress) {
  units_.resize(p_.tile_units);
}

bool TileUnits::start(const PassWork& pass, uint32_t tile_size, size_t tiles, Cycle now) {
  pass_ = &pass;
  tile_size_ = tile_size;
  tile_items_.assign(tiles, {});
  for (uint32_t d = 0; d < pass.draws.size(); ++d)
    for (uint32_t k = 0; k < pass.draws[d].tiles.size(); ++k) tile_items_[pass.draws[d].tiles[k].tile].push_back({d, k});
  next_tile_ = tiles_done_ = 0;
  store_lines_ = 0;
  if (tiles == 0) return false;  // a zero-sized target: nothing to render
  for (Unit& un : units_) un = Unit{};
  for (uint32_t u = 0; u < units_.size(); ++u) fill_fetch(u, now);
  return true;
}

void TileUnits::retired(uint32_t unit, uint32_t seq, Cycle now) {
  Unit& un = units_[unit];
  un.blend[seq - un.blend_base].retired = true;
  blend(unit, now);
}

void TileUnits::raster_wake(uint32_t u, Cycle now) {
  Unit& un = units_[u];
  if (un.wake != now || !un.rastering) return;  // superseded
  un.wake = Cycle::never();
  raster_step(u, now);
}

void TileUnits::fill_fetch(uint32_t u, Cycle now) {
  Unit& un = units_[u];
  const PassWork& pass = *pass_;
  const uint64_t pixels = uint64_t(tile_size_) * tile_size_;
  while (un.fetch.size() < p_.fetch_ahead + 1 && next_tile_ < tile_items_.size()) {
    Fetch f;
    f.tile = next_tile_++;
    f.seq = un.fetch_seq++;
    f.issued = now;
    ++c_.tiles;
    const uint32_t tag = u | (f.seq % kMaxFetches) << kFetchShift;
    if (bins_.bytes(f.tile)) {
      f.pending += bins_.read(f.tile, tag, now);
      c_.bin_bytes_read += bins_.bytes(f.tile);
    }
    if (pass.color_bytes && !pass.color_cleared) {
      f.pending += port_.send(now, kColorBase + pass.target * kTargetStride + f.tile * pixels * pass.color_bytes,
                              pixels * pass.color_bytes, ReqKind::Read, tag);
      c_.tile_bytes_loaded += pixels * pass.color_bytes;
    }
    if (pass.depth_bytes && !pass.depth_cleared) {
      f.pending += port_.send(now, kDepthBase + pass.target * kTargetStride + f.tile * pixels * pass.depth_bytes,
                              pixels * pass.depth_bytes, ReqKind::Read, tag);
      c_.tile_bytes_loaded += pixels * pass.depth_bytes;
    }
    un.fetch.push_back(f);
  }
  try_raster(u, now);
}

void TileUnits::try_raster(uint32_t u, Cycle now) {
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

void TileUnits::raster_step(uint32_t u, Cycle now) {
  Unit& un = units_[u];
  const PassWork& pass = *pass_;
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
      return spi_.try_launch(now);
    }
    // Wave w of the TileWork is ready once the quads before and in it are rasterised (a share
    // of the TileWork's raster time in proportion to its position).
    const Cycle ready = un.item_start + div_up(item_cycles * (un.wave_in_item + 1), tw.waves);
    if (ready > now) {
      if (un.wake != ready) {
        un.wake = ready;
        engine_.schedule(ready, &owner_, kGfxRasterStep, u);
      }
      return spi_.try_launch(now);
    }
    const uint32_t id = tw.first_wave + un.wave_in_item;  // in range: check() saw to it
    const uint32_t seq = un.blend_base + uint32_t(un.blend.size());
    un.blend.push_back(BlendEntry{draw.pixel_waves[id].pixels, false, false, tile, Cycle{0}});
    ++un.waves_queued;
    spi_.enqueue(draw.ps, id, LaunchRef{true, d, u, seq});
    ++un.wave_in_item;
  }
  // The tile is rasterised: the blender closes it after its waves, and the front end moves on.
  un.blend.push_back(BlendEntry{0, true, true, tile, un.raster_at});
  un.fetch.pop_front();
  un.rastering = false;
  spi_.try_launch(now);
  blend(u, now);
  fill_fetch(u, now);
}

void TileUnits::blend(uint32_t u, Cycle now) {
  Unit& un = units_[u];
  // The blender takes waves in launch order: a wave that retired early waits for those before it.
  while (!un.blend.empty() && un.blend.front().retired) {
    const BlendEntry e = un.blend.front();
    un.blend.pop_front();
    ++un.blend_base;
    if (e.tile_end) {
      const Cycle done = std::max({un.rop_free, e.raster_end, now});
      un.drained.push_back({e.tile, done});
      engine_.schedule(done, &owner_, kGfxTileDrained, u);
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

bool TileUnits::drained(uint32_t u, Cycle now) {
  Unit& un = units_[u];
  if (un.drained.empty() || un.drained.front().second > now) return false;
  if (un.store_free > now) {  // still sending the previous tile
    engine_.schedule(un.store_free, &owner_, kGfxTileDrained, u);
    return false;
  }
  const uint32_t tile = un.drained.front().first;
  un.drained.pop_front();
  const PassWork& pass = *pass_;
  const uint64_t pixels = uint64_t(tile_size_) * tile_size_;
  uint64_t bytes = 0;
  if (pass.color_bytes) {
    store_lines_ += port_.send(now, kColorBase + pass.target * kTargetStride + tile * pixels * pass.color_bytes,
                               pixels * pass.color_bytes, ReqKind::Write, kStoreTag | u);
    bytes += pixels * pass.color_bytes;
  }
  if (pass.depth_bytes && p_.store_depth) {
    store_lines_ += port_.send(now, kDepthBase + pass.target * kTargetStride + tile * pixels * pass.depth_bytes,
                               pixels * pass.depth_bytes, ReqKind::Write, kStoreTag | u);
    bytes += pixels * pass.depth_bytes;
  }
  c_.tile_bytes_stored += bytes;
  un.store_free = now + div_up(bytes, p_.noc_bytes_per_cycle);
  ++progress_;
  ++tiles_done_;
  if (!un.drained.empty()) engine_.schedule(std::max(un.store_free, un.drained.front().second), &owner_, kGfxTileDrained, u);
  return pass_done();
}

bool TileUnits::response(uint32_t tag, uint32_t lines, Cycle now) {
  const uint32_t u = tag & kUnitMask;
  Unit& un = units_[u];
  if (tag & kStoreTag) {
    store_lines_ -= lines;
    return pass_done();
  }
  const uint32_t seq = (tag & ~kStoreTag) >> kFetchShift;
  for (Fetch& f : un.fetch)
    if (f.seq % kMaxFetches == seq) {
      f.pending -= lines;
      break;
    }
  try_raster(u, now);
  return false;
}

std::string TileUnits::describe() const {
  std::string s = fmt::format("tiles {} started, {} stored, {} store writes unacknowledged", next_tile_, tiles_done_,
                              store_lines_);
  for (size_t u = 0; u < units_.size(); ++u) {
    const Unit& un = units_[u];
    if (un.fetch.empty() && un.blend.empty() && un.drained.empty()) continue;
    s += fmt::format("; unit {}: {} tiles fetched{}, {} waves to blend, {} tiles to store{}", u, un.fetch.size(),
                     un.rastering ? " (rasterising the first)" : "", un.waves_queued, un.drained.size(),
                     un.stalled ? ", stalled" : "");
  }
  return s;
}

}  // namespace strobe::timing
