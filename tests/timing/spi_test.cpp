// The shader-launch unit (SPI) as a part of its own: waves launch in the order they were queued,
// at most one per gfx wave interval, on the CUs in the shared round-robin order; a wave that
// finds every CU full waits, without polling, until a retirement makes room; and each
// retirement names what its wave was launched for.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "timing/cu/compute_unit.h"
#include "timing/engine/events.h"
#include "timing/gfx/spi.h"
#include "gfx_test_shaders.h"

namespace strobe::timing {
namespace {

/// Answers every request a fixed number of cycles after it arrives (instruction fetches).
class FixedLatencyMemory : public Component {
 public:
  FixedLatencyMemory(Engine& e, RequestPool& pool) : Component("memory"), engine_(e), pool_(pool) {}
  void handle(Cycle now, uint32_t kind, uint32_t arg) override {
    if (kind != kMemRequest) return unhandled(kind);
    if (pool_[arg].is_batch()) pool_.release_lines(pool_[arg].lines);
    pool_.respond(engine_, now + uint64_t{20}, arg);
  }

 private:
  Engine& engine_;
  RequestPool& pool_;
};

/// The pipeline's stand-in: hands the SPI its wake-ups and retirements as the TBR pipeline does,
/// and records them.
class Pipeline : public WaveSource {
 public:
  Pipeline() : WaveSource("gfx") {}
  Spi* spi = nullptr;
  std::vector<uint64_t> tries;    ///< cycles of kGfxSpiTry
  struct Retired {
    uint64_t at;
    uint32_t tag;
  };
  std::vector<Retired> retired;
  std::vector<uint32_t> room;     ///< CUs, in the order their waves retired
  void mark_room(uint32_t cu) override {
    room.push_back(cu);
    spi->mark_room(cu);
  }
  void handle(Cycle now, uint32_t kind, uint32_t arg) override {
    if (kind == kGfxSpiTry) {
      tries.push_back(now.value());
      return spi->woke(now);
    }
    if (kind != kWorkgroupRetired) return unhandled(kind);
    retired.push_back({now.value(), arg});
    spi->try_launch(now);
  }
};

/// `n` CUs with a fixed-latency memory behind them, and an SPI over them.
struct Rig {
  Engine engine;
  RequestPool pool;
  StatsRegistry stats;
  FixedLatencyMemory memory{engine, pool};
  CuParams p;
  std::vector<std::unique_ptr<ComputeUnit>> cus;
  uint64_t insts = 0;
  LaunchContext lc;
  Pipeline pipeline;
  GraphicsCounters counters;
  std::unique_ptr<Spi> spi;
  emu::GlobalMemory mem;

