#include "timing/gfx/tbr_pipeline.h"

#include <algorithm>

#include <fmt/format.h>

#include "common/error.h"
#include "emu/executor.h"
#include "timing/config/gpu_config.h"
#include "timing/engine/events.h"

namespace strobe::timing {

namespace {

// Synthetic address regions of the fixed-function stages' memory (far above any device
// allocation): colour and depth tiles per render target, and one bin list per tile.
constexpr uint64_t kColorBase = uint64_t{0x6000} << 32, kDepthBase = uint64_t{0x6800} << 32;
constexpr uint64_t kTargetStride = uint64_t{1} << 32;
constexpr uint64_t kBinBase = uint64_t{0x7000} << 32, kBinListStride = uint64_t{1} << 24;
constexpr uint32_t kGeometryTag = UINT32_MAX;  // memory responses for the tiler
constexpr uint32_t kStoreTag = uint32_t{1} << 31;  // | unit: responses to a unit's tile store

uint64_t div_up(uint64_t a, uint64_t b) { return (a + b - 1) / b; }
uint32_t round_up(uint32_t v, uint32_t g) { return (v + g - 1) / g * g; }

}  // namespace

GraphicsParams GraphicsParams::from_config(const GpuConfig& c) {
  GraphicsParams p;
  p.tile_size = uint32_t(c.gfx_tile_size);
  p.tile_units = uint32_t(c.gfx_tile_units);
  p.prims_per_cycle = uint32_t(c.gfx_prims_per_cycle);
  p.bins_per_cycle = uint32_t(c.gfx_bins_per_cycle);
  p.bin_entry_bytes = uint32_t(c.gfx_bin_entry_bytes);
  p.raster_quads_per_cycle = uint32_t(c.gfx_raster_quads_per_cycle);
  p.blend_pixels_per_cycle = uint32_t(c.gfx_blend_pixels_per_cycle);
  p.waves_in_flight = uint32_t(c.gfx_waves_in_flight);
  p.store_depth = c.gfx_store_depth == "on";
  p.invalidate_caches = c.gfx_frame_caches == "invalidate";
  p.line_bytes = uint32_t(c.line_bytes);
  p.noc_latency = uint32_t(c.noc_latency);
  p.wave_interval = uint32_t(c.wg_dispatch_cycles);
  return p;
}

TbrPipeline::TbrPipeline(Engine& engine, RequestPool& pool, StatsRegistry& stats, std::vector<ComputeUnit*> cus,
                         std::vector<Component*> l2_banks, const GraphicsParams& p, const CuParams& cu)
    : WaveSource("gfx"), engine_(engine), pool_(pool), cus_(std::move(cus)), l2_(std::move(l2_banks)), p_(p), cu_(cu) {
  room_.assign((cus_.size() + 63) / 64, 0);
  units_.resize(p_.tile_units);
  store_lines_.assign(p_.tile_units, 0);
  store_waiting_.assign(p_.tile_units, 0);
  const std::pair<const char*, const uint64_t*> named[] = {
      {"frames", &c_.frames}, {"passes", &c_.passes}, {"tiles", &c_.tiles}, {"vs_waves", &c_.vs_waves},
      {"ps_waves", &c_.ps_waves}, {"primitives", &c_.primitives}, {"bin_entries", &c_.bin_entries},
      {"quads", &c_.quads}, {"pixels_blended", &c_.pixels_blended}, {"bin_bytes_written", &c_.bin_bytes_written},
      {"bin_bytes_read", &c_.bin_bytes_read}, {"tile_bytes_loaded", &c_.tile_bytes_loaded},
      {"tile_bytes_stored", &c_.tile_bytes_stored}, {"geometry_cycles", &c_.geometry_cycles},
      {"tile_cycles", &c_.tile_cycles}, {"setup_busy", &c_.setup_busy}, {"raster_busy", &c_.raster_busy},
      {"raster_stalled", &c_.raster_stalled}, {"blend_busy", &c_.blend_busy}, {"memory_wait", &c_.memory_wait}};
  for (const auto& [n, ptr] : named) stats.add(std::string("gfx.") + n, ptr);
}

WorkgroupNeeds TbrPipeline::needs_of(const ShaderWork& s) const {
  WorkgroupNeeds n;
  n.waves = 1;
  n.vgprs_per_wave = round_up(std::max(s.vgprs, 1u), cu_.res.vgpr_granule);
  n.sgprs_per_wave = round_up(std::max(s.sgprs, 1u), cu_.res.sgpr_granule);
  n.lds_bytes = 0;
  n.barrier_group = false;
  return n;
}

const std::vector<InstInfo>& TbrPipeline::info_of(const isa::Program* p) {
  auto it = info_.find(p);
  if (it == info_.end()) it = info_.emplace(p, build_inst_info(*p, cu_.timing)).first;
  return it->second;
}

void TbrPipeline::begin(Cycle start, const FrameWork& f) {
  frame_ = &f;
  info_.clear();
  // Every shader must fit on a CU, or its waves would wait forever.
  for (const PassWork& pass : f.passes)
    for (const DrawWork& d : pass.draws)
      for (const ShaderWork* s : {&d.vs, &d.ps}) {
        if (!s->waves) continue;
        if (!s->executor || !s->program)
          throw InputError(fmt::format("frame {}: a draw's shader has waves but no code", f.frame));
        const WorkgroupNeeds n = needs_of(*s);
        if (n.vgprs_per_wave > cu_.res.vgprs_per_simd || n.sgprs_per_wave > cu_.res.sgprs_per_simd)
          throw InputError(fmt::format("frame {}: a shader needing {} VGPRs and {} SGPRs does not fit on a SIMD ({} and "
                                       "{})", f.frame, n.vgprs_per_wave, n.sgprs_per_wave, cu_.res.vgprs_per_simd,
                                       cu_.res.sgprs_per_simd));
      }
  ++c_.frames;
  for (size_t c = 0; c < cus_.size(); ++c) mark_room(uint32_t(c));
  spi_.clear();
  spi_pending_ = false;
  spi_next_ = start;
  rr_ = 0;
  phase_ends_.clear();
  pass_ = 0;
  finish_ = start;
  if (f.passes.empty()) {
    engine_.stop();
    return;
  }
  begin_pass(start);
}

void TbrPipeline::begin_pass(Cycle now) {
  const PassWork& pass = frame_->passes[pass_];
  ++c_.passes;
  refs_.clear();
  geometry_ = true;
  phase_start_ = now;
  vs_left_.assign(pass.draws.size(), 0);
  const uint32_t t = frame_->tile_size;
  tiles_x_ = uint32_t(div_up(pass.width, t));
  tiles_y_ = uint32_t(div_up(pass.height, t));
  list_fill_.assign(size_t(tiles_x_) * tiles_y_, 0);
  for (uint32_t d = 0; d < pass.draws.size(); ++d) {
    const ShaderWork& vs = pass.draws[d].vs;
    vs_left_[d] = vs.waves;
    for (uint32_t k = 0; k < vs.waves; ++k) enqueue(vs, k, LaunchRef{false, d, 0, 0});
  }
  setup_next_ = 0;
  setup_busy_ = false;
  geometry_lines_ = 0;
  spi_try(now);
  try_setup(now);
  check_geometry_done(now);
}

void TbrPipeline::end_phase(Cycle now) {
  phase_ends_.push_back(now.value());
  (geometry_ ? c_.geometry_cycles : c_.tile_cycles) += (now - phase_start_).value();
  phase_start_ = now;
}

// ---- geometry

void TbrPipeline::try_setup(Cycle now) {
  const PassWork& pass = frame_->passes[pass_];
  if (setup_busy_ || setup_next_ >= pass.draws.size() || vs_left_[setup_next_]) return;
  const DrawWork& d = pass.draws[setup_next_];
  uint64_t bins = 0;
  for (const TileWork& tw : d.tiles) bins += tw.bin_entries;
  const uint64_t cycles = std::max(div_up(d.primitives, p_.prims_per_cycle), div_up(bins, p_.bins_per_cycle));
  c_.primitives += d.primitives;
  c_.bin_entries += bins;
  c_.setup_busy += cycles;
  setup_busy_ = true;
  engine_.schedule(now + cycles, this, kGfxSetupDone);
}

void TbrPipeline::setup_done(Cycle now) {
  const DrawWork& d = frame_->passes[pass_].draws[setup_next_];
  ++progress_;
  // The tiler appends the draw's entries to each tile's list.
  for (const TileWork& tw : d.tiles) {
    if (tw.tile >= list_fill_.size())
      throw InputError(fmt::format("frame {}: tile {} lies outside the {}x{} tile grid", frame_->frame, tw.tile,
                                   tiles_x_, tiles_y_));
    const uint64_t bytes = uint64_t(tw.bin_entries) * p_.bin_entry_bytes;
    if (!bytes) continue;
    geometry_lines_ += send_lines(now, kBinBase + tw.tile * kBinListStride + list_fill_[tw.tile], bytes,
                                  ReqKind::Write, kGeometryTag);
    list_fill_[tw.tile] += bytes;
    c_.bin_bytes_written += bytes;
  }
  setup_busy_ = false;
  ++setup_next_;
  try_setup(now);
  check_geometry_done(now);
}

void TbrPipeline::check_geometry_done(Cycle now) {
  const PassWork& pass = frame_->passes[pass_];
  if (!geometry_ || setup_busy_ || setup_next_ < pass.draws.size() || geometry_lines_) return;
  end_phase(now);
  geometry_ = false;
  start_tiles(now);
}

// ---- tiles

void TbrPipeline::start_tiles(Cycle now) {
  const PassWork& pass = frame_->passes[pass_];
  const size_t tiles = size_t(tiles_x_) * tiles_y_;
  tile_items_.assign(tiles, {});
  for (uint32_t d = 0; d < pass.draws.size(); ++d)
    for (uint32_t k = 0; k < pass.draws[d].tiles.size(); ++k) tile_items_[pass.draws[d].tiles[k].tile].push_back({d, k});
  next_tile_ = tiles_done_ = 0;
  if (tiles == 0) {  // a zero-sized target: nothing to render
    end_phase(now);
    if (++pass_ < frame_->passes.size()) return begin_pass(now);
    finish_ = now;
    engine_.stop();
    return;
  }
  for (uint32_t u = 0; u < units_.size(); ++u) start_tile(u, now);
}

void TbrPipeline::start_tile(uint32_t u, Cycle now) {
  Unit& un = units_[u];
  if (next_tile_ >= tile_items_.size()) {
    un.phase = Phase::Idle;
    return;
  }
  const PassWork& pass = frame_->passes[pass_];
  const uint32_t t = next_tile_++;
  ++c_.tiles;
  un = Unit{};
  un.tile = t;
  un.phase = Phase::Load;
  un.waiting_since = now;
  for (const auto& [d, k] : tile_items_[t]) un.total_waves += pass.draws[d].tiles[k].waves;
  un.pixels.reserve(un.total_waves);
  un.retired.reserve(un.total_waves);
  // The tile's bin list, and its colour and depth unless the pass cleared them.
  const uint32_t ts = frame_->tile_size;
  const uint64_t pixels = uint64_t(ts) * ts;
  if (list_fill_[t]) {
    un.pending_lines += send_lines(now, kBinBase + t * kBinListStride, list_fill_[t], ReqKind::Read, u);
    c_.bin_bytes_read += list_fill_[t];
  }
  if (pass.color_bytes && !pass.color_cleared) {
    un.pending_lines += send_lines(now, kColorBase + pass.target * kTargetStride + t * pixels * pass.color_bytes,
                                   pixels * pass.color_bytes, ReqKind::Read, u);
    c_.tile_bytes_loaded += pixels * pass.color_bytes;
  }
  if (pass.depth_bytes && !pass.depth_cleared) {
    un.pending_lines += send_lines(now, kDepthBase + pass.target * kTargetStride + t * pixels * pass.depth_bytes,
                                   pixels * pass.depth_bytes, ReqKind::Read, u);
    c_.tile_bytes_loaded += pixels * pass.depth_bytes;
  }
  if (!un.pending_lines) memory_done(u, now);
}

void TbrPipeline::memory_done(uint32_t u, Cycle now) {
  Unit& un = units_[u];
  ++progress_;
  c_.memory_wait += (now - un.waiting_since).value();
  un.phase = Phase::Raster;
  un.raster_at = un.item_start = un.rop_free = now;
  raster_step(u, now);
}

void TbrPipeline::begin_store(uint32_t u, Cycle now) {
  Unit& un = units_[u];
  const PassWork& pass = frame_->passes[pass_];
  const uint64_t pixels = uint64_t(frame_->tile_size) * frame_->tile_size;
  uint32_t lines = 0;
  if (pass.color_bytes) {
    lines += send_lines(now, kColorBase + pass.target * kTargetStride + un.tile * pixels * pass.color_bytes,
                        pixels * pass.color_bytes, ReqKind::Write, kStoreTag | u);
    c_.tile_bytes_stored += pixels * pass.color_bytes;
  }
  if (pass.depth_bytes && p_.store_depth) {
    lines += send_lines(now, kDepthBase + pass.target * kTargetStride + un.tile * pixels * pass.depth_bytes,
                        pixels * pass.depth_bytes, ReqKind::Write, kStoreTag | u);
    c_.tile_bytes_stored += pixels * pass.depth_bytes;
  }
  store_lines_[u] = lines;
  un.phase = Phase::Idle;
  start_tile(u, now);  // the next tile renders into the other tile buffer meanwhile
  if (!lines) tile_stored(u, now);
}

void TbrPipeline::tile_stored(uint32_t u, Cycle now) {
  ++progress_;
  ++tiles_done_;
  if (store_waiting_[u]) {
    store_waiting_[u] = 0;
    c_.memory_wait += (now - units_[u].waiting_since).value();
    begin_store(u, now);
    return;
  }
  if (tiles_done_ < tile_items_.size()) return;
  // The pass's last tile is in memory.
  end_phase(now);
  if (++pass_ < frame_->passes.size()) return begin_pass(now);
  finish_ = now;
  engine_.stop();
}

void TbrPipeline::raster_step(uint32_t u, Cycle now) {
  Unit& un = units_[u];
  const PassWork& pass = frame_->passes[pass_];
  const auto& items = tile_items_[un.tile];
  const uint32_t rate = p_.raster_quads_per_cycle;
  while (un.item < items.size()) {
    const auto [d, k] = items[un.item];
    const DrawWork& draw = pass.draws[d];
    const TileWork& tw = draw.tiles[k];
    if (un.wave_in_item == 0 && !un.stalled && un.wake.is_never() && un.item_start < un.raster_at)
      un.item_start = un.raster_at;  // the rasteriser starts this draw's quads when it is free
    const uint64_t item_cycles = div_up(tw.quads, rate);
    if (un.wave_in_item >= tw.waves) {  // the draw's quads here are all rasterised
      un.raster_at = un.item_start + item_cycles;
      c_.raster_busy += item_cycles;
      c_.quads += tw.quads;
      ++un.item;
      un.wave_in_item = 0;
      un.item_start = un.raster_at;
      continue;
    }
    if (un.launched - un.blended >= p_.waves_in_flight) {  // the queue to the blender is full
      if (!un.stalled) un.stalled = true, un.waiting_since = now;
      return spi_try(now);
    }
    // Wave w of the TileWork is ready once the quads before and in it are rasterised (a share
    // of the TileWork's quads in proportion to its position).
    const Cycle ready = un.item_start + div_up(tw.quads * (un.wave_in_item + 1), uint64_t(tw.waves) * rate);
    if (ready > now) {
      if (un.wake != ready) {
        un.wake = ready;
        engine_.schedule(ready, this, kGfxRasterStep, u);
      }
      return spi_try(now);
    }
    const uint32_t id = tw.first_wave + un.wave_in_item;
    if (id >= draw.pixel_waves.size() || id >= draw.ps.waves)
      throw InputError(fmt::format("frame {}: pixel wave {} of a draw with {} recorded", frame_->frame, id,
                                   draw.pixel_waves.size()));
    un.pixels.push_back(draw.pixel_waves[id].pixels);
    un.retired.push_back(0);
    enqueue(draw.ps, id, LaunchRef{true, d, u, un.launched});
    ++un.launched;
    ++un.wave_in_item;
  }
  spi_try(now);
  if (un.blended == un.total_waves) drain(u, std::max({un.raster_at, un.rop_free, now}));
}

void TbrPipeline::blend_ready(uint32_t u, Cycle now) {
  Unit& un = units_[u];
  // The blender takes waves in launch order: a wave that retired early waits for those before it.
  while (un.blended < un.launched && un.retired[un.blended]) {
    const uint64_t cycles = div_up(un.pixels[un.blended], p_.blend_pixels_per_cycle);
    un.rop_free = std::max(un.rop_free, now) + cycles;
    c_.blend_busy += cycles;
    c_.pixels_blended += un.pixels[un.blended];
    ++un.blended;
  }
  if (un.stalled && un.launched - un.blended < p_.waves_in_flight) {
    un.stalled = false;
    c_.raster_stalled += (now - un.waiting_since).value();
    if (un.item_start < now && un.wave_in_item > 0) {
      // The stall delayed the rest of this draw's quads in the tile.
      un.item_start = un.item_start + (now - un.waiting_since).value();
    }
    raster_step(u, now);
    return;
  }
  if (un.item >= tile_items_[un.tile].size() && un.blended == un.total_waves)
    drain(u, std::max({un.raster_at, un.rop_free, now}));
}

void TbrPipeline::drain(uint32_t u, Cycle when) {
  Unit& un = units_[u];
  if (un.phase != Phase::Raster) return;
  un.phase = Phase::Store;
  engine_.schedule(when, this, kGfxTileDrained, u);
}

// ---- SPI and memory

void TbrPipeline::enqueue(const ShaderWork& s, uint32_t id, LaunchRef ref) {
  WorkgroupLaunch l;
  l.source = this;
  l.executor = s.executor;
  const std::vector<InstInfo>& info = info_of(s.program);
  l.code = WaveCode{info.data(), uint32_t(info.size()), s.program};
  l.needs = needs_of(s);
  l.id = id;
  l.tag = uint32_t(refs_.size());
  refs_.push_back(ref);
  spi_.push_back(l);
}

void TbrPipeline::spi_try(Cycle now) {
  if (spi_.empty() || spi_pending_) return;
  if (now < spi_next_) {
    spi_pending_ = true;
    engine_.schedule(spi_next_, this, kGfxSpiTry);
    return;
  }
  const uint32_t n = uint32_t(cus_.size());
  const WorkgroupLaunch& l = spi_.front();
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t c = (rr_ + i) % n;
    uint64_t& word = room_[c / 64];
    const uint64_t bit = uint64_t{1} << (c % 64);
    if (!(word & bit)) continue;
    if (!cus_[c]->can_accept(l.needs)) {
      word &= ~bit;
      continue;
    }
    cus_[c]->launch_workgroup(now, l);
    ++(refs_[l.tag].pixel ? c_.ps_waves : c_.vs_waves);
    spi_.pop_front();
    rr_ = (c + 1) % n;
    spi_next_ = now + uint64_t(p_.wave_interval);
    if (!spi_.empty()) {
      spi_pending_ = true;
      engine_.schedule(spi_next_, this, kGfxSpiTry);
    }
    return;
  }
  // No CU has room: a retirement wakes the SPI.
}

