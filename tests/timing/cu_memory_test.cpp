#include <gtest/gtest.h>

#include <vector>

#include "timing/cu/cu_memory.h"
#include "timing/engine/events.h"

namespace strobe::timing {
namespace {

/// Records every event it receives.
struct Recorder : Component {
  Recorder() : Component("recorder") {}
  struct Ev {
    uint64_t at;
    uint32_t kind, arg;
  };
  std::vector<Ev> events;
  void handle(Cycle now, uint32_t kind, uint32_t arg) override { events.push_back({now.value(), kind, arg}); }
};

struct Fixture {
  Engine engine;
  RequestPool pool;
  Recorder cu, l1v, scache, l1i;
  CuCounters counters;
  CuMemory mem{CuMemoryParams{}, 4, engine, pool, &cu, &l1v, &scache, &l1i, counters};
  std::vector<WaveState> waves = std::vector<WaveState>(4);
  Fixture() {
    for (WaveState& w : waves) w.active = true;
  }
  /// Sets up a global access of `lanes` lanes, lane i at base + i * stride.
  void access(uint64_t base, uint32_t stride, uint32_t lanes, uint32_t bytes = 4) {
    mem.clear();
    emu::MemAccessInfo& mi = mem.access();
    mi.space = emu::MemAccessInfo::Space::Global;
    mi.bytes_per_lane = bytes;
    mi.is_store = mi.is_atomic = false;
    for (uint32_t i = 0; i < lanes; ++i) {
      mi.lane_addr[i] = base + uint64_t(i) * stride;
      mi.lane_mask |= uint64_t{1} << i;
    }
  }
};

InstInfo vmem_load() {
  InstInfo in;
  in.type = IssueType::Vmem;
  in.busy = 4;
  return in;
}

TEST(CuMemory, ContiguousLanesCoalesceIntoOneBatchRequestOfDistinctLines) {
  Fixture f;
  f.access(0x1000, 4, 64);  // 256 bytes: four 64-byte lines
  EXPECT_FALSE(f.mem.issue_vmem(f.waves[0], 0, vmem_load(), Cycle(0)));
  f.engine.run();
  ASSERT_EQ(f.l1v.events.size(), 1u);
  EXPECT_EQ(f.l1v.events[0].kind, uint32_t(kMemRequest));
  const MemReq& q = f.pool[f.l1v.events[0].arg];
  EXPECT_EQ(q.count, 4);
  EXPECT_EQ(q.line, 0x1000u >> 6);
  EXPECT_EQ(f.counters.vmem_lines, 4u);
  EXPECT_EQ(f.waves[0].vm, 1);
}

TEST(CuMemory, VmcntRetiresInIssueOrder) {
  Fixture f;
  f.access(0x0, 4, 1);
  f.mem.issue_vmem(f.waves[0], 0, vmem_load(), Cycle(0));
  f.access(0x4000, 4, 1);
  f.mem.issue_vmem(f.waves[0], 0, vmem_load(), Cycle(0));
  const uint32_t first = f.waves[0].vm_fifo[0], second = f.waves[0].vm_fifo[1];
  ASSERT_TRUE(f.mem.answer(second, 1));
  EXPECT_EQ(f.mem.complete(f.waves, second), 0u);
  EXPECT_EQ(f.waves[0].vm, 2);  // the younger access waits for the older
  ASSERT_TRUE(f.mem.answer(first, 1));
  f.mem.complete(f.waves, first);
  EXPECT_EQ(f.waves[0].vm, 0);
}

TEST(CuMemory, CachesReportProgressThroughTheRequestsTypedPath) {
  Fixture f;
  f.access(0x0, 4, 1);
  f.mem.issue_vmem(f.waves[0], 0, vmem_load(), Cycle(0));
  f.engine.run();
  const uint32_t op = f.waves[0].vm_fifo[0];
  f.pool[f.l1v.events[0].arg].mark(MemStage::L2);
  EXPECT_EQ(f.mem.progress(op).stage(), MemStage::L2);
}

TEST(CuMemory, LdsLanesOnOneBankSerialise) {
  Fixture f;
  f.access(0, 4, 64);  // consecutive dwords: conflict-free, 32 lanes per cycle
  EXPECT_EQ(f.mem.lds_cycles(), 2u);
  f.access(0, 128, 64);  // every lane on bank 0, distinct dwords
  EXPECT_EQ(f.mem.lds_cycles(), 64u);
  f.access(0, 0, 64);  // one dword broadcast to every lane
  EXPECT_EQ(f.mem.lds_cycles(), 2u);
}

TEST(CuMemory, AnInstructionFetchCarriesAFetchTag) {
  Fixture f;
  f.waves[2].ib.redirect(64, 32);
  f.mem.fetch(f.waves[2], 2, 0x10000, Cycle(0));
  f.engine.run();
  ASSERT_EQ(f.l1i.events.size(), 1u);
  const MemReq& q = f.pool[f.l1i.events[0].arg];
  ASSERT_TRUE(FetchTag::is_fetch(q.tag));
  EXPECT_EQ(FetchTag::decode(q.tag).slot, 2u);
  EXPECT_EQ(q.line, (0x10000u + 64) >> 6);
  EXPECT_EQ(q.progress, nullptr);
  EXPECT_EQ(f.counters.fetches, 1u);
}

TEST(CuMemory, AStoreReportsItsDataSentToTheCu) {
  Fixture f;
  f.access(0x0, 4, 64);
  f.mem.access().is_store = true;
  InstInfo st = vmem_load();
  st.is_store = true;
  f.mem.issue_vmem(f.waves[1], 1, st, Cycle(0));
  EXPECT_EQ(f.waves[1].exp, 1);
  f.engine.run();
  ASSERT_EQ(f.cu.events.size(), 1u);
  EXPECT_EQ(f.cu.events[0].kind, uint32_t(kCuExportDone));
  EXPECT_EQ(f.cu.events[0].arg, 1u);
  EXPECT_EQ(f.cu.events[0].at, 4u);
}

}  // namespace
}  // namespace strobe::timing