  Rig(uint32_t n, uint32_t interval) {
    std::vector<ComputeUnit*> ptrs;
    lc.wave_instructions = &insts;
    for (uint32_t i = 0; i < n; ++i) {
      cus.push_back(std::make_unique<ComputeUnit>("cu" + std::to_string(i), i, p, engine, pool, stats, &memory,
                                                  &memory, &memory));
      cus.back()->begin_launch(&lc);
      ptrs.push_back(cus.back().get());
    }
    spi = std::make_unique<Spi>(engine, pipeline, ptrs, p, interval, counters);
    pipeline.spi = spi.get();
    spi->begin_frame(Cycle{0});
    spi->begin_pass();
  }
};

TEST(Spi, WavesLaunchInOrderOnePerIntervalRoundRobinAndRetireUnderTheirOwnTags) {
  Rig rig(2, 10);
  const isa::Program code = test::shader(8);
  test::UniformStage stage(code, rig.mem);
  const ShaderWork s{&stage, &code, 4, 16, 4};
  const LaunchRef refs[] = {{false, 0, 0, 0}, {true, 0, 1, 0}, {true, 0, 1, 1}, {false, 1, 0, 0}};
  for (uint32_t i = 0; i < 4; ++i) rig.spi->enqueue(s, i, refs[i]);
  EXPECT_EQ(rig.spi->queued(), 4u);
  rig.spi->try_launch(Cycle{0});
  EXPECT_EQ(rig.spi->queued(), 3u) << "the first wave launches at once";
  rig.engine.run(Cycle{100000});

  // One launch per interval: the SPI wakes at 10, 20 and 30, and not after the last wave.
  EXPECT_EQ(rig.pipeline.tries, (std::vector<uint64_t>{10, 20, 30}));
  EXPECT_EQ(rig.spi->queued(), 0u);
  ASSERT_EQ(rig.pipeline.retired.size(), 4u);
  for (uint32_t i = 0; i < 4; ++i) {
    SCOPED_TRACE(i);
    // Identical waves launched 10 cycles apart retire in launch order (each CU's first wave
    // fetches its code, so the gaps are not exactly 10), under the tag the SPI gave them, and the
    // tag leads back to what each was launched for.
    EXPECT_EQ(rig.pipeline.retired[i].tag, i);
    const LaunchRef& r = rig.spi->ref(rig.pipeline.retired[i].tag);
    EXPECT_EQ(r.pixel, refs[i].pixel);
    EXPECT_EQ(r.draw, refs[i].draw);
    EXPECT_EQ(r.seq, refs[i].seq);
    if (i > 0) EXPECT_GT(rig.pipeline.retired[i].at, rig.pipeline.retired[i - 1].at);
  }
  EXPECT_EQ(rig.pipeline.room, (std::vector<uint32_t>{0, 1, 0, 1})) << "round robin over the CUs";
  EXPECT_EQ(rig.counters.vs_waves, 2u);
  EXPECT_EQ(rig.counters.ps_waves, 2u);
}

TEST(Spi, AWaveThatFindsEveryCuFullWaitsForARetirementWithoutPolling) {
  // Waves that take a SIMD's every VGPR: one CU of four SIMDs holds four. The fifth finds no
  // room at cycle 4 and the SPI schedules nothing more; the first retirement launches it.
  Rig rig(1, 1);
  const isa::Program code = test::shader(200);
  test::UniformStage stage(code, rig.mem);
  const ShaderWork s{&stage, &code, rig.p.res.vgprs_per_simd, 16, 5};
  ASSERT_EQ(rig.spi->needs_of(s).vgprs_per_wave, rig.p.res.vgprs_per_simd);
  for (uint32_t i = 0; i < 5; ++i) rig.spi->enqueue(s, i, {true, 0, 0, i});
  rig.spi->try_launch(Cycle{0});
  rig.engine.run(Cycle{1000000});
  EXPECT_EQ(rig.pipeline.tries, (std::vector<uint64_t>{1, 2, 3, 4})) << "no polling while the CU is full";
  ASSERT_EQ(rig.pipeline.retired.size(), 5u);
  const uint64_t first = rig.pipeline.retired[0].at;
  // The fifth wave ran after the first retired: it ends a whole wave's time after that.
  EXPECT_GE(rig.pipeline.retired[4].at, first + first / 2);
  EXPECT_EQ(rig.pipeline.retired[4].tag, 4u);
  EXPECT_EQ(rig.counters.ps_waves, 5u);
}

TEST(Spi, AWaveTooLargeForAnyCuIsNeverLaunched) {
  // More VGPRs than a SIMD has: no CU can take it, so it stays queued and nothing is scheduled
  // (the pipeline's deadlock check reports such a frame; TbrPipeline::check refuses it first).
  Rig rig(2, 1);
  const isa::Program code = test::shader(1);
  test::UniformStage stage(code, rig.mem);
  const ShaderWork s{&stage, &code, rig.p.res.vgprs_per_simd + rig.p.res.vgpr_granule, 16, 1};
  rig.spi->enqueue(s, 0, {});
  rig.spi->try_launch(Cycle{0});
  rig.engine.run(Cycle{1000});
  EXPECT_EQ(rig.spi->queued(), 1u);
  EXPECT_TRUE(rig.pipeline.tries.empty());
  EXPECT_TRUE(rig.pipeline.retired.empty());
}

}  // namespace
}  // namespace strobe::timing
