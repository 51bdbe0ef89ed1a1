// Photon's launch observer driven with constructed callback sequences whose stability is known:
// when it switches to basic-block or warp sampling, and what it then predicts.
#include "sampling/photon/observer.h"

#include <gtest/gtest.h>

#include "emu/emu_test_util.h"
#include "timing/config/gpu_config.h"
#include "timing/cu/cu_params.h"
#include "timing/gpu/gpu.h"

namespace strobe::sampling {
namespace {

// One two-instruction block at pc 0.
const char* const kTwo = "v_mov_b32 v1, 1\ns_endpgm\n";

/// Small windows so a handful of callbacks decide; the paper's thresholds otherwise.
PhotonParams params() {
  PhotonParams p;
  p.bb_window = 4;
  p.warp_window = 4;
  return p;
}

/// The analysis of `warps` over a program whose blocks have `lengths`; 100 groups of one warp.
OnlineAnalysis analysis(const std::vector<WarpBlocks>& warps, const std::vector<uint32_t>& lengths) {
  OnlineAnalysis a = build_analysis(warps, lengths, 1, 16);
  a.workgroups = a.warps = 100;
  return a;
}

/// Tables for a program of `n` instructions (no real program: only sizes are read).
ProgramTables tables(size_t n) {
  ProgramTables t;
  t.ends.assign(n, 0);
  t.info.resize(n);
  return t;
}

struct Fixture {
  timing::GpuConfig gpu = timing::load_config("r9nano");
};

/// Reports `n` instances of the block at `start`, each `duration` cycles, 10 cycles apart.
void feed_blocks(PhotonObserver& o, uint32_t start, uint32_t len, int n, uint64_t duration, uint64_t t0 = 0) {
  for (int i = 0; i < n; ++i) o.basic_block(0, start, len, t0 + 10 * uint64_t(i), t0 + 10 * uint64_t(i) + duration);
}

TEST(PhotonObserver, StableBlocksHoldingTheShareSwitchToBasicBlockSampling) {
  Fixture f;
  const PhotonParams p = params();
  const OnlineAnalysis a = analysis({{{0, 1}}}, {4, 0, 0, 0});
  const ProgramTables t = tables(4);
  PhotonObserver o(p, f.gpu, false, a, t);
  feed_blocks(o, 0, 4, 7, 7);
  EXPECT_EQ(o.mode(), PhotonMode::Detailed);  // 2n = 8 instances needed
  feed_blocks(o, 0, 4, 1, 7, 70);
  EXPECT_EQ(o.mode(), PhotonMode::BasicBlock);
  EXPECT_EQ(o.switch_cycle(), 77u);
  EXPECT_DOUBLE_EQ(o.stable_share(), 1.0);
}

TEST(PhotonObserver, StableBlocksBelowTheShareKeepTheLaunchDetailed) {
  Fixture f;
  const PhotonParams p = params();
  // Blocks at 0 (4 long) and 4 (3 long) once per warp: block 0 holds 4/7 of the instructions.
  const OnlineAnalysis a = analysis({{{0, 1}, {4, 1}}}, {4, 0, 0, 0, 3, 0, 0});
  const ProgramTables t = tables(7);
  PhotonObserver o(p, f.gpu, false, a, t);
  feed_blocks(o, 0, 4, 100, 7);
  EXPECT_EQ(o.mode(), PhotonMode::Detailed);
  EXPECT_DOUBLE_EQ(o.stable_share(), 4.0 / 7.0);
}

TEST(PhotonObserver, ImbalancedWarpsKeepTheLaunchDetailed) {
  Fixture f;
  const PhotonParams p = params();
  // Nine warps run block 0 once, one runs it 100 times: the longest is 9x the mean.
  std::vector<WarpBlocks> warps(9, WarpBlocks{{0, 1}});
  warps.push_back({{0, 100}});
  const OnlineAnalysis a = analysis(warps, {4, 0, 0, 0});
  const ProgramTables t = tables(4);
  PhotonObserver o(p, f.gpu, false, a, t);
  EXPECT_FALSE(o.balanced());
  feed_blocks(o, 0, 4, 100, 7);
  EXPECT_EQ(o.mode(), PhotonMode::Detailed);
}

/// Runs groups 0..n-1 of one dominant-type warp each: dispatched every 100 cycles, the warp
/// lives 50 cycles and the group 60. Stops early once the observer leaves detailed mode.
void feed_groups(PhotonObserver& o, int n, uint32_t block_start = 0) {
  for (int g = 0; g < n && o.mode() == PhotonMode::Detailed; ++g) {
    const uint64_t t0 = 100 * uint64_t(g);
    const timing::WaveKey w = timing::WaveKey(g % 8);
    o.wave_begin(w, t0);
    o.basic_block(w, block_start, 4, t0 + 1, t0 + 50);
    o.wave_end(w, t0 + 50);
    o.workgroup_end(uint64_t(g), t0, t0 + 60);
  }
}

TEST(PhotonObserver, StableDominantWarpsAndGroupsSwitchToWarpSampling) {
  Fixture f;
  PhotonParams p = params();
  p.bb_level = false;
  const OnlineAnalysis a = analysis({{{0, 1}}}, {4, 0, 0, 0});
  const ProgramTables t = tables(4);
  PhotonObserver o(p, f.gpu, false, a, t);
  feed_groups(o, 100);
  ASSERT_EQ(o.mode(), PhotonMode::Warp);
  // The warp detector has 8 warps at group 7's warp end, but the group detector only the 7
  // groups retired before it; group 8's warp end finds both stable.
  EXPECT_EQ(o.switch_cycle(), 850u);
  EXPECT_DOUBLE_EQ(o.warp_time(), 60.0);  // the group residency, not the warp's 50
}

TEST(PhotonObserver, WarpsOfAnotherTypeNeverSwitchToWarpSampling) {
  Fixture f;
  PhotonParams p = params();
  p.bb_level = false;
  // 99 warps run block 0 (the dominant type), one runs block 4; the launch's warps all run 4.
  std::vector<WarpBlocks> warps(99, WarpBlocks{{0, 1}});
  warps.push_back({{4, 1}});
  const OnlineAnalysis a = analysis(warps, {4, 0, 0, 0, 4, 0, 0, 0});
  const ProgramTables t = tables(8);
  PhotonObserver o(p, f.gpu, false, a, t);
  feed_groups(o, 100, 4);
  EXPECT_EQ(o.mode(), PhotonMode::Detailed);
}

TEST(PhotonObserver, BasicBlockPredictionIsTheSlowestWavesBlocksPlusStartUp) {
  Fixture f;
  const PhotonParams p = params();
  emu::test::AsmLaunch l(kTwo, emu::test::KdSpec{}, {128, 1, 1}, {128, 1, 1});
  ProgramTables t;
  t.ends = timing::basic_block_ends(l.program);
  t.info = timing::build_inst_info(l.program, timing::inst_timing_params(f.gpu));
  const OnlineAnalysis a = analysis({{{0, 1}}}, {2, 0});
  PhotonObserver o(p, f.gpu, false, a, t);
  // Eight waves, each first issuing 3 cycles after it began, its one block taking 7 cycles.
  for (int i = 0; i < 8; ++i) {
    const uint64_t t0 = 10 * uint64_t(i);
    o.wave_begin(0, t0);
    o.basic_block(0, 0, 2, t0 + 3, t0 + 10);
    o.wave_end(0, t0 + 10);
  }
  ASSERT_EQ(o.mode(), PhotonMode::BasicBlock);
  emu::Executor ex(l.d, l.mem);
  emu::WorkGroup wg;
  ex.init_workgroup(wg, 0);
  emu::DispatchStats stats;
  const std::optional<uint64_t> cycles = o.predict_workgroup(ex, wg, stats, 0, 0);
  ASSERT_TRUE(cycles.has_value());
  EXPECT_EQ(*cycles, 3u + 7u);
  EXPECT_EQ(stats.wave_instructions, 4u);  // both waves emulated
  EXPECT_EQ(o.predicted_instructions(), 4u);
  EXPECT_EQ(o.predicted_groups(), 1u);
}

/// The cycles a basic-block-sampled group of `kDouble` is predicted to take when ten waves
/// share each SIMD of the R9 Nano, whose blocks complete in 10 cycles each in detail.
uint64_t predicted_shared_double(bool bound, bool skip) {
  // One block: a double-precision multiply-add (64 cycles of the VALU on the R9 Nano) and the end.
  const char* const kDouble = "v_fma_f64 v[0:1], v[0:1], v[0:1], v[0:1]\ns_endpgm\n";
  Fixture f;
  PhotonParams p = params();
  p.throughput_bound = bound;
  emu::test::AsmLaunch l(kDouble, emu::test::KdSpec{}, {64, 1, 1}, {64, 1, 1});
  ProgramTables t;
  t.ends = timing::basic_block_ends(l.program);
  t.info = timing::build_inst_info(l.program, timing::inst_timing_params(f.gpu));
  const OnlineAnalysis a = analysis({{{0, 1}}}, {2, 0});
  PhotonObserver o(p, f.gpu, skip, a, t);
  const uint32_t waves = f.gpu.num_cus * f.gpu.simds_per_cu * 10;
  for (uint32_t w = 0; w < waves; ++w) o.wave_begin(w, 0);
  // The served waves' blocks: the only ones to end before the detector decides.
  feed_blocks(o, 0, 2, 8, 10);
  EXPECT_EQ(o.mode(), PhotonMode::BasicBlock);
  emu::Executor ex(l.d, l.mem);
  emu::WorkGroup wg;
  ex.init_workgroup(wg, 0);
  emu::DispatchStats stats;
  return o.predict_workgroup(ex, wg, stats, 0, 0).value();
}

TEST(PhotonObserver, AGroupSharingItsSimdWithNineOthersHoldsItsSlotForTheirValuCycles) {
  // Little's law on the VALU: ten resident waves each needing 64 cycles of it complete one per
  // 64 cycles, so each stays 640; the blocks' own 10 cycles are what the served wave saw.
  EXPECT_EQ(predicted_shared_double(true, false), 640u);
  EXPECT_EQ(predicted_shared_double(true, true), 640u);  // from the sample's block counts
  EXPECT_EQ(predicted_shared_double(false, false), 10u);  // the paper's rule
}

TEST(PhotonObserver, DetailedLaunchesSimulateEveryGroup) {
  Fixture f;
  const PhotonParams p = params();
  emu::test::AsmLaunch l(kTwo, emu::test::KdSpec{}, {64, 1, 1}, {64, 1, 1});
  const ProgramTables t = tables(2);
  const OnlineAnalysis a = analysis({{{0, 1}}}, {2, 0});
  PhotonObserver o(p, f.gpu, false, a, t);
  emu::Executor ex(l.d, l.mem);
  emu::WorkGroup wg;
  ex.init_workgroup(wg, 0);
  emu::DispatchStats stats;
  EXPECT_FALSE(o.predict_workgroup(ex, wg, stats, 0, 0).has_value());
  EXPECT_EQ(stats.wave_instructions, 0u);
}

}  // namespace
}  // namespace strobe::sampling
