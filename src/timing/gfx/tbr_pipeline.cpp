#include "timing/gfx/tbr_pipeline.h"

#include <algorithm>

#include <fmt/format.h>

#include "common/error.h"
#include "emu/executor.h"
#include "timing/config/gpu_config.h"
#include "timing/engine/events.h"
#include "timing/gfx/tbr_addresses.h"

namespace strobe::timing {

using namespace tbr;

namespace {

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
  p.fetch_ahead = uint32_t(c.gfx_fetch_ahead);
  p.store_depth = c.gfx_store_depth == "on";
  p.hiz = c.gfx_hiz == "on";
  p.invalidate_caches = c.gfx_frame_caches == "invalidate";
  p.line_bytes = uint32_t(c.line_bytes);
  p.noc_latency = uint32_t(c.noc_latency);
  p.noc_bytes_per_cycle = uint32_t(c.noc_bytes_per_cycle);
  p.wave_interval = uint32_t(c.wg_dispatch_cycles);
  return p;
}

TbrPipeline::TbrPipeline(Engine& engine, RequestPool& pool, StatsRegistry& stats, std::vector<ComputeUnit*> cus,
                         std::vector<Component*> l2_banks, const GraphicsParams& p, const CuParams& cu)
    : WaveSource("gfx"), engine_(engine), pool_(pool), cus_(std::move(cus)), l2_(std::move(l2_banks)), p_(p), cu_(cu) {
  room_.assign((cus_.size() + 63) / 64, 0);
  units_.resize(p_.tile_units);
  const std::pair<const char*, const uint64_t*> named[] = {
      {"frames", &c_.frames}, {"passes", &c_.passes}, {"tiles", &c_.tiles}, {"vs_waves", &c_.vs_waves},
      {"ps_waves", &c_.ps_waves}, {"primitives", &c_.primitives}, {"bin_entries", &c_.bin_entries},
      {"quads", &c_.quads}, {"hiz_quads", &c_.hiz_quads}, {"pixels_blended", &c_.pixels_blended}, {"bin_bytes_written", &c_.bin_bytes_written},
      {"bin_bytes_read", &c_.bin_bytes_read}, {"tile_bytes_loaded", &c_.tile_bytes_loaded},
      {"tile_bytes_stored", &c_.tile_bytes_stored}, {"tile_buffer_accesses", &c_.tile_buffer_accesses}, {"geometry_cycles", &c_.geometry_cycles},
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

void TbrPipeline::check(const FrameWork& f) const {
  if (f.tile_size != p_.tile_size)
    throw InputError(fmt::format("frame {}: recorded with {}-pixel tiles, but gfx.tile_size is {}", f.frame, f.tile_size,
                                 p_.tile_size));
  for (const PassWork& pass : f.passes) {
    const uint64_t tiles = div_up(pass.width, f.tile_size) * div_up(pass.height, f.tile_size);
    for (const DrawWork& d : pass.draws) {
      // Every shader must fit on a CU, or its waves would wait forever.
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
      for (const TileWork& tw : d.tiles) {
        if (tw.tile >= tiles)
          throw InputError(fmt::format("frame {}: tile {} lies outside the pass's {} tiles", f.frame, tw.tile, tiles));
        if (uint64_t(tw.first_wave) + tw.waves > std::min<uint64_t>(d.pixel_waves.size(), d.ps.waves))
          throw InputError(fmt::format("frame {}: tile {} names pixel waves {}-{} of a draw with {} recorded", f.frame,
                                       tw.tile, tw.first_wave, uint64_t(tw.first_wave) + tw.waves,
                                       d.pixel_waves.size()));
      }
    }
  }
}

void TbrPipeline::begin(Cycle start, const FrameWork& f) {
  check(f);
  frame_ = &f;
  info_.clear();
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
  list_chunks_.assign(list_fill_.size(), {});
  heap_next_ = kBinBase;
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
    const uint64_t bytes = uint64_t(tw.bin_entries) * p_.bin_entry_bytes;
    if (!bytes) continue;
    geometry_lines_ += bin_list_access(tw.tile, bytes, ReqKind::Write, kGeometryTag, now);
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

uint32_t TbrPipeline::bin_list_access(uint32_t t, uint64_t bytes, ReqKind kind, uint32_t tag, Cycle now) {
  std::vector<uint64_t>& chunks = list_chunks_[t];
  uint32_t lines = 0;
  if (kind == ReqKind::Read) {
    for (size_t i = 0; i < chunks.size(); ++i)
      lines += send_lines(now, chunks[i], std::min(kBinChunkBytes, list_fill_[t] - i * kBinChunkBytes), kind, tag);
    return lines;
  }
  while (bytes) {
    const uint64_t at = list_fill_[t] % kBinChunkBytes;
    if (at == 0) {
      chunks.push_back(heap_next_);
      heap_next_ += kBinChunkBytes;
    }
    const uint64_t n = std::min(bytes, kBinChunkBytes - at);
    lines += send_lines(now, chunks.back() + at, n, kind, tag);
    list_fill_[t] += n;
    bytes -= n;
  }
  return lines;
}

uint32_t TbrPipeline::send_lines(Cycle now, uint64_t addr, uint64_t bytes, ReqKind kind, uint32_t tag) {
  if (!bytes) return 0;
  const uint64_t first = addr / p_.line_bytes, last = (addr + bytes - 1) / p_.line_bytes;
  for (uint64_t line = first; line <= last; ++line) {
    const uint32_t r = pool_.make(line, kind, this, tag);
    pool_[r].return_latency = uint16_t(p_.noc_latency);
    engine_.schedule(now + uint64_t(p_.noc_latency), l2_[line % l2_.size()], kMemRequest, r);
  }
  return uint32_t(last - first + 1);
}

void TbrPipeline::handle(Cycle now, uint32_t kind, uint32_t arg) {
  if (is_response(kind)) {
    const uint32_t lines = response_lines(kind);
    ++progress_;
    if (arg != kGeometryTag) return response(arg, lines, now);
    geometry_lines_ -= lines;
    return check_geometry_done(now);
  }
  switch (kind) {
    case kWorkgroupRetired: {
      ++progress_;
      const LaunchRef ref = refs_[arg];
      if (ref.pixel) {
        Unit& un = units_[ref.unit];
        un.blend[ref.seq - un.blend_base].retired = true;
        blend(ref.unit, now);
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
      if (un.wake != now || !un.rastering) return;  // superseded
      un.wake = Cycle::never();
      return raster_step(arg, now);
    }
    case kGfxTileDrained: return try_store(arg, now);
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
    s += fmt::format("; tiles {} started, {} stored, {} store writes unacknowledged", next_tile_, tiles_done_,
                     store_lines_);
    for (size_t u = 0; u < units_.size(); ++u) {
      const Unit& un = units_[u];
      if (un.fetch.empty() && un.blend.empty() && un.drained.empty()) continue;
      s += fmt::format("; unit {}: {} tiles fetched{}, {} waves to blend, {} tiles to store{}", u, un.fetch.size(),
                       un.rastering ? " (rasterising the first)" : "", un.waves_queued, un.drained.size(),
                       un.stalled ? ", stalled" : "");
    }
  }
  return s;
}

}  // namespace strobe::timing
