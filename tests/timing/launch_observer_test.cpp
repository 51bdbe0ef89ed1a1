// The observer interface through which sampling steers a detailed launch: what it is told, and
// what taking work-groups out of detailed simulation does to time and results.
#include "timing/gpu/launch_observer.h"

#include <gtest/gtest.h>

#include "emu/executor.h"
#include "timing/timing_harness.h"

namespace strobe::timing {
namespace {

using test::KernelHarness;
using test::r9nano;

/// Counts what the model reports and predicts the work-groups `predict` selects.
class CountingObserver final : public LaunchObserver {
 public:
  uint64_t begins = 0, ends = 0, blocks = 0, block_insts = 0, predicted_groups = 0, polls = 0;
  bool ordered = true;
  uint64_t duration = 0;
  std::function<bool(uint64_t)> predict = [](uint64_t) { return false; };
  uint64_t groups_seen = 0;

  void wave_begin(WaveKey, uint64_t) override { ++begins; }
  void basic_block(WaveKey, uint32_t, uint32_t insts, uint64_t issue, uint64_t end) override {
    ++blocks;
    block_insts += insts;
    ordered &= issue < end;
  }
  void wave_end(WaveKey, uint64_t) override { ++ends; }
  std::optional<uint64_t> predict_workgroup(const emu::Executor& ex, emu::WorkGroup& wg, emu::DispatchStats& stats,
                                            uint64_t, uint32_t) override {
    if (!predict(groups_seen++)) return std::nullopt;
    ++predicted_groups;
    ex.run_workgroup(wg, stats);
    return duration;
  }
  uint64_t poll_interval() const override { return 100; }
  void poll(uint64_t, uint64_t) override { ++polls; }
};

TEST(LaunchObserver, BasicBlocksCoverEveryDetailedInstruction) {
  KernelHarness h("valu_peak", "fma_peak");
  const uint32_t items = 64 * 64;
  const uint64_t out = h.zeros(items * 4);
  Gpu gpu(r9nano({"gpu.num_cus=4"}));
  CountingObserver obs;
  const LaunchTiming t = gpu.run(h.dispatch(items, 64, {out, 3}), h.mem, &obs);
  EXPECT_EQ(obs.begins, 64u);
  EXPECT_EQ(obs.ends, 64u);
  EXPECT_EQ(obs.block_insts, t.wave_instructions);
  EXPECT_EQ(t.detailed_wave_instructions, t.wave_instructions);
  // Three loop iterations: at least the entry, three loop bodies and the exit per wave.
  EXPECT_GE(obs.blocks, 64u * 4);
  EXPECT_TRUE(obs.ordered);
  EXPECT_GE(obs.polls, t.cycles / 100 - 1);
}

TEST(LaunchObserver, PredictedWorkGroupsHoldTheirSlotForThePredictedTime) {
  KernelHarness h("valu_peak", "fma_peak");
  // 4 CUs, one work-group each at a time: 16 predicted groups run in 4 rounds.
  Gpu gpu(r9nano({"gpu.num_cus=4", "cu.max_workgroups=1"}));
  const uint32_t items = 16 * 64;
  const uint64_t out = h.zeros(items * 4);
  CountingObserver obs;
  obs.duration = 10000;
  obs.predict = [](uint64_t) { return true; };
  const LaunchTiming t = gpu.run(h.dispatch(items, 64, {out, 2}), h.mem, &obs);
  EXPECT_EQ(obs.predicted_groups, 16u);
  EXPECT_EQ(t.detailed_wave_instructions, 0u);
  EXPECT_EQ(obs.begins, 0u);
  EXPECT_GE(t.cycles, 4u * 10000);
  EXPECT_LT(t.cycles, 4u * 10000 + 2000);  // plus launch overhead and dispatch
}

// Regression: a group skipped with no duration (TBPoint's fast-forward) still took the
// dispatcher's interval, so every skipped group added a cycle to the launch's simulated time.
TEST(LaunchObserver, GroupsSkippedWithNoDurationCostTheDispatcherNoTime) {
  KernelHarness h("valu_peak", "fma_peak");
  const uint32_t items = 4096 * 64;
  const uint64_t out = h.zeros(items * 4);
  auto cycles = [&](const char* interval) {
    Gpu gpu(r9nano({"gpu.num_cus=4", interval}));
    CountingObserver obs;
    obs.predict = [](uint64_t g) { return g > 0; };  // the first group runs, 4,095 are skipped
    const LaunchTiming t = gpu.run(h.dispatch(items, 64, {out, 2}), h.mem, &obs);
    EXPECT_EQ(obs.predicted_groups, 4095u);
    return t.cycles;
  };
  // 4,095 skipped groups at 8 cycles each would add 32,760 cycles; they add none.
  EXPECT_EQ(cycles("dispatch.workgroup_interval_cycles=8"), cycles("dispatch.workgroup_interval_cycles=1"));
}

TEST(LaunchObserver, PredictedWorkGroupsStillComputeTheirResults) {
  KernelHarness ref("valu_peak", "fma_peak"), h("valu_peak", "fma_peak");
  const uint32_t items = 32 * 64;
  const uint64_t out_ref = ref.zeros(items * 4), out = h.zeros(items * 4);
  Gpu g1(r9nano({"gpu.num_cus=4"})), g2(r9nano({"gpu.num_cus=4"}));
  const LaunchTiming full = g1.run(ref.dispatch(items, 64, {out_ref, 2}), ref.mem);
  CountingObserver obs;
  obs.duration = 500;
  obs.predict = [](uint64_t g) { return g % 2 == 1; };
  const LaunchTiming t = g2.run(h.dispatch(items, 64, {out, 2}), h.mem, &obs);
  EXPECT_EQ(obs.predicted_groups, 16u);
  EXPECT_EQ(h.download<float>(out, items), ref.download<float>(out_ref, items));
  EXPECT_EQ(t.wave_instructions, full.wave_instructions);
  EXPECT_EQ(t.detailed_wave_instructions * 2, full.wave_instructions);
  EXPECT_EQ(obs.block_insts, t.detailed_wave_instructions);
}

TEST(LaunchObserver, RegressionPredictionLongerThanTheWatchdogIsNotADeadlock) {
  // spmv's heaviest rows made Photon predict groups longer than the watchdog's window; the
  // watchdog took the wait for their scheduled retirement as a hung machine.
  KernelHarness h("valu_peak", "fma_peak");
  Gpu gpu(r9nano({"gpu.num_cus=4", "sim.watchdog_cycles=3000"}));
  const uint32_t items = 8 * 64;
  const uint64_t out = h.zeros(items * 4);
  CountingObserver obs;
  obs.duration = 20000;
  obs.predict = [](uint64_t g) { return g > 0; };
  const LaunchTiming t = gpu.run(h.dispatch(items, 64, {out, 2}), h.mem, &obs);
  EXPECT_GE(t.cycles, 20000u);
  EXPECT_EQ(obs.predicted_groups, 7u);
}

}  // namespace
}  // namespace strobe::timing
