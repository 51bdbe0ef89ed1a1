#include "timing/gfx/frame_accesses.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "emu/executor.h"
#include "timing/gfx/tbr_addresses.h"

namespace strobe::timing {

using namespace tbr;

namespace {

/// The lines of [addr, addr + bytes) as fixed-function accesses.
void tile_lines(uint64_t addr, uint64_t bytes, uint32_t bits, ReqKind kind, uint32_t step,
                const std::function<void(const WarmAccess&)>& emit) {
  if (bytes == 0) return;
  for (uint64_t line = addr >> bits, last = (addr + bytes - 1) >> bits; line <= last; ++line)
    emit(WarmAccess{line, kFixedFunctionUnit, WarmAccess::L2, kind, step});
}

}  // namespace

FrameWalk walk_frame_accesses(const FrameWork& f, uint32_t line_bytes, uint32_t bin_entry_bytes,
                              const std::function<void(const WarmAccess&)>& emit) {
  const AccessWalker walker(line_bytes);
  const uint32_t bits = walker.line_bits();
  FrameWalk out;
  emu::WorkGroup wg;
  emu::MemAccessInfo mi;
  emu::DispatchStats stats;
  auto run_wave = [&](const ShaderWork& s, uint64_t k) {
    s.executor->init_workgroup(wg, k, 0);
    walker.walk_workgroup(uint32_t(out.waves++ % kFixedFunctionUnit), *s.executor, wg, stats, mi, emit);
  };
  const uint64_t pixels = uint64_t(f.tile_size) * f.tile_size;
  for (const PassWork& pass : f.passes) {
    const uint64_t tiles = div_up(pass.width, f.tile_size) * div_up(pass.height, f.tile_size);
    // Each tile's bin list: chunks taken from the pass's heap as the tiler fills them.
    std::vector<std::vector<uint64_t>> chunks(tiles);
    std::vector<uint64_t> fill(tiles, 0);
    uint64_t heap = kBinBase;
    for (const DrawWork& d : pass.draws) {
      for (uint64_t k = 0; k < d.vs.waves; ++k) run_wave(d.vs, k);
      const uint32_t step = uint32_t(stats.wave_instructions);
      for (const TileWork& tw : d.tiles) {
        if (tw.tile >= tiles) continue;
        for (uint64_t bytes = uint64_t(tw.bin_entries) * bin_entry_bytes; bytes;) {
          const uint64_t at = fill[tw.tile] % kBinChunkBytes;
          if (at == 0) {
            chunks[tw.tile].push_back(heap);
            heap += kBinChunkBytes;
          }
          const uint64_t n = std::min(bytes, kBinChunkBytes - at);
          tile_lines(chunks[tw.tile].back() + at, n, bits, ReqKind::Write, step, emit);
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
      const uint32_t step = uint32_t(stats.wave_instructions);
      for (size_t i = 0; i < chunks[t].size(); ++i)
        tile_lines(chunks[t][i], std::min(kBinChunkBytes, fill[t] - i * kBinChunkBytes), bits, ReqKind::Read, step, emit);
      if (!pass.color_cleared) tile_lines(color, pixels * pass.color_bytes, bits, ReqKind::Read, step, emit);
      if (!pass.depth_cleared) tile_lines(depth, pixels * pass.depth_bytes, bits, ReqKind::Read, step, emit);
      for (const auto& [di, k] : items[t]) {
        const DrawWork& d = pass.draws[di];
        const TileWork& tw = d.tiles[k];
        for (uint32_t w = 0; w < tw.waves; ++w) run_wave(d.ps, tw.first_wave + w);
      }
      const uint32_t end = uint32_t(stats.wave_instructions);
      tile_lines(color, pixels * pass.color_bytes, bits, ReqKind::Write, end, emit);
      tile_lines(depth, pixels * pass.depth_bytes, bits, ReqKind::Write, end, emit);
    }
  }
  out.wave_instructions = stats.wave_instructions;
  return out;
}

bool is_depth_tile_granule(uint64_t g, uint32_t granule_bytes) {
  const uint64_t a = g * granule_bytes;
  return a >= kDepthBase && a < kBinBase;
}

}  // namespace strobe::timing
