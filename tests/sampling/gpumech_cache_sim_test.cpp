// GPUMech's cache-only simulation: a streaming kernel misses the L1 on every access, a kernel
// re-reading one small buffer hits it after the first touch, the replay is deterministic, and
// work-groups land on the CUs the detailed model's dispatcher picks.
#include "sampling/gpumech/cache_sim.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <utility>
#include <vector>

#include "emu/emu_test_util.h"
#include "sampling/gpumech/trace_collector.h"
#include "timing/cu/cu_params.h"
#include "timing/gpu/gpu.h"
#include "timing/gpu/launch_observer.h"

namespace strobe::sampling::gpumech {
namespace {

using emu::test::AsmLaunch;
using emu::test::KdSpec;

/// vecadd (kernels/workloads/vecadd.cl) over `n` floats, traced; every element is read and
/// written once, so no line is touched twice.
struct Vecadd {
  emu::test::CompiledKernel k{emu::test::kernel_path("workloads/vecadd"), "vecadd"};
  emu::GlobalMemory mem;
  std::vector<StaticInst> statics = static_insts(k.program);
  LaunchTrace trace;
  explicit Vecadd(uint32_t n) {
    const uint64_t a = mem.allocate(n * 4, 256, "a"), b = mem.allocate(n * 4, 256, "b"), c = mem.allocate(n * 4, 256, "c");
    using emu::test::Arg;
    const emu::Dispatch d = emu::test::prepare_launch(mem, k, {n, 1, 1}, {256, 1, 1},
                                                      {{Arg::Pointer, a}, {Arg::Pointer, b}, {Arg::Pointer, c}, {Arg::U32, n}});
    trace = collect_trace(d, mem, statics, TraceOptions{});
  }
};

bool kernels_built() { return std::filesystem::exists(emu::test::kernel_path("workloads/vecadd")); }

TEST(GpumechCacheSim, AStreamingKernelMissesTheL1EveryTime) {
  if (!kernels_built()) GTEST_SKIP() << "kernels not built";
  Vecadd v(64 * 256);
  const timing::GpuConfig cfg;
  const CacheSimResult r = simulate_caches(v.trace, v.statics, cfg, 8);
  uint64_t reads = 0;
  for (size_t pc = 0; pc < r.per_pc.size(); ++pc) {
    const PcEvents& e = r.per_pc[pc];
    if (e.total() == 0) continue;
    EXPECT_EQ(e.l1_hit, 0u) << "pc " << pc;
    EXPECT_EQ(e.l2_hit, 0u) << "pc " << pc;  // cold and never reused: DRAM (or a new dirty line)
    EXPECT_EQ(e.total(), v.trace.waves.size()) << "pc " << pc;
    if (v.statics[pc].access == MemAccess::Read) ++reads;
  }
  EXPECT_EQ(reads, 2u);
  EXPECT_EQ(r.l1_hits, 0u);
  EXPECT_EQ(r.requests, 3u * 4 * v.trace.waves.size());  // a, b, c: four 64-byte lines per wave
}

// Every lane reads its dword of the buffer in s[4:5] eight times.
const char* const kReread = R"(
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  v_lshlrev_b32 v1, 2, v0
  s_mov_b32 s6, 8
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v5, s5
  v_add_u32 v6, vcc, s4, v1
  v_addc_u32 v7, vcc, v5, 0, vcc
loop:
  flat_load_dword v2, v[6:7]
  s_waitcnt vmcnt(0)
  s_sub_u32 s6, s6, 1
  s_cmp_lg_u32 s6, 0
  s_cbranch_scc1 loop
  s_endpgm
)";

TEST(GpumechCacheSim, RereadingASmallBufferHitsTheL1AfterTheFirstTouch) {
  AsmLaunch l(kReread, KdSpec{}, {64, 1, 1}, {64, 1, 1});
  const uint64_t buf = l.buffer({}, 64);
  l.mem.write(l.d.kernarg_address, &buf, 8);
  const std::vector<StaticInst> statics = static_insts(l.program);
  const LaunchTrace t = collect_trace(l.d, l.mem, statics, TraceOptions{});
  const CacheSimResult r = simulate_caches(t, statics, timing::GpuConfig{}, 1);
  const PcEvents& e = r.per_pc.at(7);
  EXPECT_EQ(e.l2_miss, 1u);
  EXPECT_EQ(e.l2_hit, 0u);
  EXPECT_EQ(e.l1_hit, 7u);
  EXPECT_EQ(r.requests, 8u * 4);
  EXPECT_EQ(r.l1_hits, 7u * 4);
  const MissEvents m = e.distribution();
  EXPECT_DOUBLE_EQ(m.l1_hit, 7.0 / 8);
  EXPECT_DOUBLE_EQ(m.l2_miss, 1.0 / 8);
}

TEST(GpumechCacheSim, TheReplayIsDeterministic) {
  if (!kernels_built()) GTEST_SKIP() << "kernels not built";
  Vecadd v(256 * 256);
  timing::GpuConfig cfg;
  cfg.num_cus = 4;
  cfg.l1v_size_kb = 1;  // small caches with random replacement: evictions decide the outcome
  cfg.l2_size_kb = 16;
  cfg.l1v_replacement = "random";
  cfg.l2_replacement = "random";
  const CacheSimResult a = simulate_caches(v.trace, v.statics, cfg, 2);
  const CacheSimResult b = simulate_caches(v.trace, v.statics, cfg, 2);
  EXPECT_EQ(a.cu_of_group, b.cu_of_group);
  EXPECT_EQ(a.l1_hits, b.l1_hits);
  EXPECT_EQ(a.l2_hits, b.l2_hits);
  EXPECT_EQ(a.l2_misses, b.l2_misses);
  ASSERT_EQ(a.per_pc.size(), b.per_pc.size());
  for (size_t pc = 0; pc < a.per_pc.size(); ++pc) {
    EXPECT_EQ(a.per_pc[pc].l1_hit, b.per_pc[pc].l1_hit);
    EXPECT_EQ(a.per_pc[pc].l2_hit, b.per_pc[pc].l2_hit);
    EXPECT_EQ(a.per_pc[pc].l2_miss, b.per_pc[pc].l2_miss);
  }
}

/// Records the CU of every wave the detailed model starts, in the order they start.
struct WaveStarts : timing::LaunchObserver {
  uint32_t slots_per_cu;
  std::vector<std::pair<uint64_t, uint32_t>> starts;  // cycle, CU
  explicit WaveStarts(uint32_t slots) : slots_per_cu(slots) {}
  void wave_begin(timing::WaveKey w, uint64_t cycle) override { starts.emplace_back(cycle, w / slots_per_cu); }
  void basic_block(timing::WaveKey, uint32_t, uint32_t, uint64_t, uint64_t) override {}
  void wave_end(timing::WaveKey, uint64_t) override {}
  std::optional<uint64_t> predict_workgroup(const emu::Executor&, emu::WorkGroup&, emu::DispatchStats&,
                                            uint64_t, uint32_t) override {
    return std::nullopt;
  }
};

/// The CU of each one-wave work-group of a `groups`-group launch in the detailed model.
std::vector<uint32_t> detailed_placement(const timing::GpuConfig& cfg, uint32_t groups) {
  AsmLaunch l("v_mov_b32 v1, v0\ns_endpgm\n", KdSpec{}, {64 * groups, 1, 1}, {64, 1, 1});
  timing::Gpu gpu(cfg);
  WaveStarts obs(uint32_t(cfg.simds_per_cu * cfg.wave_slots_per_simd));
  gpu.run(l.d, l.mem, &obs);
  std::stable_sort(obs.starts.begin(), obs.starts.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<uint32_t> cus;
  for (const auto& s : obs.starts) cus.push_back(s.second);
  return cus;
}

/// The same launch's placement in the cache-only simulation.
std::vector<uint32_t> simulated_placement(const timing::GpuConfig& cfg, uint32_t groups) {
  AsmLaunch l("v_mov_b32 v1, v0\ns_endpgm\n", KdSpec{}, {64 * groups, 1, 1}, {64, 1, 1});
  const std::vector<StaticInst> statics = static_insts(l.program);
  const LaunchTrace t = collect_trace(l.d, l.mem, statics, TraceOptions{});
  const timing::CuResources res = timing::cu_resources(cfg);
  const timing::Occupancy occ = timing::occupancy(timing::dispatch_needs(l.d, res), res);
  return simulate_caches(t, statics, cfg, occ.workgroups_per_cu).cu_of_group;
}

TEST(GpumechCacheSim, PlacementMatchesTheDispatchersForASimpleGrid) {
  timing::GpuConfig cfg;
  cfg.num_cus = 4;
  EXPECT_EQ(simulated_placement(cfg, 10), detailed_placement(cfg, 10));  // all resident at once
  cfg.max_workgroups_per_cu = 1;  // groups wait for room: each goes where one retired
  EXPECT_EQ(simulated_placement(cfg, 10), detailed_placement(cfg, 10));
}

}  // namespace
}  // namespace strobe::sampling::gpumech
