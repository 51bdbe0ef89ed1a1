// GPUMech's inputs from a real launch: the configuration's mapping onto ModelParams and the
// per-PC latencies, and an end-to-end prediction on real benchmark kernels.
#include "sampling/gpumech/launch_model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <vector>

#include "emu/emu_test_util.h"

namespace strobe::sampling::gpumech {
namespace {

using emu::test::Arg;

TEST(GpumechModelInputs, ParamsComeFromTheConfigurationAndOccupancy) {
  const timing::GpuConfig cfg;  // R9 Nano
  timing::Occupancy occ;
  occ.waves_per_cu = 40;
  occ.workgroups_per_cu = 10;
  const ModelParams p = model_params(cfg, occ, 1000, 4000, Policy::GreedyThenOldest);
  EXPECT_EQ(p.policy, Policy::GreedyThenOldest);
  EXPECT_EQ(p.cus, 64);
  EXPECT_EQ(p.simds_per_cu, 4);
  EXPECT_DOUBLE_EQ(p.cycles_per_slot, 4);
  EXPECT_DOUBLE_EQ(p.waves_per_cu, 40);
  EXPECT_EQ(p.mshrs_per_cu, 256);
  EXPECT_DOUBLE_EQ(p.l1_latency, 120);
  EXPECT_DOUBLE_EQ(p.l2_latency, 120 + 2 * 40 + 100);
  // L2 hit, controller, (tRCD + tCL) DRAM cycles of 2 core cycles, 64 B at 16 B per cycle.
  EXPECT_DOUBLE_EQ(p.dram_latency, 300 + 100 + 14 * 2 + 4);
  EXPECT_DOUBLE_EQ(p.core_ghz, 1.0);
  EXPECT_DOUBLE_EQ(p.line_bytes, 64);
  EXPECT_DOUBLE_EQ(p.dram_gb_per_s, 512);
  // A launch smaller than the GPU: the CUs it occupies and their average residency.
  const ModelParams small = model_params(cfg, occ, 16, 64, Policy::RoundRobin);
  EXPECT_EQ(small.cus, 16);
  EXPECT_DOUBLE_EQ(small.waves_per_cu, 4);
}

TEST(GpumechModelInputs, OnlyRoundRobinAndGreedyThenOldestAreModelled) {
  EXPECT_EQ(policy_of("rr"), Policy::RoundRobin);
  EXPECT_EQ(policy_of("gto"), Policy::GreedyThenOldest);
  EXPECT_FALSE(policy_of("oldest").has_value());
}

bool built(const char* stem) { return std::filesystem::exists(emu::test::kernel_path(stem)); }

TEST(GpumechLaunchModel, VecaddPredictsAFinitePositiveCpi) {
  if (!built("workloads/vecadd")) GTEST_SKIP() << "kernels not built";
  emu::test::CompiledKernel k(emu::test::kernel_path("workloads/vecadd"), "vecadd");
  emu::GlobalMemory mem;
  const uint32_t n = 64 * 1024;
  const uint64_t a = mem.allocate(n * 4, 256, "a"), b = mem.allocate(n * 4, 256, "b"), c = mem.allocate(n * 4, 256, "c");
  std::vector<float> x(n);
  for (uint32_t i = 0; i < n; ++i) x[i] = float(i);
  mem.write(a, x.data(), n * 4);
  mem.write(b, x.data(), n * 4);
  const emu::Dispatch d = emu::test::prepare_launch(mem, k, {n, 1, 1}, {256, 1, 1},
                                                    {{Arg::Pointer, a}, {Arg::Pointer, b}, {Arg::Pointer, c}, {Arg::U32, n}});
  const timing::GpuConfig cfg;
  const LaunchModel m = model_launch(d, mem, cfg, LaunchModelOptions{});
  std::vector<float> out(n);
  mem.read(c, out.data(), n * 4);
  EXPECT_EQ(out[n - 1], 2.0f * float(n - 1));  // the functional run did the work
  EXPECT_EQ(m.instructions, m.stats.wave_instructions);
  EXPECT_EQ(m.prediction.wave_insts, m.instructions);
  EXPECT_TRUE(std::isfinite(m.prediction.cpi));
  EXPECT_GT(m.prediction.cpi, 0);
  EXPECT_GT(m.prediction.cycles, 0);
  EXPECT_GT(m.prediction.miss_latency, m.params.l2_latency);  // every load goes to DRAM
  EXPECT_EQ(m.cache.l1_hits, 0u);
}

TEST(GpumechLaunchModel, TiledMatmulPredictsAFinitePositiveCpiAtEveryLevel) {
  if (!built("workloads/mm")) GTEST_SKIP() << "kernels not built";
  emu::test::CompiledKernel k(emu::test::kernel_path("workloads/mm"), "mm");
  const uint32_t m = 64, n = 64, kk = 64;
  for (Level level : {Level::NaiveInterval, Level::MT, Level::MtMshr, Level::MtMshrBand}) {
    emu::GlobalMemory mem;
    const uint64_t a = mem.allocate(m * kk * 4, 256, "a"), b = mem.allocate(kk * n * 4, 256, "b");
    const uint64_t c = mem.allocate(m * n * 4, 256, "c");
    const emu::Dispatch d = emu::test::prepare_launch(
        mem, k, {n, m, 1}, {16, 16, 1},
        {{Arg::Pointer, a}, {Arg::Pointer, b}, {Arg::Pointer, c}, {Arg::U32, m}, {Arg::U32, n}, {Arg::U32, kk}});
    LaunchModelOptions o;
    o.level = level;
    const LaunchModel r = model_launch(d, mem, timing::GpuConfig{}, o);
    EXPECT_TRUE(std::isfinite(r.prediction.cpi));
    EXPECT_GT(r.prediction.cpi, 0);
    EXPECT_GT(r.cache.l2_hits, 0u);  // groups of a tile row (column) share the lines of A (B)
  }
}

}  // namespace
}  // namespace strobe::sampling::gpumech
