// Setup and the tiler as a part of their own: a draw is set up at the slower of its primitive and
// bin-entry rates, its entries are written to its tiles' lists, and the phase ends only when the
// last draw is binned and every write is answered.
#include <gtest/gtest.h>

#include <vector>

#include "timing/engine/events.h"
#include "timing/gfx/geometry_stage.h"

namespace strobe::timing {
namespace {

/// The pipeline's stand-in: records the wake-ups the stage schedules for it.
struct Owner : WaveSource {
  Owner() : WaveSource("gfx") {}
  std::vector<std::pair<uint64_t, uint32_t>> events;  // (cycle, kind)
  void handle(Cycle now, uint32_t kind, uint32_t) override { events.emplace_back(now.value(), kind); }
  void mark_room(uint32_t) override {}
};

/// An L2 bank that counts the lines written to it.
struct Bank : Component {
  Bank() : Component("l2") {}
  uint32_t lines = 0;
  void handle(Cycle, uint32_t kind, uint32_t) override { lines += kind == kMemRequest; }
};

TEST(GeometryStage, ADrawIsSetUpAtItsSlowerRateAndThePhaseEndsWhenItsListsAreWritten) {
  Engine engine;
  RequestPool pool;
  Owner owner;
  Bank bank;
  GraphicsParams p;  // 4 primitives and 4 bin entries a cycle, 8-byte entries, 64-byte lines
  GraphicsCounters c;
  uint64_t progress = 0;
  LinePort port(engine, pool, {&bank}, owner, p.line_bytes, p.noc_latency);
  BinLists bins(port);
  bins.reset(2);
  Spi spi(engine, owner, {}, CuParams{}, p.wave_interval, c);
  GeometryStage stage(engine, owner, p, c, bins, progress);
  PassWork pass;
  DrawWork primitive_bound;  // 40 primitives (10 cycles) against 16 entries (4 cycles)
  primitive_bound.primitives = 40;
  primitive_bound.tiles = {TileWork{0, 10}, TileWork{1, 6}};
  DrawWork bin_bound;  // 8 primitives (2 cycles) against 30 entries (8 cycles)
  bin_bound.primitives = 8;
  bin_bound.tiles = {TileWork{0, 30}};
  pass.draws = {primitive_bound, bin_bound};

  stage.begin(pass, spi);
  stage.try_setup(Cycle{0});
  engine.run(Cycle{1000});
  ASSERT_EQ(owner.events.size(), 1u);
  EXPECT_EQ(owner.events[0], std::make_pair(uint64_t{10}, uint32_t(kGfxSetupDone)));
  EXPECT_FALSE(stage.done());
  stage.setup_done(Cycle{10});  // its 128 bytes go out, and the second draw's setup starts
  engine.run(Cycle{1000});
  ASSERT_EQ(owner.events.size(), 2u);
  EXPECT_EQ(owner.events[1].first, 10u + 8u);
  stage.setup_done(Cycle{18});
  engine.run(Cycle{1000});
  EXPECT_EQ(c.setup_busy, 18u);
  EXPECT_EQ(c.primitives, 48u);
  EXPECT_EQ(c.bin_entries, 46u);
  EXPECT_EQ(c.bin_bytes_written, 46u * 8u);
  EXPECT_EQ(bins.bytes(0), 40u * 8u);
  EXPECT_EQ(progress, 2u);
  // Every draw binned, but not every write answered: not done until the last is.
  ASSERT_GT(bank.lines, 1u);
  EXPECT_FALSE(stage.done());
  stage.answered(bank.lines - 1);
  EXPECT_FALSE(stage.done());
  stage.answered(1);
  EXPECT_TRUE(stage.done());
}

}  // namespace
}  // namespace strobe::timing
