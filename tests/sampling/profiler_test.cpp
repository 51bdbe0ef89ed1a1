// The shared profiling loop on assembled snippets: it counts what the executor counts, reports
// the executor's basic blocks, and counts coalesced global and scratch requests per line.
#include "sampling/profile/profiler.h"

#include <gtest/gtest.h>

#include <set>
#include <tuple>
#include <vector>

#include "emu/emu_test_util.h"

namespace strobe::sampling::profile {
namespace {

using emu::test::AsmLaunch;
using emu::test::KdSpec;
using emu::test::strided_store_asm;

// A three-trip loop, a barrier and a tail: blocks end at the branch (4), the barrier (5) and
// s_endpgm (7).
const char* const kLoop = emu::test::kLoopBarrierAsm;

std::vector<uint8_t> loop_ends() {
  std::vector<uint8_t> ends(8, 0);
  ends[4] = ends[5] = ends[7] = 1;
  return ends;
}

/// Records every hook it receives.
template <Grain G>
struct Recorder : Collector {
  static constexpr Grain kGrain = G;
  std::vector<uint8_t> ends = loop_ends();
  std::vector<std::tuple<uint32_t, uint32_t, uint32_t>> blocks;  // wave, start, length
  std::vector<uint32_t> pcs;
  std::vector<Counters> waves, groups;
  std::vector<uint64_t> ids;
  const uint8_t* block_ends() const { return ends.data(); }
  void block(uint32_t w, uint32_t s, uint32_t n) { blocks.emplace_back(w, s, n); }
  void instruction(const Instruction& i) { pcs.push_back(i.pc); }
  void wave_end(uint32_t, const Counters& c) { waves.push_back(c); }
  void workgroup_end(uint64_t id, const Counters& c) { ids.push_back(id), groups.push_back(c); }
};

template <Grain G>
void expect_executor_counts() {
  AsmLaunch l(kLoop, KdSpec{}, {256, 1, 1}, {128, 1, 1});
  AsmLaunch ref(kLoop, KdSpec{}, {256, 1, 1}, {128, 1, 1});
  Profiler p;
  Recorder<G> r;
  const emu::DispatchStats got = p.run_launch(l.d, l.mem, r);
  const emu::DispatchStats want = ref.run();
  EXPECT_EQ(got.wave_instructions, want.wave_instructions);
  EXPECT_EQ(got.thread_instructions, want.thread_instructions);
  EXPECT_EQ(got.workgroups, want.workgroups);
  EXPECT_EQ(got.wavefronts, want.wavefronts);
  ASSERT_EQ(r.groups.size(), 2u);
  EXPECT_EQ(r.ids, (std::vector<uint64_t>{0, 1}));
  ASSERT_EQ(r.waves.size(), 4u);
  for (const Counters& w : r.waves) {
    EXPECT_EQ(w.wave_instructions, 1u + 3 * 4 + 1 + 2);
    EXPECT_EQ(w.thread_instructions, 64u * w.wave_instructions);
  }
  EXPECT_EQ(r.groups[0].wave_instructions + r.groups[1].wave_instructions, want.wave_instructions);
}

TEST(Profiler, EveryGrainCountsWhatTheExecutorCounts) {
  expect_executor_counts<Grain::WorkGroup>();
  expect_executor_counts<Grain::Block>();
  expect_executor_counts<Grain::Instruction>();
}

TEST(Profiler, BlockGrainReportsEachWavesBlocksAcrossTheBarrier) {
  AsmLaunch l(kLoop, KdSpec{}, {128, 1, 1}, {128, 1, 1});
  Profiler p;
  Recorder<Grain::Block> r;
  p.run_launch(l.d, l.mem, r);
  using B = std::tuple<uint32_t, uint32_t, uint32_t>;
  const std::vector<B> want = {{0, 0, 5}, {0, 1, 4}, {0, 1, 4}, {0, 5, 1}, {1, 0, 5}, {1, 1, 4},
                               {1, 1, 4}, {1, 5, 1}, {0, 6, 2},  {1, 6, 2}};
  EXPECT_EQ(r.blocks, want);
  EXPECT_TRUE(r.pcs.empty());
}

TEST(Profiler, InstructionGrainReportsEveryInstructionInExecutionOrder) {
  AsmLaunch l(kLoop, KdSpec{}, {64, 1, 1}, {64, 1, 1});
  Profiler p;
  Recorder<Grain::Instruction> r;
  p.run_launch(l.d, l.mem, r);
  const std::vector<uint32_t> want = {0, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 5, 6, 7};
  EXPECT_EQ(r.pcs, want);
}

/// Global requests of one 64-lane store at `stride_shift` counted at `line_bytes`.
uint64_t global_requests(uint32_t stride_shift, uint32_t line_bytes) {
  AsmLaunch l(strided_store_asm(stride_shift), KdSpec{}, {64, 1, 1}, {64, 1, 1});
  const uint64_t out = l.buffer({}, 64u << (stride_shift - 2));
  l.mem.write(l.d.kernarg_address, &out, 8);
  Profiler p(line_bytes);
  Recorder<Grain::Instruction> r;
  p.run_launch(l.d, l.mem, r);
  EXPECT_EQ(r.groups.at(0).scratch_requests, 0u);
  return r.groups.at(0).global_requests;
}

TEST(Profiler, GlobalRequestsAreTheDistinctLinesTheActiveLanesTouch) {
  // 64 consecutive dwords: 256 bytes from a page-aligned buffer.
  EXPECT_EQ(global_requests(2, 64), 4u);
  EXPECT_EQ(global_requests(2, 128), 2u);
  // One dword per 64 bytes: every lane its own line at 64, two lanes a line at 128.
  EXPECT_EQ(global_requests(6, 64), 64u);
  EXPECT_EQ(global_requests(6, 128), 32u);
}

TEST(Profiler, CountLinesGivesTheDistinctLinesOfTheLanesWhateverTheirOrder) {
  uint64_t x = 7;
  auto next = [&x] { return x = x * 6364136223846793005ull + 1442695040888963407ull, x >> 30; };
  const Profiler p(64);
  for (int trial = 0; trial < 5000; ++trial) {
    emu::MemAccessInfo mi;
    mi.lane_mask = trial % 2 ? ~uint64_t(0) : next() << 32 ^ next();
    const uint64_t base = next() % 1000000 * 4, spread = trial % 3 == 0 ? 4096 : 256;
    for (uint32_t lane = 0; lane < emu::kWaveSize; ++lane)
      mi.lane_addr[lane] = trial % 4 == 0 ? base + lane * 4 : base + next() % spread;  // rising, or not
    std::set<uint64_t> want;
    for (uint32_t lane = 0; lane < emu::kWaveSize; ++lane)
      if (mi.lane_mask >> lane & 1) want.insert(mi.lane_addr[lane] >> 6);
    ASSERT_EQ(p.count_lines(mi), want.size()) << "trial " << trial;
  }
}

TEST(Profiler, ScratchRequestsAreCountedApartAndLdsIsNot) {
  KdSpec k;
  k.properties = 0x1 | 0x8;  // private segment buffer s[0:3], kernarg s[4:5]
  k.user_sgprs = 6;
  k.scratch_offset = true;  // s7 (after work-group id x in s6)
  k.private_bytes = 16;
  k.lds = 256;
  // A swizzled private store: 64 lanes' dwords of one element are 256 contiguous bytes. Then an
  // LDS store, which is no request.
  AsmLaunch l(R"(
    v_mov_b32 v11, 8
    buffer_store_dword v0, v11, s[0:3], s7 offen
    s_waitcnt vmcnt(0)
    v_lshlrev_b32 v1, 2, v0
    s_mov_b32 m0, -1
    ds_write_b32 v1, v0
    s_waitcnt lgkmcnt(0)
    s_endpgm
  )", k, {64, 1, 1}, {64, 1, 1});
  Profiler p(64);
  Recorder<Grain::Instruction> r;
  p.run_launch(l.d, l.mem, r);
  EXPECT_EQ(r.groups.at(0).global_requests, 0u);
  EXPECT_EQ(r.groups.at(0).scratch_requests, 4u);
}

/// A Recorder that may be split, counting the splits made.
struct SplitRecorder : Recorder<Grain::Instruction> {
  int* splits = nullptr;
  bool can_split() const { return true; }
  SplitRecorder split() const {
    SplitRecorder r;
    r.splits = splits;
    ++*splits;
    return r;
  }
  void join(SplitRecorder&& p) {
    pcs.insert(pcs.end(), p.pcs.begin(), p.pcs.end());
    waves.insert(waves.end(), p.waves.begin(), p.waves.end());
    groups.insert(groups.end(), p.groups.begin(), p.groups.end());
    ids.insert(ids.end(), p.ids.begin(), p.ids.end());
  }
};
static_assert(Splittable<SplitRecorder> && !Splittable<Recorder<Grain::Instruction>>);

/// What profiling emu::test::kGroupLoopStoreAsm over `groups` groups on `threads` threads gave.
struct GroupLoopRun {
  SplitRecorder r;
  int splits = 0;
  emu::DispatchStats stats;
  std::vector<uint32_t> out;
};

GroupLoopRun profile_group_loop(uint32_t groups, uint32_t threads, const char* source = emu::test::kGroupLoopStoreAsm) {
  AsmLaunch l(source, KdSpec{}, {64 * groups, 1, 1}, {64, 1, 1});
  const uint64_t out = l.buffer({}, 64 * groups);
  l.mem.write(l.d.kernarg_address, &out, 8);
  GroupLoopRun run;
  run.r.splits = &run.splits;
  Profiler p;
  run.stats = p.run_launch(l.d, l.mem, run.r, threads);
  run.out = l.read(out, 64 * groups);
  return run;
}

TEST(Profiler, ASplitCollectorOnThreeThreadsGetsWhatOneThreadGivesInDispatchOrder) {
  const GroupLoopRun one = profile_group_loop(37, 1), three = profile_group_loop(37, 3);
  EXPECT_EQ(one.splits, 0);
  EXPECT_GT(three.splits, 1);  // the groups did run in parts
  EXPECT_EQ(three.out, one.out);
  EXPECT_EQ(three.r.pcs, one.r.pcs);
  std::vector<uint64_t> order(37);
  for (uint64_t g = 0; g < 37; ++g) order[g] = g;
  EXPECT_EQ(three.r.ids, order);
  ASSERT_EQ(three.r.groups.size(), one.r.groups.size());
  for (size_t g = 0; g < one.r.groups.size(); ++g) {
    EXPECT_EQ(three.r.groups[g].wave_instructions, one.r.groups[g].wave_instructions) << "group " << g;
    EXPECT_EQ(three.r.groups[g].global_requests, one.r.groups[g].global_requests) << "group " << g;
  }
  EXPECT_EQ(three.stats.wave_instructions, one.stats.wave_instructions);
  EXPECT_EQ(three.stats.thread_instructions, one.stats.thread_instructions);
  EXPECT_EQ(three.stats.workgroups, 37u);
  EXPECT_EQ(one.r.groups[1].wave_instructions, one.r.groups[0].wave_instructions + 4);  // the work differs
}

TEST(Profiler, AKernelWithGlobalAtomicsIsProfiledOnOneThread) {
  // Each lane adds one to the dword the buffer starts with: the value each returns depends on
  // the order, so the groups run in order on one thread whatever was asked.
  const std::string atomic = R"(
    s_load_dwordx2 s[4:5], s[0:1], 0x0
    s_waitcnt lgkmcnt(0)
    v_mov_b32 v6, s4
    v_mov_b32 v7, s5
    v_mov_b32 v1, 1
    flat_atomic_add v2, v[6:7], v1 glc
    s_waitcnt vmcnt(0)
    s_endpgm
  )";
  const GroupLoopRun run = profile_group_loop(9, 3, atomic.c_str());
  EXPECT_EQ(run.splits, 0);
  EXPECT_EQ(run.out[0], 9u * 64);
  EXPECT_EQ(run.r.ids.size(), 9u);
}

TEST(Profiler, LinearIdNumbersGroupsXFastest) {
  AsmLaunch l(kLoop, KdSpec{}, {128, 3, 2}, {64, 1, 1});
  emu::Executor ex(l.d, l.mem);
  emu::WorkGroup wg;
  for (uint64_t g = 0; g < ex.workgroup_count(); ++g) {
    ex.init_workgroup(wg, g);
    EXPECT_EQ(linear_id(ex, wg), g);
  }
}

}  // namespace
}  // namespace strobe::sampling::profile
