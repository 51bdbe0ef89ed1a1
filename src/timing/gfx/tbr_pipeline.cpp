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
  p.store_depth = choice<Switch>(c, "gfx.store_depth") == Switch::On;
  p.hiz = choice<Switch>(c, "gfx.hiz") == Switch::On;
  p.line_bytes = uint32_t(c.line_bytes);
  p.noc_latency = uint32_t(c.noc_latency);
  p.noc_bytes_per_cycle = uint32_t(c.noc_bytes_per_cycle);
  p.wave_interval = uint32_t(c.wg_dispatch_cycles);
  return p;
}

TbrPipeline::TbrPipeline(Engine& engine, RequestPool& pool, StatsRegistry& stats, std::vector<ComputeUnit*> cus,
                         std::vector<Component*> l2_banks, const GraphicsParams& p, const CuParams& cu)
    : WaveSource("gfx"),
      engine_(engine),
      p_(p),
      cu_(cu),
      port_(engine, pool, std::move(l2_banks), *this, p.line_bytes, p.noc_latency),
      bins_(port_),
      spi_(engine, *this, std::move(cus), cu, p.wave_interval, c_),
      geometry_stage_(engine, *this, p_, c_, bins_, progress_),
      tiles_(engine, *this, p_, c_, spi_, bins_, port_, progress_) {
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
        const WorkgroupNeeds n = spi_.needs_of(*s);
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
  ++c_.frames;
  spi_.begin_frame(start);
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
  spi_.begin_pass();
  geometry_ = true;
  phase_start_ = now;
  const uint32_t t = frame_->tile_size;
  pass_tiles_ = size_t(div_up(pass.width, t)) * div_up(pass.height, t);
  bins_.reset(pass_tiles_);
  geometry_stage_.begin(pass, spi_);
  spi_.try_launch(now);
  geometry_stage_.try_setup(now);
  check_geometry_done(now);
}

void TbrPipeline::end_phase(Cycle now) {
  phase_ends_.push_back(now.value());
  (geometry_ ? c_.geometry_cycles : c_.tile_cycles) += (now - phase_start_).value();
  phase_start_ = now;
}

void TbrPipeline::check_geometry_done(Cycle now) {
  if (!geometry_ || !geometry_stage_.done()) return;
  end_phase(now);
  geometry_ = false;
  start_tiles(now);
}

void TbrPipeline::start_tiles(Cycle now) {
  if (!tiles_.start(frame_->passes[pass_], frame_->tile_size, pass_tiles_, now)) end_pass(now);
}

void TbrPipeline::end_pass(Cycle now) {
  end_phase(now);
  if (++pass_ < frame_->passes.size()) return begin_pass(now);
  finish_ = now;
  engine_.stop();
}

void TbrPipeline::handle(Cycle at, uint32_t kind, uint32_t arg) {
  const Cycle now = max(at, floor_);
  if (is_response(kind)) {
    const uint32_t lines = response_lines(kind);
    ++progress_;
    if (arg != kGeometryTag) {
      if (tiles_.response(arg, lines, now)) end_pass(now);
      return;
    }
    geometry_stage_.answered(lines);
    return check_geometry_done(now);
  }
  switch (kind) {
    case kWorkgroupRetired: {
      ++progress_;
      const LaunchRef ref = spi_.ref(arg);
      if (ref.pixel) tiles_.retired(ref.unit, ref.seq, now);
      else geometry_stage_.vs_retired(ref.draw, now);
      spi_.try_launch(now);
      return;
    }
    case kGfxSpiTry: return spi_.woke(now);
    case kGfxSetupDone:
      geometry_stage_.setup_done(now);
      return check_geometry_done(now);
    case kGfxRasterStep: return tiles_.raster_wake(arg, now);
    case kGfxTileDrained:
      if (tiles_.drained(arg, now)) end_pass(now);
      return;
    default: unhandled(kind);
  }
}

std::string TbrPipeline::describe_state() const {
  if (!frame_ || finished()) return "idle";
  return fmt::format("pass {} of {}, {} phase; {} waves queued at the SPI; {}", pass_ + 1, frame_->passes.size(),
                     geometry_ ? "geometry" : "tile", spi_.queued(),
                     geometry_ ? geometry_stage_.describe() : tiles_.describe());
}

}  // namespace strobe::timing
