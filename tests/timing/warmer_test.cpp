// Functional warming: accesses of functionally executed work update the same cache tags that
// detailed simulation reads afterwards, by each cache's own write policy, and nothing else.
#include "timing/gpu/warmer.h"

#include <gtest/gtest.h>

#include "emu/executor.h"
#include "timing/mem/cache.h"
#include "timing/timing_harness.h"

namespace strobe::timing {
namespace {

/// Below the L2: answers every request after a fixed latency and counts them.
struct Memory : Component {
  Memory(Engine& e, RequestPool& p) : Component("mem"), e(e), pool(p) {}
  void handle(Cycle now, uint32_t, uint32_t r) override {
    ++requests;
    pool.respond(e, now + 100, r);
  }
  Engine& e;
  RequestPool& pool;
  uint64_t requests = 0;
};

/// The requester of detailed accesses.
struct Client : Component {
  Client() : Component("client") {}
  void handle(Cycle, uint32_t, uint32_t) override {}
};

/// One CU's L1V, scalar cache and L1I over a two-bank L2, as the GPU wires them.
struct WarmFixture : ::testing::Test {
  Engine e;
  RequestPool pool;
  StatsRegistry stats;
  Memory mem{e, pool};
  Client client;
  std::unique_ptr<Cache> l1v, scache, l1i, l2a, l2b;
  std::unique_ptr<Warmer> warmer;

