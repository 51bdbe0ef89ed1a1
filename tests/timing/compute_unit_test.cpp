// The compute unit on its own, fed by a WaveSource that is not the dispatcher and backed by a
// stub memory: what a second work source (a graphics shader-launch unit) relies on.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "emu/executor.h"
#include "timing/cu/compute_unit.h"
#include "timing/engine/events.h"
#include "timing_harness.h"

namespace strobe::timing {
namespace {

using test::KernelHarness;

/// Answers every request a fixed number of cycles after it arrives.
class FixedLatencyMemory : public Component {
 public:
  FixedLatencyMemory(Engine& e, RequestPool& pool, uint32_t latency)
      : Component("memory"), engine_(e), pool_(pool), latency_(latency) {}
  void handle(Cycle now, uint32_t kind, uint32_t arg) override {
    if (kind != kMemRequest) return;
    if (pool_[arg].is_batch()) pool_.release_lines(pool_[arg].lines);
    pool_.respond(engine_, now + uint64_t(latency_), arg);
  }

 private:
  Engine& engine_;
  RequestPool& pool_;
  uint32_t latency_;
};

/// A work source that records what the CU tells it.
class RecordingSource : public WaveSource {
 public:
  RecordingSource() : WaveSource("source") {}
  void mark_room(uint32_t cu) override { room.push_back(cu); }
  void handle(Cycle now, uint32_t kind, uint32_t arg) override {
    if (kind == kWorkgroupRetired) retired.push_back({now.value(), arg});
  }
  std::vector<uint32_t> room;
  struct Retired {
    uint64_t at;
    uint32_t tag;
  };
  std::vector<Retired> retired;
};

TEST(ComputeUnit, RunsWorkGroupsFromAnyWaveSourceAndReportsBackToIt) {
  KernelHarness h("valu_peak", "fma_peak");
  constexpr uint32_t kItems = 256, kLocal = 128, kIters = 2;
  const uint64_t out = h.zeros(4 * kItems);
  const emu::Dispatch d = h.dispatch(kItems, kLocal, {out, kIters});
  Engine engine;
  RequestPool pool;
  StatsRegistry stats;
  FixedLatencyMemory memory(engine, pool, 20);
  const CuParams p;
  ComputeUnit cu("cu.0", 3, p, engine, pool, stats, &memory, &memory, &memory);
  emu::Executor ex(d, h.mem, 4 * p.res.max_workgroups);
  const std::vector<InstInfo> info = build_inst_info(*d.program, p.timing);
  uint64_t insts = 0;
  LaunchContext lc;
  lc.wave_instructions = &insts;
  cu.begin_launch(&lc);

  RecordingSource source;
  WorkgroupLaunch wl;
  wl.source = &source;
  wl.executor = &ex;
  wl.code = WaveCode{info.data(), uint32_t(info.size()), d.program};
  wl.needs = workgroup_needs(d.kd, kLocal, d.lds_bytes, p.res);
  for (uint64_t id = 0; id < kItems / kLocal; ++id) {
    ASSERT_TRUE(cu.can_accept(wl.needs));
    wl.id = id;
    wl.tag = uint32_t(100 + id);
    cu.launch_workgroup(engine.now(), wl);
  }
  EXPECT_EQ(cu.resident_waves(), 4u);
  engine.run();

  EXPECT_TRUE(cu.idle());
  ASSERT_EQ(source.retired.size(), 2u);  // one kWorkgroupRetired per group, with its launch's tag
  EXPECT_EQ(source.retired[0].tag + source.retired[1].tag, 100u + 101u);
  EXPECT_NE(source.retired[0].tag, source.retired[1].tag);
  EXPECT_EQ(source.room, (std::vector<uint32_t>{3, 3, 3, 3}));  // one mark_room per wave
  EXPECT_GT(insts, 0u);
  EXPECT_EQ(insts, cu.counters().wave_instructions);
  // The values are the emulator's, whoever dispatched the waves.
  const std::vector<float> got = h.download<float>(out, kItems);
  for (uint32_t gid = 0; gid < kItems; ++gid) {
    float a = float(gid), b = a * 0.5f, c = a + 1.0f, e = a - 1.0f;
    for (uint32_t i = 0; i < kIters * 16; ++i) {
      // The kernel's a * x + y is v_mac_f32: a rounded product, then a rounded sum (the tests
      // build with -ffp-contract=off, so this is not fused either).
      a = a * 1.0001f + 0.9999f;
      b = b * 0.9999f + 1.0001f;
      c = c * 1.0001f + 0.9999f;
      e = e * 0.9999f + 1.0001f;
    }
    ASSERT_EQ(got[gid], a + b + c + e) << gid;
  }
}

TEST(ComputeUnit, AcceptsAWorkGroupOnlyWhileItsWavesFit) {
  Engine engine;
  RequestPool pool;
  StatsRegistry stats;
  CuParams p;
  p.res.max_workgroups = 2;
  ComputeUnit cu("cu.0", 0, p, engine, pool, stats, nullptr, nullptr, nullptr);
  WorkgroupNeeds n;
  n.waves = 4;
  EXPECT_TRUE(cu.can_accept(n));
  n.waves = p.res.simds * p.res.slots_per_simd + 1;
  EXPECT_FALSE(cu.can_accept(n));
  n.waves = 1;
  n.vgprs_per_wave = p.res.vgprs_per_simd + 4;
  EXPECT_FALSE(cu.can_accept(n));
}

}  // namespace
}  // namespace strobe::timing
