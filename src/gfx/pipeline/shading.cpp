// A draw's shader waves, counted and on host threads (see shading.h).
#include "gfx/pipeline/shading.h"

#include <bit>
#include <exception>

#include "emu/memory.h"
#include "emu/workgroup_threads.h"

namespace strobe::gfx {

namespace {

/// Shades `pw` on `slot` and keeps what late Z, blending and the counts need.
void shade(PixelWave& pw, const PixelShader& ps, emu::GlobalMemory& mem, ShadingSlot& slot) {
  const size_t lanes = size_t(pw.quads) * 4;
  init_pixel_wave(slot.wave, *ps.shader, ps.bindings, std::span(pw.lanes.data(), lanes), pw.live);
  emu::GraphicsIo& io = slot.io;
  io.clear_exports();
  io.param_slots = ps.param_slots;
  for (size_t l = 0; l < lanes; ++l) io.lane_params[l] = pw.params[l];
  pw.counts = run_counted_wave(*ps.program, slot, mem, ps.name);
  pw.done = io.done_lanes;
  pw.color_channels = io.written[emu::kExpMrt0];
  pw.exported_z = io.written[emu::kExpMrtZ] & 1;
  for (uint64_t m = pw.done & pw.live; m; m &= m - 1) {
    const int l = std::countr_zero(m);
    for (int c = 0; c < 4; ++c) pw.color[size_t(c)][size_t(l)] = std::bit_cast<float>(io.lanes(emu::kExpMrt0, c)[l]);
    pw.z[size_t(l)] = std::bit_cast<float>(io.lanes(emu::kExpMrtZ, 0)[l]);
  }
}

}  // namespace

void WaveCounts::add_to(ShaderCounts& s, FrameStats& frame) const {
  s += shader;
  for (size_t f = 0; f < sample_lanes.size(); ++f)
    frame.sample_lanes[f] += sample_lanes[f], frame.texel_fetches[f] += texel_fetches[f];
}

WaveCounts run_counted_wave(const isa::Program& program, ShadingSlot& slot, emu::GlobalMemory& mem, const char* name) {
  // The slot's counters only ever grow; the wave's counts are their differences.
  emu::GraphicsIo& io = slot.io;
  const uint64_t insts0 = io.sample_instructions;
  const auto lanes0 = io.sample_lanes, fetches0 = io.texel_fetches;
  const emu::DispatchStats ds = emu::run_graphics_wave(program, slot.wave, io, mem, name);
  WaveCounts c;
  c.shader.waves = 1;
  c.shader.wave_instructions = ds.wave_instructions;
  c.shader.sample_instructions = io.sample_instructions - insts0;
  for (size_t f = 0; f < c.sample_lanes.size(); ++f) {
    c.sample_lanes[f] = io.sample_lanes[f] - lanes0[f], c.texel_fetches[f] = io.texel_fetches[f] - fetches0[f];
    c.shader.sample_lanes += c.sample_lanes[f], c.shader.texel_fetches += c.texel_fetches[f];
  }
  return c;
}

void shade_pixel_waves(std::span<PixelWave> waves, const PixelShader& ps, emu::GlobalMemory& mem,
                       emu::HostThreads* threads, std::vector<ShadingSlot>& slots) {
  const uint32_t n = threads ? threads->threads() : 1;
  if (slots.size() < n) slots.resize(n);
  if (n == 1 || waves.size() < 2 || !mem.concurrent_kernels_allowed()) {
    for (PixelWave& pw : waves) shade(pw, ps, mem, slots[0]);
    return;
  }
  const emu::ConcurrentScope concurrent(mem);  // shared memory state is read-only meanwhile
  std::exception_ptr fault;
  threads->run(waves.size(), [&](uint64_t k, uint32_t slot) { shade(waves[k], ps, mem, slots[slot]); }, &fault);
  if (fault) std::rethrow_exception(fault);
}

}  // namespace strobe::gfx