  static CacheParams params(bool l2) {
    CacheParams p;
    p.geometry.sets = 4;
    p.geometry.ways = 2;
    p.geometry.index_divisor = l2 ? 2 : 1;
    p.hit_latency = 10;
    p.fill_latency = 10;
    p.write_back = l2;  // the configuration's policies: write-through L1s, write-back L2
    p.atomics_here = l2;
    return p;
  }
  void SetUp() override {
    l2a = std::make_unique<Cache>("l2.0", params(true), e, pool, stats);
    l2b = std::make_unique<Cache>("l2.1", params(true), e, pool, stats);
    for (Cache* c : {l2a.get(), l2b.get()}) c->set_lower({&mem});
    l1v = std::make_unique<Cache>("l1v", params(false), e, pool, stats);
    scache = std::make_unique<Cache>("scache", params(false), e, pool, stats);
    l1i = std::make_unique<Cache>("l1i", params(false), e, pool, stats);
    for (Cache* c : {l1v.get(), scache.get(), l1i.get()}) c->set_lower({l2a.get(), l2b.get()});
    warmer = std::make_unique<Warmer>(std::vector<Cache*>{l1v.get()}, std::vector<Cache*>{scache.get()},
                                      std::vector<Cache*>{l1i.get()}, std::vector<Cache*>{l2a.get(), l2b.get()}, 1,
                                      64);
  }
  /// A vector access of one lane at byte address `addr`.
  static emu::MemAccessInfo lane(uint64_t addr, bool store = false, bool atomic = false) {
    emu::MemAccessInfo mi;
    mi.lane_addr[0] = addr;
    mi.lane_mask = 1;
    mi.bytes_per_lane = 4;
    mi.space = emu::MemAccessInfo::Space::Global;
    mi.is_store = store;
    mi.is_atomic = atomic;
    return mi;
  }
  /// A detailed read of `line` through the L1V, run to completion.
  void detailed_read(uint64_t line) {
    const uint32_t r = pool.alloc();
    pool[r].line = line;
    pool[r].kind = ReqKind::Read;
    pool[r].reply_to = &client;
    e.schedule(e.now() + 1, l1v.get(), kMemRequest, r);
    e.run();
  }
};

TEST_F(WarmFixture, WarmedReadMakesADetailedReadOfTheLineHitTheL1v) {
  warmer->vector_access(0, lane(5 * 64));
  EXPECT_TRUE(l1v->contains(5));
  EXPECT_TRUE(l2b->contains(5));  // line 5 lives in bank 5 % 2, as the L1 sends it
  EXPECT_FALSE(l2a->contains(5));
  detailed_read(5);
  EXPECT_EQ(l1v->counters().read_hits, 1u);
  EXPECT_EQ(mem.requests, 0u);
}

TEST_F(WarmFixture, WarmingMovesNoCounterAndTakesNoTime) {
  warmer->vector_access(0, lane(3 * 64));
  warmer->vector_access(0, lane(3 * 64, true));
  EXPECT_EQ(l1v->counters().reads + l1v->counters().writes, 0u);
  EXPECT_EQ(l2b->counters().reads + l2b->counters().writes, 0u);
  EXPECT_TRUE(e.empty());
  EXPECT_EQ(e.now().value(), 0u);
}

TEST_F(WarmFixture, WarmedWriteDoesNotAllocateInTheWriteThroughL1vButDirtiesTheL2) {
  warmer->vector_access(0, lane(6 * 64, true));
  EXPECT_FALSE(l1v->contains(6));
  EXPECT_TRUE(l2a->contains(6));
  EXPECT_TRUE(l2a->is_dirty(6));
  detailed_read(6);  // misses the L1V, hits the L2: nothing reaches memory
  EXPECT_EQ(l1v->counters().read_misses, 1u);
  EXPECT_EQ(l2a->counters().read_hits, 1u);
  EXPECT_EQ(mem.requests, 0u);
}

TEST_F(WarmFixture, WarmedAtomicDropsThePresentL1vLineAndIsPerformedInTheL2) {
  warmer->vector_access(0, lane(7 * 64));
  ASSERT_TRUE(l1v->contains(7));
  warmer->vector_access(0, lane(7 * 64, false, true));
  EXPECT_FALSE(l1v->contains(7));
  EXPECT_TRUE(l2b->is_dirty(7));
}

TEST_F(WarmFixture, ScalarLoadsAndInstructionLinesWarmTheirOwnCaches) {
  emu::MemAccessInfo s;
  s.lane_addr[0] = 9 * 64 + 60;  // 16 bytes across two lines
  s.lane_mask = 1;
  s.bytes_per_lane = 16;
  s.space = emu::MemAccessInfo::Space::Scalar;
  warmer->scalar_access(0, s);
  EXPECT_TRUE(scache->contains(9));
  EXPECT_TRUE(scache->contains(10));
  EXPECT_FALSE(l1v->contains(9));
  warmer->instruction_line(0, 12);
  EXPECT_TRUE(l1i->contains(12));
  EXPECT_TRUE(l2a->contains(12));
}

TEST_F(WarmFixture, LdsAccessesTouchNoCache) {
  emu::MemAccessInfo mi = lane(2 * 64);
  mi.space = emu::MemAccessInfo::Space::Lds;
  warmer->vector_access(0, mi);
  EXPECT_FALSE(l1v->contains(2));
  EXPECT_FALSE(l2a->contains(2));
}

// ---- the GPU: functional launches on the dispatcher's placement ----

using test::KernelHarness;
using test::r9nano;

/// stream_read over a buffer that fits the L2: a second pass finds it there.
struct StreamLaunch {
  KernelHarness h{"stream", "stream_read"};
  static constexpr uint32_t kItems = 64 * 64, kPerItem = 4;
  uint64_t in = h.zeros(uint64_t(kItems) * kPerItem * 16), out = h.zeros(kItems * 4);
  emu::Dispatch d = h.dispatch(kItems, 64, {in, out, kPerItem});
};

TEST(GpuWarming, FunctionalRunLeavesTheCachesADetailedRunThenFinds) {
  // Both memory images run the launch functionally first (the same allocations follow), one
  // through the emulator alone, as a method without warming runs it, one warming its GPU.
  StreamLaunch cold, warm;
  Gpu g1(r9nano({"gpu.num_cus=4"})), g2(r9nano({"gpu.num_cus=4"}));
  emu::run_dispatch(cold.d, cold.h.mem);
  const emu::DispatchStats f = g2.run_functional(warm.d, warm.h.mem);
  EXPECT_EQ(g2.now().value(), 0u);  // no simulated time passed
  const LaunchTiming t_cold = g1.run(cold.d, cold.h.mem), t_warm = g2.run(warm.d, warm.h.mem);
  EXPECT_EQ(f.wave_instructions, t_warm.wave_instructions);
  EXPECT_LT(t_warm.cycles, t_cold.cycles);
  EXPECT_GT(t_cold.stats.get("dram.reads"), 1000u);
  // Every data and instruction line was in the L2 already; only the dispatch packet each
  // Executor of this harness allocates afresh (the runtime passes its own) is new.
  EXPECT_LE(t_warm.stats.get("dram.reads"), 1u);
}

TEST(GpuWarming, FunctionalRunOnFourThreadsLeavesTheCachesAndMemoryAsOneThreadDoes) {
  // The groups run on threads and record their accesses; the caches replay them in dispatch
  // order. A detailed launch after it must then take exactly the cycles it takes after a
  // one-thread warming, with the same hits.
  StreamLaunch one, four;
  Gpu g1(r9nano({"gpu.num_cus=4", "l2.size_kb=64"})), g4(r9nano({"gpu.num_cus=4", "l2.size_kb=64"}));
  g4.set_host_threads(4);
  const emu::DispatchStats f1 = g1.run_functional(one.d, one.h.mem), f4 = g4.run_functional(four.d, four.h.mem);
  EXPECT_EQ(f4.wave_instructions, f1.wave_instructions);
  EXPECT_EQ(f4.workgroups, f1.workgroups);
  EXPECT_EQ(four.h.mem.digest(), one.h.mem.digest());
  const LaunchTiming t1 = g1.run(one.d, one.h.mem), t4 = g4.run(four.d, four.h.mem);
  EXPECT_EQ(t4.cycles, t1.cycles);
  EXPECT_EQ(t4.stats.get("dram.reads"), t1.stats.get("dram.reads"));
  EXPECT_EQ(t4.stats.sum("l2.", ".read_hits"), t1.stats.sum("l2.", ".read_hits"));
  EXPECT_GT(t1.stats.get("dram.reads"), 0u);  // the small L2 keeps only part: the order matters
}

TEST(GpuWarming, FunctionalRunComputesWhatTheEmulatorComputes) {
  StreamLaunch a, b;
  std::vector<float> src(StreamLaunch::kItems * StreamLaunch::kPerItem * 4);
  for (size_t i = 0; i < src.size(); ++i) src[i] = float(i % 97);
  a.h.mem.write(a.in, src.data(), src.size() * 4);
  b.h.mem.write(b.in, src.data(), src.size() * 4);
  Gpu g(r9nano({"gpu.num_cus=4"}));
  const emu::DispatchStats fs = g.run_functional(a.d, a.h.mem);
  const emu::DispatchStats es = emu::run_dispatch(b.d, b.h.mem);
  EXPECT_EQ(fs.wave_instructions, es.wave_instructions);
  EXPECT_EQ(fs.workgroups, es.workgroups);
  EXPECT_EQ(a.h.download<float>(a.out, StreamLaunch::kItems), b.h.download<float>(b.out, StreamLaunch::kItems));
}

}  // namespace
}  // namespace strobe::timing
