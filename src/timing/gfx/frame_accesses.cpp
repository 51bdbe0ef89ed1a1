#include "timing/gfx/frame_accesses.h"

#include <algorithm>
#include <utility>

#include "emu/executor.h"
#include "timing/gfx/tbr_addresses.h"

namespace strobe::timing {

using namespace tbr;

std::vector<FrameWalkStep> frame_walk_steps(const FrameWork& f, uint32_t bin_entry_bytes) {
  std::vector<FrameWalkStep> out;
  uint32_t waves = 0;
  auto wave = [&](const ShaderWork& s, uint64_t k) {
    FrameWalkStep st;
    st.shader = &s;
    st.wave = k;
    st.unit = waves++ % kFixedFunctionUnit;
    out.push_back(st);
  };
  auto lines = [&](uint64_t addr, uint64_t bytes, ReqKind kind) {
    if (bytes) out.push_back(FrameWalkStep{nullptr, 0, kFixedFunctionUnit, addr, bytes, kind});
  };
  const uint64_t pixels = uint64_t(f.tile_size) * f.tile_size;
  for (const PassWork& pass : f.passes) {
    const uint64_t tiles = div_up(pass.width, f.tile_size) * div_up(pass.height, f.tile_size);
    // Each tile's bin list: chunks taken from the pass's heap as the tiler fills them.
    std::vector<std::vector<uint64_t>> chunks(tiles);
    std::vector<uint64_t> fill(tiles, 0);
    uint64_t heap = kBinBase;
    for (const DrawWork& d : pass.draws) {
      for (uint64_t k = 0; k < d.vs.waves; ++k) wave(d.vs, k);
      for (const TileWork& tw : d.tiles) {
        if (tw.tile >= tiles) continue;
        for (uint64_t bytes = uint64_t(tw.bin_entries) * bin_entry_bytes; bytes;) {
          const uint64_t at = fill[tw.tile] % kBinChunkBytes;
          if (at == 0) {
            chunks[tw.tile].push_back(heap);
            heap += kBinChunkBytes;
          }
          const uint64_t n = std::min(bytes, kBinChunkBytes - at);
          lines(chunks[tw.tile].back() + at, n, ReqKind::Write);
          fill[tw.tile] += n;
          bytes -= n;
        }
      }
    }
    // Each tile's work in draw order, as the tile units take it.
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> items(tiles);
    for (uint32_t di = 0; di < pass.draws.size(); ++di)
      for (uint32_t k = 0; k < pass.draws[di].tiles.size(); ++k)
        if (pass.draws[di].tiles[k].tile < tiles) items[pass.draws[di].tiles[k].tile].emplace_back(di, k);
    for (uint64_t t = 0; t < tiles; ++t) {
      const uint64_t color = kColorBase + pass.target * kTargetStride + t * pixels * pass.color_bytes;
      const uint64_t depth = kDepthBase + pass.target * kTargetStride + t * pixels * pass.depth_bytes;
      for (size_t i = 0; i < chunks[t].size(); ++i)
        lines(chunks[t][i], std::min(kBinChunkBytes, fill[t] - i * kBinChunkBytes), ReqKind::Read);
      if (!pass.color_cleared) lines(color, pixels * pass.color_bytes, ReqKind::Read);
      if (!pass.depth_cleared) lines(depth, pixels * pass.depth_bytes, ReqKind::Read);
      for (const auto& [di, k] : items[t]) {
        const DrawWork& d = pass.draws[di];
        const TileWork& tw = d.tiles[k];
        for (uint32_t w = 0; w < tw.waves; ++w) wave(d.ps, tw.first_wave + w);
      }
      lines(color, pixels * pass.color_bytes, ReqKind::Write);
      lines(depth, pixels * pass.depth_bytes, ReqKind::Write);
    }
  }
  return out;
}

FrameWalk walk_frame_steps(std::span<const FrameWalkStep> steps, uint32_t line_bytes,
                           const std::function<void(const WarmAccess&)>& emit) {
  const AccessWalker walker(line_bytes);
  const uint32_t bits = walker.line_bits();
  FrameWalk out;
  emu::WorkGroup wg;
  emu::MemAccessInfo mi;
  emu::DispatchStats stats;
  for (const FrameWalkStep& s : steps) {
    if (s.shader) {
      s.shader->executor->init_workgroup(wg, s.wave, 0);
      walker.walk_workgroup(s.unit, *s.shader->executor, wg, stats, mi, emit);
      ++out.waves;
      continue;
    }
    for (uint64_t line = s.addr >> bits, last = (s.addr + s.bytes - 1) >> bits; line <= last; ++line)
      emit(WarmAccess{line, kFixedFunctionUnit, WarmAccess::L2, s.kind, 0});
  }
  out.wave_instructions = stats.wave_instructions;
  return out;
}

FrameWalk walk_frame_accesses(const FrameWork& f, uint32_t line_bytes, uint32_t bin_entry_bytes,
                              const std::function<void(const WarmAccess&)>& emit) {
  return walk_frame_steps(frame_walk_steps(f, bin_entry_bytes), line_bytes, emit);
}

bool is_depth_tile_granule(uint64_t g, uint32_t granule_bytes) {
  const uint64_t a = g * granule_bytes;
  return a >= kDepthBase && a < kBinBase;
}

}  // namespace strobe::timing