uint32_t TbrPipeline::send_lines(Cycle now, uint64_t addr, uint64_t bytes, ReqKind kind, uint32_t tag) {
  if (!bytes) return 0;
  const uint64_t first = addr / p_.line_bytes, last = (addr + bytes - 1) / p_.line_bytes;
  for (uint64_t line = first; line <= last; ++line) {
    const uint32_t r = pool_.alloc();
    MemReq& q = pool_[r];
    q.line = line;
    q.reply_to = this;
    q.tag = tag;
    q.kind = kind;
    q.return_latency = uint16_t(p_.noc_latency);
    engine_.schedule(now + uint64_t(p_.noc_latency), l2_[line % l2_.size()], kMemRequest, r);
  }
  return uint32_t(last - first + 1);
}

void TbrPipeline::handle(Cycle now, uint32_t kind, uint32_t arg) {
  if (is_response(kind)) {
    const uint32_t lines = response_lines(kind);
    ++progress_;
    if (arg == kGeometryTag) {
      geometry_lines_ -= lines;
      return check_geometry_done(now);
    }
    if (arg & kStoreTag) {
      const uint32_t u = arg & ~kStoreTag;
      store_lines_[u] -= lines;
      if (!store_lines_[u]) tile_stored(u, now);
      return;
    }
    Unit& un = units_[arg];
    un.pending_lines -= lines;
    if (!un.pending_lines) memory_done(arg, now);
    return;
  }
  switch (kind) {
    case kWorkgroupRetired: {
      ++progress_;
      const LaunchRef ref = refs_[arg];
      if (ref.pixel) {
        units_[ref.unit].retired[ref.seq] = 1;
        blend_ready(ref.unit, now);
      } else if (--vs_left_[ref.draw] == 0) {
        try_setup(now);
      }
      spi_try(now);
      return;
    }
    case kGfxSpiTry:
      spi_pending_ = false;
      return spi_try(now);
    case kGfxSetupDone: return setup_done(now);
    case kGfxRasterStep: {
      Unit& un = units_[arg];
      if (un.wake != now) return;  // superseded
      un.wake = Cycle::never();
      return raster_step(arg, now);
    }
    case kGfxTileDrained:
      ++progress_;
      if (store_lines_[arg]) {  // both tile buffers are full: wait for the previous store
        store_waiting_[arg] = 1;
        units_[arg].waiting_since = now;
        return;
      }
      return begin_store(arg, now);
    default: return;
  }
}

std::string TbrPipeline::describe_state() const {
  if (!frame_ || finished()) return "idle";
  std::string s = fmt::format("pass {} of {}, {} phase; {} waves queued at the SPI", pass_ + 1, frame_->passes.size(),
                              geometry_ ? "geometry" : "tile", spi_.size());
  if (geometry_) {
    s += fmt::format("; setup at draw {} ({}), {} tiler writes outstanding", setup_next_, setup_busy_ ? "busy" : "waiting",
                     geometry_lines_);
  } else {
    s += fmt::format("; tiles {} started, {} done", next_tile_, tiles_done_);
    for (size_t u = 0; u < units_.size(); ++u) {
      const Unit& un = units_[u];
      if (un.phase == Phase::Idle) continue;
      s += fmt::format("; unit {}: tile {} {} launched {}/{} blended {} lines {}{}", u, un.tile,
                       un.phase == Phase::Load ? "load" : un.phase == Phase::Raster ? "raster" : "store", un.launched,
                       un.total_waves, un.blended, un.pending_lines, un.stalled ? " stalled" : "");
    }
  }
  return s;
}

}  // namespace strobe::timing
