// GPUMech's trace collector on assembled snippets: producers are the latest earlier writers of
// each source register (SGPRs, VGPRs, VCC, SCC, EXEC, memory results), s_waitcnt thresholds are
// decoded, memory lines are the coalescer's, and the trace cap fails loudly.
#include "sampling/gpumech/trace_collector.h"

#include <gtest/gtest.h>

#include <vector>

#include "common/error.h"
#include "emu/emu_test_util.h"
#include "sampling/gpumech/saved_trace.h"

namespace strobe::sampling::gpumech {
namespace {

using emu::test::AsmLaunch;
using emu::test::KdSpec;
using emu::test::strided_store_asm;

LaunchTrace trace_of(AsmLaunch& l, const TraceOptions& o = {}) {
  const std::vector<StaticInst> statics = static_insts(l.program);
  return collect_trace(l.d, l.mem, statics, o);
}

/// The producers of instruction `k` of `w`.
std::vector<uint32_t> producers(const CollectedWave& w, size_t k) {
  size_t p = 0;
  for (size_t i = 0; i < k; ++i) p += w.nproducers[i];
  return {w.producers.begin() + ptrdiff_t(p), w.producers.begin() + ptrdiff_t(p + w.nproducers[k])};
}

TEST(GpumechTraceCollector, ProducersAreTheLatestEarlierWritersOfEachSource) {
  AsmLaunch l(R"(
    s_load_dwordx2 s[2:3], s[0:1], 0x0
    s_mov_b32 s4, 1
    v_mov_b32 v1, s4
    v_mov_b32 v1, 2
    v_add_u32 v2, vcc, v1, v0
    s_cmp_eq_u32 s4, 1
    s_cselect_b32 s5, s4, 0
    v_addc_u32 v3, vcc, v2, v1, vcc
    s_waitcnt lgkmcnt(0)
    v_mov_b32 v4, s2
    s_and_saveexec_b64 s[6:7], vcc
    v_mov_b32 v5, v4
    s_endpgm
  )", KdSpec{}, {64, 1, 1}, {64, 1, 1});
  const LaunchTrace t = trace_of(l);
  ASSERT_EQ(t.waves.size(), 1u);
  const CollectedWave& w = t.waves[0];
  ASSERT_EQ(w.size(), 13u);
  using P = std::vector<uint32_t>;
  EXPECT_EQ(producers(w, 0), P{});         // s[0:1] came from the dispatch
  EXPECT_EQ(producers(w, 2), P{1});        // s4
  EXPECT_EQ(producers(w, 4), P{3});        // v1 of the second write; v0 from the dispatch
  EXPECT_EQ(producers(w, 5), P{1});        // s4
  EXPECT_EQ(producers(w, 6), (P{1, 5}));   // s4 and SCC
  EXPECT_EQ(producers(w, 7), (P{4, 3}));   // v2, v1, and VCC of the carry-out
  EXPECT_EQ(producers(w, 8), P{});         // s_waitcnt reads no register
  EXPECT_EQ(producers(w, 9), P{0});        // s2: the scalar load's result
  EXPECT_EQ(producers(w, 10), P{7});       // VCC of v_addc's carry-out
  EXPECT_EQ(producers(w, 11), (P{9, 10})); // v4, and EXEC written by s_and_saveexec
}

KdSpec lds_kd() {
  KdSpec k;
  k.lds = 256;
  return k;
}

TEST(GpumechTraceCollector, ClassesAndWaitcntThresholdsArePerInstruction) {
  AsmLaunch l(R"(
    s_load_dwordx2 s[2:3], s[0:1], 0x0
    s_waitcnt vmcnt(2) lgkmcnt(0)
    s_waitcnt vmcnt(0)
    v_lshlrev_b32 v1, 2, v0
    s_mov_b32 m0, -1
    ds_write_b32 v1, v0
    s_endpgm
  )", lds_kd(), {64, 1, 1}, {64, 1, 1});
  const std::vector<StaticInst> s = static_insts(l.program);
  EXPECT_EQ(s[0].cls, InstClass::ScalarMemory);
  EXPECT_EQ(s[0].access, MemAccess::Read);
  EXPECT_EQ(s[1].cls, InstClass::Waitcnt);
  EXPECT_EQ(s[1].wait.vmcnt, 2);
  EXPECT_EQ(s[1].wait.lgkmcnt, 0);
  EXPECT_EQ(s[2].wait.vmcnt, 0);
  EXPECT_EQ(s[2].wait.lgkmcnt, kNoWait);
  EXPECT_EQ(s[3].cls, InstClass::Compute);
  EXPECT_EQ(s[5].cls, InstClass::Lds);
  EXPECT_EQ(s[5].access, MemAccess::Write);
  const LaunchTrace t = trace_of(l);
  EXPECT_EQ(producers(t.waves[0], 5), (std::vector<uint32_t>{3, 4}));  // v1 and M0
}

TEST(GpumechTraceCollector, MemoryInstructionsKeepTheCoalescedLines) {
  for (uint32_t shift : {2u, 6u}) {
    AsmLaunch l(strided_store_asm(shift), KdSpec{}, {64, 1, 1}, {64, 1, 1});
    const uint64_t out = l.buffer({}, 64u << (shift - 2));
    l.mem.write(l.d.kernarg_address, &out, 8);
    const LaunchTrace t = trace_of(l);
    LineStream::Reader r(t.waves[0].lines);
    std::vector<uint64_t> lines;
    ASSERT_TRUE(r.next(lines));
    const uint32_t n = shift == 2 ? 4 : 64;  // 256 contiguous bytes, or one line per lane
    ASSERT_EQ(lines.size(), n);
    for (uint32_t i = 0; i < n; ++i) EXPECT_EQ(lines[i], (out >> 6) + i);
    EXPECT_FALSE(r.next(lines));
    EXPECT_EQ(producers(t.waves[0], 6), (std::vector<uint32_t>{4, 5}));  // the address's two halves
  }
}

TEST(GpumechTraceCollector, LineStreamReadsBackWhatItStored) {
  const std::vector<std::vector<uint64_t>> in = {
      {100, 101, 102}, {}, {7}, {uint64_t{1} << 50, 3, (uint64_t{1} << 58) + 5}, {3, 2, 1, 0}};
  LineStream s;
  for (const auto& lines : in) s.append(lines);
  LineStream::Reader r(s);
  std::vector<uint64_t> got;
  for (const auto& lines : in) {
    ASSERT_TRUE(r.next(got));
    EXPECT_EQ(got, lines);
  }
  EXPECT_FALSE(r.next(got));
}

TEST(GpumechTraceCollector, ConsecutiveLinesCostAByteEach) {
  LineStream s;
  const uint64_t base = uint64_t{1} << 40;
  for (uint64_t i = 0; i < 1000; ++i) {
    const uint64_t lines[4] = {base + 4 * i, base + 4 * i + 1, base + 4 * i + 2, base + 4 * i + 3};
    s.append(lines);
  }
  EXPECT_LE(s.bytes(), 1000u * 5 + 8);  // a count and four one-byte steps; the first line is long
}

TEST(GpumechTraceCollector, TracingPastTheCapFailsLoudly) {
  AsmLaunch l("s_nop 0\ns_nop 0\ns_endpgm\n", KdSpec{}, {128, 1, 1}, {64, 1, 1});
  EXPECT_EQ(trace_of(l, TraceOptions{64, 6}).instructions, 6u);
  AsmLaunch again("s_nop 0\ns_nop 0\ns_endpgm\n", KdSpec{}, {128, 1, 1}, {64, 1, 1});
  EXPECT_THROW(trace_of(again, TraceOptions{64, 5}), InputError);
}

TEST(GpumechTraceCollector, WavesComeInWorkGroupOrder) {
  AsmLaunch l("s_barrier\ns_endpgm\n", KdSpec{}, {256, 1, 1}, {128, 1, 1});
  const LaunchTrace t = trace_of(l);
  EXPECT_EQ(t.workgroups, 2u);
  EXPECT_EQ(t.waves_per_group, 2u);
  ASSERT_EQ(t.waves.size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(t.waves[i].workgroup, i / 2);
    EXPECT_EQ(t.waves[i].wave, i % 2);
    EXPECT_EQ(t.waves[i].size(), 2u);
  }
  EXPECT_EQ(t.instructions, 8u);
}

/// The trace of emu::test::kGroupLoopStoreAsm over `groups` one-wave groups, encoded, on
/// `threads` host threads with a cap of `cap` instructions.
std::string group_loop_trace(uint32_t groups, uint32_t threads, uint64_t cap = kDefaultMaxInstructions) {
  AsmLaunch l(emu::test::kGroupLoopStoreAsm, KdSpec{}, {64 * groups, 1, 1}, {64, 1, 1});
  const uint64_t out = l.buffer({}, 64 * groups);
  l.mem.write(l.d.kernarg_address, &out, 8);
  SavedTrace s;
  s.trace = trace_of(l, TraceOptions{64, cap, threads});
  EXPECT_EQ(s.trace.workgroups, groups);
  EXPECT_EQ(s.trace.waves.size(), groups);
  for (uint32_t g = 0; g < s.trace.waves.size(); ++g) EXPECT_EQ(s.trace.waves[g].workgroup, g);
  return encode_saved_trace(s);
}

TEST(GpumechTraceCollector, ATraceOnThreeThreadsIsTheOneOneThreadCollects) {
  EXPECT_EQ(group_loop_trace(41, 3), group_loop_trace(41, 1));
}

TEST(GpumechTraceCollector, TheCapHoldsForTheWholeLaunchOnThreads) {
  // 41 groups of 13 + 4 * trips instructions, trips = group mod 4 + 1: 11 * 17 + 10 * (21 + 25 +
  // 29) = 937 in all. Each thread's part stays far below the cap, which is on their sum.
  EXPECT_NO_THROW(group_loop_trace(41, 3, 937));
  EXPECT_THROW(group_loop_trace(41, 3, 936), InputError);
  EXPECT_THROW(group_loop_trace(41, 1, 936), InputError);
}

}  // namespace
}  // namespace strobe::sampling::gpumech
