// The tile-based pipeline's stages against their configured rates: constructed frames make each
// stage the bottleneck in turn (blending, primitive setup, binning, rasterisation, shading) and
// must take the time that stage's rate gives, within the overhead each test states. Shader waves
// here run a few instructions of real GCN3 code on the CUs.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "common/error.h"
#include "emu/executor.h"
#include "emu/memory.h"
#include "isa/program.h"
#include "timing/config/gpu_config.h"
#include "timing/gfx/frame_work.h"
#include "timing/gpu/gpu.h"
#include "gfx_test_shaders.h"
#include "timing_harness.h"

namespace strobe::timing {
namespace {

using test::shader;
using test::UniformStage;

/// Constructed frames: one pass over a w x h target, one draw.
struct FrameBuilder {
  emu::GlobalMemory mem;
  isa::Program vs_code, ps_code;
  std::unique_ptr<UniformStage> vs, ps;
  FrameWork frame;

  explicit FrameBuilder(uint32_t ps_valu = 1, uint32_t vs_valu = 1) : vs_code(shader(vs_valu)), ps_code(shader(ps_valu)) {
    vs = std::make_unique<UniformStage>(vs_code, mem);
    ps = std::make_unique<UniformStage>(ps_code, mem);
  }
  /// A 16-pixel-tile pass of `w` x `h` with one draw of `primitives` and one vertex wave.
  DrawWork& pass(uint32_t w, uint32_t h, uint64_t primitives, bool cleared = true) {
    PassWork p;
    p.width = w, p.height = h, p.color_bytes = 4, p.depth_bytes = 4;
    p.color_cleared = p.depth_cleared = cleared;
    DrawWork d;
    d.vs = {vs.get(), &vs_code, 4, 16, 1};
    d.ps = {ps.get(), &ps_code, 4, 16, 0};
    d.primitives = primitives;
    p.draws.push_back(std::move(d));
    frame.passes.push_back(std::move(p));
    return frame.passes.back().draws.back();
  }
  /// Gives every tile of the pass `waves` pixel waves of `quads` quads and `pixels` pixels each,
  /// `extra_quads` more quads early Z removed, and `bins` bin entries.
  void fill_tiles(DrawWork& d, uint32_t tiles, uint32_t waves, uint16_t quads, uint16_t pixels, uint32_t extra_quads,
                  uint32_t bins) {
    for (uint32_t t = 0; t < tiles; ++t) {
      TileWork tw;
      tw.tile = t, tw.bin_entries = bins, tw.quads = waves * quads + extra_quads;
      tw.first_wave = uint32_t(d.pixel_waves.size()), tw.waves = waves;
      for (uint32_t k = 0; k < waves; ++k) d.pixel_waves.push_back({quads, pixels});
      d.tiles.push_back(tw);
    }
    d.ps.waves = uint32_t(d.pixel_waves.size());
  }
};

FrameTiming time_frame(const FrameWork& f, std::initializer_list<const char*> sets) {
  GpuConfig cfg = test::r9nano(sets);
  Gpu gpu(cfg);
  return gpu.run_frame(f);
}

TEST(TbrPipeline, AFillRateBoundFrameRunsAtTheBlendRate) {
  // 256 tiles, each 4 full waves of 64 pixels: 256 pixels a tile at 1 pixel per cycle per unit.
  FrameBuilder b;
  b.fill_tiles(b.pass(256, 256, 2), 256, 4, 16, 64, 0, 1);
  const std::initializer_list<const char*> base = {"gfx.tile_units=4", "gfx.blend_pixels_per_cycle=1",
                                                   "gfx.raster_quads_per_cycle=16"};
  const FrameTiming t = time_frame(b.frame, base);
  EXPECT_EQ(t.stats.get("gfx.blend_busy"), 256u * 256u);
  EXPECT_EQ(t.stats.get("gfx.pixels_blended"), 256u * 256u);
  EXPECT_EQ(t.stats.get("gfx.tile_buffer_accesses"), 2u * 256u * 256u) << "a depth and a colour access a pixel";
  const uint64_t per_unit = 256 * 256 / 4;  // 64 tiles of 256 cycles each
  const uint64_t tiles = t.stats.get("gfx.tile_cycles");
  EXPECT_GE(tiles, per_unit);
  EXPECT_LE(tiles, per_unit * 115 / 100) << "a blend-bound tile phase hides its loads, stores and shading";
  // Twice the blend rate: close to half the tile phase.
  const FrameTiming fast = time_frame(b.frame, {"gfx.tile_units=4", "gfx.blend_pixels_per_cycle=2",
                                                "gfx.raster_quads_per_cycle=16"});
  EXPECT_NEAR(double(fast.stats.get("gfx.tile_cycles")), double(per_unit) / 2, double(per_unit) * 0.1);
}

TEST(TbrPipeline, PrimitiveSetupBoundsAGeometryHeavyFrame) {
  FrameBuilder b;
  b.pass(64, 64, 100000);  // nothing visible: every primitive culled
  const FrameTiming t = time_frame(b.frame, {"gfx.prims_per_cycle=4"});
  EXPECT_EQ(t.stats.get("gfx.setup_busy"), 25000u);
  const uint64_t geometry = t.stats.get("gfx.geometry_cycles");
  EXPECT_GE(geometry, 25000u);
  EXPECT_LE(geometry, 25000u + 2000u) << "one vertex wave and the launch add little";
  EXPECT_EQ(t.stats.get("gfx.bin_bytes_written"), 0u);
}

TEST(TbrPipeline, VertexShadingBoundsAFrameOfLongVertexShaders) {
  // One CU, 1024 vertex waves of 200 VALU instructions, few primitives: about 200 cycles a wave.
  FrameBuilder b(1, 200);
  b.pass(64, 64, 1000).vs.waves = 1024;
  const FrameTiming t = time_frame(b.frame, {"gpu.num_cus=1", "gpu.cus_per_shader_array=1"});
  const double expected = 1024.0 * 200.0;
  EXPECT_GE(double(t.stats.get("gfx.geometry_cycles")), expected);
  EXPECT_LE(double(t.stats.get("gfx.geometry_cycles")), expected * 1.15);
  EXPECT_EQ(t.stats.get("gfx.vs_waves"), 1024u);
}

TEST(TbrPipeline, TheTilerBoundsAFrameOfManyBinEntries) {
  // 1000 primitives over 256 tiles, 100 entries in each: 25,600 entries at 1 per cycle.
  FrameBuilder b;
  b.fill_tiles(b.pass(256, 256, 1000), 256, 0, 0, 0, 0, 100);
  const FrameTiming t = time_frame(b.frame, {"gfx.bins_per_cycle=1", "gfx.bin_entry_bytes=8"});
  EXPECT_EQ(t.stats.get("gfx.setup_busy"), 25600u);
  EXPECT_EQ(t.stats.get("gfx.bin_bytes_written"), 25600u * 8);
  EXPECT_EQ(t.stats.get("gfx.bin_bytes_read"), 25600u * 8) << "each tile reads back its own list";
  EXPECT_GE(t.stats.get("gfx.geometry_cycles"), 25600u);
  EXPECT_LE(t.stats.get("gfx.geometry_cycles"), 25600u + 2000u);
}

TEST(TbrPipeline, RasterisationBoundsQuadsThatEarlyZRemoves) {
  // 1024 quads per tile, none surviving early Z: 1 quad per cycle per unit, 4 units.
  FrameBuilder b;
  b.fill_tiles(b.pass(256, 256, 2), 256, 0, 0, 0, 1024, 1);
  const FrameTiming t = time_frame(b.frame, {"gfx.tile_units=4", "gfx.raster_quads_per_cycle=1"});
  EXPECT_EQ(t.stats.get("gfx.raster_busy"), 256u * 1024u);
  EXPECT_EQ(t.stats.get("gfx.ps_waves"), 0u);
  const uint64_t per_unit = 64u * 1024u;
  EXPECT_GE(t.stats.get("gfx.tile_cycles"), per_unit);
  EXPECT_LE(t.stats.get("gfx.tile_cycles"), per_unit * 110 / 100);
}

TEST(TbrPipeline, ShadingBoundsAFrameOfLongPixelShaders) {
  // One CU, 1024 waves of 200 VALU instructions: each SIMD issues one VALU per 4 cycles, and the
  // four SIMDs share the waves, so about 200 cycles a wave.
  FrameBuilder b(200);
  b.fill_tiles(b.pass(256, 256, 2), 256, 4, 16, 64, 0, 1);
  const FrameTiming t = time_frame(b.frame, {"gpu.num_cus=1", "gpu.cus_per_shader_array=1"});
  const double expected = 1024.0 * 200.0;
  EXPECT_GE(double(t.stats.get("gfx.tile_cycles")), expected);
  EXPECT_LE(double(t.stats.get("gfx.tile_cycles")), expected * 1.15);
  EXPECT_EQ(t.wave_instructions, 1024u * 201u + 1u * 2u);
}

TEST(TbrPipeline, AFullWaveQueueStallsTheRasteriser) {
  FrameBuilder b(100);
  b.fill_tiles(b.pass(64, 64, 2), 16, 8, 8, 32, 0, 1);
  const FrameTiming deep = time_frame(b.frame, {"gfx.pixel_waves_in_flight=64"});
  const FrameTiming shallow = time_frame(b.frame, {"gfx.pixel_waves_in_flight=1"});
  EXPECT_EQ(deep.stats.get("gfx.raster_stalled"), 0u);
  EXPECT_GT(shallow.stats.get("gfx.raster_stalled"), 0u);
  EXPECT_GT(shallow.cycles, deep.cycles) << "one wave at a time per tile serialises shading";
}

TEST(TbrPipeline, TilesLoadUnlessThePassClearedThemAndStoreDepthOnlyWhenAsked) {
  FrameBuilder cleared, loaded;
  cleared.fill_tiles(cleared.pass(64, 32, 2, true), 8, 1, 16, 64, 0, 1);
  loaded.fill_tiles(loaded.pass(64, 32, 2, false), 8, 1, 16, 64, 0, 1);
  const FrameTiming c = time_frame(cleared.frame, {});
  const FrameTiming l = time_frame(loaded.frame, {});
  EXPECT_EQ(c.stats.get("gfx.tile_bytes_loaded"), 0u);
  EXPECT_EQ(l.stats.get("gfx.tile_bytes_loaded"), 8u * 256u * (4 + 4));
  EXPECT_EQ(c.stats.get("gfx.tile_bytes_stored"), 8u * 256u * 4);
  const FrameTiming d = time_frame(cleared.frame, {"gfx.store_depth=on"});
  EXPECT_EQ(d.stats.get("gfx.tile_bytes_stored"), 8u * 256u * (4 + 4));
  EXPECT_EQ(c.stats.get("gfx.tiles"), 8u);
}

TEST(TbrPipeline, CachesCarryOverFramesUnlessInvalidated) {
  FrameBuilder b;
  b.fill_tiles(b.pass(128, 128, 2, false), 64, 1, 16, 64, 0, 4);
  for (const char* policy : {"keep", "invalidate"}) {
    GpuConfig cfg = test::r9nano({});
    apply_override(cfg, std::string("gfx.frame_caches=") + policy);
    Gpu gpu(cfg);
    const FrameTiming first = gpu.run_frame(b.frame);
    const FrameTiming second = gpu.run_frame(b.frame);
    const uint64_t hits1 = first.stats.sum("l2.", ".read_hits"), hits2 = second.stats.sum("l2.", ".read_hits");
    if (std::string(policy) == "keep") {
      EXPECT_GT(hits2, hits1) << "the second frame finds the first one's tiles in L2";
      EXPECT_LT(second.stats.get("dram.reads"), first.stats.get("dram.reads"));
    } else {
      EXPECT_EQ(hits2, hits1) << "an emptied L2 misses as often as on the first frame";
      EXPECT_EQ(second.stats.get("dram.reads"), first.stats.get("dram.reads"));
    }
  }
}

TEST(TbrPipeline, AFrameItCannotTimeIsRefusedBeforeItRuns) {
  FrameBuilder other_tiles;
  other_tiles.pass(64, 64, 2);
  other_tiles.frame.tile_size = 32;
  EXPECT_THROW(time_frame(other_tiles.frame, {}), InputError);
  FrameBuilder outside;  // a 64x64 pass has 16 tiles
  outside.fill_tiles(outside.pass(64, 64, 2), 17, 1, 16, 64, 0, 1);
  EXPECT_THROW(time_frame(outside.frame, {}), InputError);
  FrameBuilder unrecorded;
  DrawWork& d = unrecorded.pass(64, 64, 2);
  unrecorded.fill_tiles(d, 4, 2, 16, 64, 0, 1);
  d.tiles.back().waves = 3;  // one more wave than the draw recorded
  EXPECT_THROW(time_frame(unrecorded.frame, {}), InputError);
}

}  // namespace
}  // namespace strobe::timing

namespace strobe::timing {
namespace {

TEST(TbrPipeline, AFrameWithoutProgressForTheWatchdogsWindowFaultsAndTheGpuStartsAfresh) {
  // Primitive setup of 4 million primitives takes a million cycles with nothing retiring or
  // answering in between: with a 1,000-cycle watchdog the one run loop calls that a hang, names
  // the frame and dumps the pipeline's state; the GPU is then a fresh one that times frames.
  FrameBuilder b;
  b.pass(16, 16, 4'000'000);
  Gpu gpu(test::r9nano({"sim.watchdog_cycles=1000"}));
  try {
    gpu.run_frame(b.frame);
    FAIL() << "the hang went unnoticed";
  } catch (const FaultError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("frame 0: no progress for 1000 cycles"), std::string::npos) << what;
    EXPECT_NE(what.find("setup at draw 0 (busy)"), std::string::npos) << what;
  }
  FrameBuilder small;
  small.pass(16, 16, 4);
  EXPECT_GT(gpu.run_frame(small.frame).cycles, 0u);
}

}  // namespace
}  // namespace strobe::timing
