// The model against its own configuration: microbenchmark kernels measure latency, bandwidth,
// throughput, bank conflicts and occupancy, and must reproduce the configured values within
// the tolerance each test states.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <numeric>

#include <nlohmann/json.hpp>

#include "report/timing_json.h"
#include "timing_harness.h"

namespace strobe::timing {
namespace {

using test::KernelHarness;
using test::r9nano;
using test::chase_cycles;
using test::cyclic_chain;
using test::per_step;

// The chase loop itself (address arithmetic, branch, waitcnt) costs cycles per step on top of
// the load latency, most of them the 64-bit shift of the index (cu.valu_int64_cycles: 32 on the
// R9 Nano); the tests allow this much.
constexpr double kLoopOverhead = 64;

TEST(Microbench, PointerChaseInL1MeasuresTheL1Latency) {
  GpuConfig cfg = r9nano({"gpu.num_cus=4"});
  const double step = per_step(cfg, cyclic_chain(16, 64), 64, 320);
  const double want = double(cfg.l1v_latency);
  EXPECT_GE(step, want);
  EXPECT_LE(step, want + kLoopOverhead);
  RecordProperty("l1_step_cycles", std::to_string(step));
}

TEST(Microbench, PointerChaseInL2MeasuresTheL2Latency) {
  GpuConfig cfg = r9nano({"gpu.num_cus=4"});
  // 1024 lines (64 KiB) thrash the 16 KiB L1 but fit the L2; the second lap hits in L2.
  const double step = per_step(cfg, cyclic_chain(1024, 64), 1024, 1536);
  const double want = double(cfg.l1v_latency + 2 * cfg.noc_latency + cfg.l2_latency);
  EXPECT_GE(step, want);
  EXPECT_LE(step, want + kLoopOverhead);
  RecordProperty("l2_step_cycles", std::to_string(step));
}

TEST(Microbench, PointerChaseThroughDramMeasuresTheDramLatency) {
  GpuConfig cfg = r9nano({"gpu.num_cus=4"});
  // L2 tag lookup, then the DRAM access; every step touches a new line in a new DRAM row: no cache hits.
  const double step = per_step(cfg, cyclic_chain(640, 2112), 128, 512);
  const double ns_to_cycles = cfg.clock_mhz / cfg.dram_clock_mhz;
  const double access_min = double(cfg.dram_trcd + cfg.dram_tcl) * ns_to_cycles;
  const double access_max = double(cfg.dram_trp + cfg.dram_trcd + cfg.dram_tcl) * ns_to_cycles;
  const double burst = double(cfg.line_bytes) / (cfg.dram_bandwidth_gbs * 1000 / cfg.clock_mhz / double(cfg.dram_channels));
  const double base = double(cfg.l1v_latency + 2 * cfg.noc_latency + cfg.l2_latency + cfg.dram_controller_cycles) + burst;
  EXPECT_GE(step, base + access_min);
  EXPECT_LE(step, base + access_max + kLoopOverhead);
  RecordProperty("dram_step_cycles", std::to_string(step));
}

TEST(Microbench, StreamingReadsReachTheConfiguredDramBandwidth) {
  GpuConfig cfg = r9nano();
  KernelHarness h("stream", "stream_read");
  const uint32_t items = 64 * 8 * 64, per_item = 16;  // 8 waves per CU, 8 MiB read
  const uint64_t in = h.zeros(uint64_t(items) * per_item * 16);
  const uint64_t out = h.zeros(uint64_t(items) * 4);
  Gpu gpu(cfg);
  LaunchTiming t = gpu.run(h.dispatch(items, 256, {in, out, per_item}), h.mem);
  const double bytes = double(t.stats.get("dram.bytes"));
  EXPECT_GE(bytes, double(items) * per_item * 16);
  const double peak = cfg.dram_bandwidth_gbs * 1000 / cfg.clock_mhz;  // bytes per cycle
  const double achieved = bytes / double(t.cycles - uint64_t(cfg.launch_overhead_cycles));
  // Ramp-up and drain are inside the measured window: at least 80% of peak, never above it.
  EXPECT_GE(achieved, 0.80 * peak) << ::strobe::report::launch_timing_json(t).dump(1);
  EXPECT_LE(achieved, 1.001 * peak);
  RecordProperty("dram_bytes_per_cycle", std::to_string(achieved));
}

/// DRAM bytes and cycles of stream_read (gfx942 code) on the MI300X preset, `per_item` 16-byte
/// reads by each of 8 waves per CU.
std::pair<double, double> mi300x_stream(uint32_t per_item) {
  GpuConfig cfg = load_config("mi300x");
  KernelHarness h("timing/stream", "stream_read", true);
  const uint32_t items = uint32_t(cfg.num_cus) * 8 * 64;
  const uint64_t in = h.zeros(uint64_t(items) * per_item * 16);
  const uint64_t out = h.zeros(uint64_t(items) * 4);
  Gpu gpu(cfg);
  LaunchTiming t = gpu.run(h.dispatch(items, 256, {in, out, per_item}), h.mem);
  EXPECT_GE(double(t.stats.get("dram.bytes")), double(items) * per_item * 16);
  return {double(t.stats.get("dram.bytes")), double(t.cycles)};
}

TEST(Microbench, Mi300xStreamingReachesItsHbmBandwidth) {
  // The difference of two sizes (20 and 40 MiB of reads) removes the launch, ramp-up and drain.
  const auto [bytes1, cycles1] = mi300x_stream(8);
  const auto [bytes2, cycles2] = mi300x_stream(16);
  const GpuConfig cfg = load_config("mi300x");
  const double peak = cfg.dram_bandwidth_gbs * 1000 / cfg.clock_mhz;  // bytes per cycle
  const double achieved = (bytes2 - bytes1) / (cycles2 - cycles1);
  EXPECT_GE(achieved, 0.90 * peak);
  EXPECT_LE(achieved, 1.001 * peak);
  RecordProperty("hbm_bytes_per_cycle", std::to_string(achieved));
  RecordProperty("hbm_gbs", std::to_string(achieved * cfg.clock_mhz / 1000));
}

/// VALU lane-operations and cycles of fma_peak with `iters` loop iterations on a fresh GPU.
std::pair<double, double> fma_run(const GpuConfig& cfg, uint32_t iters) {
  KernelHarness h("valu_peak", "fma_peak");
  const uint32_t waves = uint32_t(cfg.num_cus * cfg.simds_per_cu) * 2;
  const uint64_t out = h.zeros(uint64_t(waves) * 64 * 4);
  Gpu gpu(cfg);
  LaunchTiming t = gpu.run(h.dispatch(waves * 64, 64, {out, iters}), h.mem);
  return {double(t.stats.sum("cu.", ".issued.valu")) * 64, double(t.cycles)};
}

TEST(Microbench, FmaLoopReachesPeakVectorThroughput) {
  GpuConfig cfg = r9nano({"gpu.num_cus=4"});
  // The difference of two loop lengths removes launch and cold instruction fetch.
  const auto [lanes1, cycles1] = fma_run(cfg, 32);
  const auto [lanes2, cycles2] = fma_run(cfg, 160);
  const double achieved = (lanes2 - lanes1) / (cycles2 - cycles1);
  const double peak = double(cfg.num_cus * cfg.simds_per_cu * cfg.simd_width);  // lanes per cycle
  // Each taken loop branch refetches its target, and both waves of a SIMD tend to reach the
  // branch together: measured 87% of peak; the test requires at least 85%.
  EXPECT_GE(achieved, 0.85 * peak);
  EXPECT_LE(achieved, peak);
  RecordProperty("valu_lanes_per_cycle", std::to_string(achieved));
}

/// FLOPs and cycles of mfma_f16_peak with one wave per SIMD, `iters` loop iterations.
std::pair<double, double> mfma_run(const GpuConfig& cfg, uint32_t iters) {
  KernelHarness h("gfx942/mfma_peak", "mfma_f16_peak", true);
  const uint32_t waves = uint32_t(cfg.num_cus * cfg.simds_per_cu);
  const uint64_t out = h.zeros(uint64_t(waves) * 64 * 4);
  Gpu gpu(cfg);
  LaunchTiming t = gpu.run(h.dispatch(waves * 64, 64, {out, iters}), h.mem);
  // 16 v_mfma_f32_16x16x16_f16 per iteration, 2 x 16 x 16 x 16 FLOPs each.
  return {double(waves) * iters * 16 * 8192, double(t.cycles)};
}

TEST(Microbench, MfmaLoopReachesMatrixCorePeak) {
  GpuConfig cfg = r9nano({"gpu.num_cus=4", "gpu.isa=gfx942"});
  const auto [flops1, cycles1] = mfma_run(cfg, 16);
  const auto [flops2, cycles2] = mfma_run(cfg, 80);
  const double achieved = (flops2 - flops1) / (cycles2 - cycles1);
  // One 16-cycle v_mfma_f32_16x16x16_f16 per SIMD at a time: 2,048 FLOPs per CU per cycle.
  const double peak = double(cfg.num_cus * cfg.simds_per_cu) * 8192 / 16;
  EXPECT_GE(achieved, 0.9 * peak);
  EXPECT_LE(achieved, peak);
  RecordProperty("mfma_flops_per_cycle", std::to_string(achieved));
}

TEST(Microbench, MatrixCoreCyclesAreChargedPerSimd) {
  GpuConfig cfg = r9nano({"gpu.num_cus=4", "gpu.isa=gfx942"});
  KernelHarness h("gfx942/mfma_peak", "mfma_f16_peak", true);
  const uint64_t out = h.zeros(64 * 4);
  Gpu gpu(cfg);
  LaunchTiming t = gpu.run(h.dispatch(64, 64, {out, 8}), h.mem);
  // One wave: 8 x 16 MFMAs of 16 cycles each, on one SIMD's matrix core.
  EXPECT_EQ(t.stats.sum("cu.", ".matrix_busy"), 8u * 16 * 16);
  EXPECT_GE(t.cycles, 8u * 16 * 16);
}

/// LDS busy cycles and kernel cycles of lds_stride at `stride` (one work-group of 64).
std::pair<uint64_t, uint64_t> lds_run(uint32_t stride) {
  GpuConfig cfg = r9nano({"gpu.num_cus=4"});
  KernelHarness h("lds_stride", "lds_stride");
  const uint64_t out = h.zeros(64 * 4);
  Gpu gpu(cfg);
  LaunchTiming t = gpu.run(h.dispatch(64, 64, {out, stride, 256}), h.mem);
  return {t.stats.sum("cu.", ".busy.lds"), t.cycles};
}

TEST(Microbench, LdsBankConflictsSerialiseAccesses) {
  const auto [busy1, cycles1] = lds_run(1);
  const auto [busy4, cycles4] = lds_run(4);
  const auto [busy32, cycles32] = lds_run(32);
  // 2 cycles per conflict-free 64-lane read; an n-way conflict takes n cycles per half-wave
  // (two half-waves per read). The initialising stores are the same in every run.
  const uint64_t iters = 256;
  EXPECT_EQ(busy4 - busy1, iters * 2 * (4 - 1));
  EXPECT_EQ(busy32 - busy1, iters * 2 * (32 - 1));
  EXPECT_GT(cycles32, cycles4);
  EXPECT_GT(cycles4, cycles1);
}

TEST(Microbench, ManyVgprsMeanFewerResidentWaves) {
  GpuConfig cfg = r9nano({"gpu.num_cus=4"});
  const uint32_t items = 4 * 64 * 64;  // more than fits
  KernelHarness light("stream", "stream_read");
  const uint64_t lin = light.zeros(uint64_t(items) * 16);
  const uint64_t lout = light.zeros(uint64_t(items) * 4);
  Gpu g1(cfg);
  LaunchTiming lt = g1.run(light.dispatch(items, 256, {lin, lout, 1}), light.mem);
  EXPECT_EQ(lt.occupancy.waves_per_cu, uint32_t(cfg.simds_per_cu * cfg.wave_slots_per_simd));
  EXPECT_EQ(lt.peak_waves_per_cu, uint32_t(cfg.simds_per_cu * cfg.wave_slots_per_simd));

  KernelHarness heavy("vgpr_hog", "vgpr_hog");
  const uint64_t hin = heavy.zeros(uint64_t(items) * 24 * 16);
  const uint64_t hout = heavy.zeros(uint64_t(items) * 16);
  Gpu g2(cfg);
  LaunchTiming ht = g2.run(heavy.dispatch(items, 256, {hin, hout, items}), heavy.mem);
  const uint32_t vgprs = (heavy.kernel().kd.vgpr_granules() + 1) * 4;
  ASSERT_GE(vgprs, 96u);
  const uint32_t per_simd = uint32_t(cfg.vgprs_per_simd) / vgprs;
  EXPECT_EQ(ht.occupancy.limiter, "VGPRs");
  EXPECT_EQ(ht.occupancy.waves_per_simd, per_simd);
  EXPECT_LE(ht.peak_waves_per_cu, per_simd * uint32_t(cfg.simds_per_cu));
  EXPECT_GT(ht.peak_waves_per_cu, 0u);
}

TEST(LaunchTiming, BarrierKernelWithManyWavesComputesTheFunctionalResult) {
  GpuConfig cfg = r9nano({"gpu.num_cus=4", "cu.scheduler=gto"});
  KernelHarness h("lds_stride", "lds_stride");
  const uint32_t items = 8 * 256, stride = 3, iters = 40;
  const uint64_t out = h.zeros(items * 4);
  Gpu gpu(cfg);
  LaunchTiming t = gpu.run(h.dispatch(items, 256, {out, stride, iters}), h.mem);
  std::vector<float> got = h.download<float>(out, items);
  for (uint32_t g = 0; g < items; ++g) {
    const uint32_t lid = g % 256;
    float acc = 0;
    uint32_t idx = (lid * stride) & 2047;
    for (uint32_t i = 0; i < iters; ++i) acc += float(idx), idx = (idx + 1) & 2047;
    ASSERT_EQ(got[g], acc) << "work-item " << g;
  }
  EXPECT_EQ(t.functional.workgroups, 8u);
  EXPECT_EQ(t.functional.wavefronts, 32u);
  EXPECT_GT(t.stats.sum("cu.", ".cpi.barrier"), 0u);
}

TEST(LaunchTiming, CpiStackChargesEachCuCycleOnceAcrossLaunchesWithBarriers) {
  // Waves woken after their SIMD's turn in a cycle (barrier releases, memory responses) must
  // not give the CU a second issue turn in that cycle, and a tick in a launch's last cycle
  // belongs to the next window.
  GpuConfig cfg = r9nano({"gpu.num_cus=4"});
  KernelHarness h("lds_stride", "lds_stride");
  const uint32_t items = 8 * 256;
  const uint64_t out = h.zeros(items * 4);
  Gpu gpu(cfg);
  for (uint32_t stride : {1u, 3u, 32u}) {
    LaunchTiming t = gpu.run(h.dispatch(items, 256, {out, stride, 24}), h.mem);
    EXPECT_EQ(t.stats.sum("cu.", ".cpi.issue") + t.stats.sum("cu.", ".cpi.dependency") +
                  t.stats.sum("cu.", ".cpi.l1") + t.stats.sum("cu.", ".cpi.l2") + t.stats.sum("cu.", ".cpi.dram") +
                  t.stats.sum("cu.", ".cpi.mshr_queue") + t.stats.sum("cu.", ".cpi.dram_queue") +
                  t.stats.sum("cu.", ".cpi.barrier") + t.stats.sum("cu.", ".cpi.fetch") +
                  t.stats.sum("cu.", ".cpi.other"),
              t.cycles * uint64_t(cfg.num_cus))
        << "stride " << stride;
  }
}

TEST(Determinism, SameRunTwiceGivesIdenticalCyclesAndStats) {
  auto run = [] {
    GpuConfig cfg = r9nano({"gpu.num_cus=8"});
    KernelHarness h("stream", "stream_read");
    const uint32_t items = 8 * 4 * 64;
    const uint64_t in = h.zeros(uint64_t(items) * 4 * 16);
    const uint64_t out = h.zeros(uint64_t(items) * 4);
    Gpu gpu(cfg);
    LaunchTiming a = gpu.run(h.dispatch(items, 128, {in, out, 4}), h.mem);
    LaunchTiming b = gpu.run(h.dispatch(items, 128, {in, out, 4}), h.mem);  // warm caches
    return std::make_tuple(a.cycles, b.cycles, a.stats, b.stats, ::strobe::report::launch_timing_json(a).dump(), b.timeline.wave_instructions);
  };
  auto x = run(), y = run();
  EXPECT_EQ(std::get<0>(x), std::get<0>(y));
  EXPECT_EQ(std::get<1>(x), std::get<1>(y));
  EXPECT_TRUE(std::get<2>(x) == std::get<2>(y));
  EXPECT_TRUE(std::get<3>(x) == std::get<3>(y));
  EXPECT_EQ(std::get<4>(x), std::get<4>(y));
  EXPECT_EQ(std::get<5>(x), std::get<5>(y));
  // State persists across launches: the second launch finds its data in the L2.
  EXPECT_LT(std::get<1>(x), std::get<0>(x));
}

TEST(LaunchTiming, CpiStackCoversEveryCuCycle) {
  GpuConfig cfg = r9nano({"gpu.num_cus=4"});
  KernelHarness h("stream", "stream_read");
  const uint32_t items = 4 * 4 * 64;
  const uint64_t in = h.zeros(uint64_t(items) * 2 * 16);
  const uint64_t out = h.zeros(uint64_t(items) * 4);
  Gpu gpu(cfg);
  LaunchTiming t = gpu.run(h.dispatch(items, 64, {in, out, 2}), h.mem);
  nlohmann::json j = ::strobe::report::launch_timing_json(t);
  uint64_t total = 0;
  for (auto& [k, v] : j["cpi_stack"].items()) total += v["cycles"].get<uint64_t>();
  EXPECT_EQ(total, t.cycles * uint64_t(cfg.num_cus));
  // Cold data: waves wait on DRAM (served or queued).
  EXPECT_GT(j["cpi_stack"]["dram"]["cycles"].get<uint64_t>() + j["cpi_stack"]["dram_queue"]["cycles"].get<uint64_t>(),
            0u);
  EXPECT_EQ(t.wave_instructions, t.stats.sum("cu.", ".wave_instructions"));
  EXPECT_GT(j["caches"]["l2"]["reads"].get<uint64_t>(), 0u);
  EXPECT_FALSE(t.timeline.wave_instructions.empty());
  EXPECT_GT(t.ipc, 0.0);
}

}  // namespace
}  // namespace strobe::timing
