// The tile units as a part of their own, with the shader waves' retirements given by hand: a
// tile's quads are rasterised at the configured rate and its pixel waves handed to the SPI as
// they become ready; the blender takes waves in launch order, however they retire; a tile is
// stored once its last wave is blended, one tile at a time per unit; a full queue to the blender
// stalls the rasteriser; and the pass ends only when every store is acknowledged.
#include <gtest/gtest.h>

#include <vector>

#include "timing/engine/events.h"
#include "timing/gfx/bin_lists.h"
#include "timing/gfx/line_port.h"
#include "timing/gfx/spi.h"
#include "timing/gfx/tbr_addresses.h"
#include "timing/gfx/tile_units.h"
#include "gfx_test_shaders.h"

namespace strobe::timing {
namespace {

/// An L2 bank that counts the lines sent to it and never answers: the test acknowledges stores.
struct Bank : Component {
  Bank() : Component("l2") {}
  uint32_t lines = 0;
  void handle(Cycle, uint32_t kind, uint32_t) override { lines += kind == kMemRequest; }
};

/// The pipeline's stand-in: hands the tile units their wake-ups, and records when tiles drain
/// and whether the pass is over.
struct Owner : WaveSource {
  Owner() : WaveSource("gfx") {}
  TileUnits* tiles = nullptr;
  std::vector<uint64_t> drained;  ///< cycles of kGfxTileDrained
  bool done = false;
  void mark_room(uint32_t) override {}
  void handle(Cycle now, uint32_t kind, uint32_t arg) override {
    if (kind == kGfxRasterStep) return tiles->raster_wake(arg, now);
    if (kind != kGfxTileDrained) return unhandled(kind);
    drained.push_back(now.value());
    done = tiles->drained(arg, now) || done;
  }
};

/// One tile unit over a cleared 16x16 colour target (one tile, no loads), an SPI with no CUs (its
/// waves wait in its queue; the test retires them), and a bank for the stores.
struct Rig {
  Engine engine;
  RequestPool pool;
  Owner owner;
  Bank bank;
  GraphicsParams p;
  GraphicsCounters c;
  uint64_t progress = 0;
  std::unique_ptr<LinePort> port;
  std::unique_ptr<BinLists> bins;
  std::unique_ptr<Spi> spi;
  std::unique_ptr<TileUnits> tiles;
  isa::Program code = test::shader(1);  ///< the pixel shader the SPI is handed (never run here)
  PassWork pass;

  /// A pass of one draw whose tile has `waves` pixel waves of 4 quads and 16 pixels each.
  explicit Rig(uint32_t waves, uint32_t in_flight = 32) {
    p.tile_units = 1;
    p.waves_in_flight = in_flight;
    port = std::make_unique<LinePort>(engine, pool, std::vector<Component*>{&bank}, owner, p.line_bytes, p.noc_latency);
    bins = std::make_unique<BinLists>(*port);
    bins->reset(1);
    spi = std::make_unique<Spi>(engine, owner, std::vector<ComputeUnit*>{}, CuParams{}, p.wave_interval, c);
    tiles = std::make_unique<TileUnits>(engine, owner, p, c, *spi, *bins, *port, progress);
    owner.tiles = tiles.get();
    pass.width = pass.height = 16;
    pass.color_bytes = 4;
    pass.color_cleared = true;
    DrawWork d;
    d.tiles = {TileWork{0, 0, 4 * waves, 0, 0, waves}};
    d.pixel_waves.assign(waves, PixelWaveWork{4, 16});
    d.ps = {nullptr, &code, 4, 16, waves};
    pass.draws = {d};
  }
};

TEST(TileUnits, TheBlenderTakesWavesInLaunchOrderAndATileIsStoredAfterItsLastWave) {
  Rig rig(2);
  ASSERT_TRUE(rig.tiles->start(rig.pass, 16, 1, Cycle{0}));
  rig.engine.run(Cycle{1000});
  // 8 quads at 1 a cycle: the first wave is ready at 4, the second at 8.
  EXPECT_EQ(rig.spi->queued(), 2u);
  EXPECT_EQ(rig.c.raster_busy, 8u);
  EXPECT_EQ(rig.c.quads, 8u);
  // The second wave retires first: the blender waits for the first.
  rig.tiles->retired(0, 1, Cycle{100});
  rig.engine.run(Cycle{1000});
  EXPECT_EQ(rig.c.pixels_blended, 0u);
  EXPECT_TRUE(rig.owner.drained.empty());
  rig.tiles->retired(0, 0, Cycle{120});
  rig.engine.run(Cycle{1000});
  // Both blend from 120 at 4 pixels a cycle: 4 + 4 cycles, and the tile drains at 128.
  EXPECT_EQ(rig.c.pixels_blended, 32u);
  EXPECT_EQ(rig.c.blend_busy, 8u);
  EXPECT_EQ(rig.owner.drained, (std::vector<uint64_t>{128}));
  // Its colour (16x16x4 bytes) goes out as 16 lines; the pass is over once they are answered.
  EXPECT_EQ(rig.c.tile_bytes_stored, 1024u);
  EXPECT_EQ(rig.bank.lines, 16u);
  EXPECT_FALSE(rig.owner.done);
  EXPECT_FALSE(rig.tiles->response(tbr::kStoreTag | 0, 15, Cycle{200}));
  EXPECT_TRUE(rig.tiles->response(tbr::kStoreTag | 0, 1, Cycle{201}));
  EXPECT_EQ(rig.progress, 1u);
}

TEST(TileUnits, AFullQueueToTheBlenderStallsTheRasteriserUntilAWaveIsBlended) {
  // Room for one wave between the rasteriser and the blender: the second wave's quads wait.
  Rig rig(2, 1);
  ASSERT_TRUE(rig.tiles->start(rig.pass, 16, 1, Cycle{0}));
  rig.engine.run(Cycle{1000});
  EXPECT_EQ(rig.spi->queued(), 1u) << "the second wave waits for room";
  rig.tiles->retired(0, 0, Cycle{50});
  rig.engine.run(Cycle{1000});
  EXPECT_EQ(rig.spi->queued(), 2u) << "blending the first made room for the second";
  // The rasteriser stalled from when it handed over the first wave (4), its queue full, until the
  // first wave was blended at 50.
  EXPECT_EQ(rig.c.raster_stalled, 50u - 4u);
  rig.tiles->retired(0, 1, Cycle{300});
  rig.engine.run(Cycle{1000});
  EXPECT_EQ(rig.c.pixels_blended, 32u);
  EXPECT_EQ(rig.owner.drained.size(), 1u);
}

}  // namespace
}  // namespace strobe::timing
