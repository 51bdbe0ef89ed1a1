// The launch timeline: bounded however fine its interval, and every count in it adds up to the
// launch's own totals.
#include <gtest/gtest.h>

#include <numeric>

#include <nlohmann/json.hpp>

#include "report/timing_json.h"
#include "timing_harness.h"

namespace strobe::timing {
namespace {

using test::KernelHarness;
using test::r9nano;

LaunchTiming stream_launch(std::initializer_list<const char*> overrides) {
  GpuConfig cfg = r9nano(overrides);
  KernelHarness h("stream", "stream_read");
  const uint32_t items = 4 * 4 * 64 * 4;
  const uint64_t in = h.zeros(uint64_t(items) * 2 * 16);
  const uint64_t out = h.zeros(uint64_t(items) * 4);
  Gpu gpu(cfg);
  return gpu.run(h.dispatch(items, 64, {in, out, 2}), h.mem);
}

uint64_t total(const std::vector<uint64_t>& v) { return std::accumulate(v.begin(), v.end(), uint64_t{0}); }

TEST(Timeline, CountsAddUpToTheLaunchsTotals) {
  const LaunchTiming t = stream_launch({"gpu.num_cus=4", "sim.timeline_interval=50"});
  const Timeline& tl = t.timeline;
  ASSERT_GT(tl.samples(), 2u);
  EXPECT_EQ(total(tl.wave_instructions), t.wave_instructions);
  EXPECT_EQ(total(tl.dispatched), t.functional.workgroups);
  EXPECT_EQ(total(tl.retired), t.functional.workgroups);
  EXPECT_EQ(total(tl.cu_wave_instructions), t.wave_instructions);
  ASSERT_EQ(tl.cus, 4u);
  for (uint32_t c = 0; c < tl.cus; ++c) {
    uint64_t sum = 0;
    for (size_t i = 0; i < tl.samples(); ++i) sum += tl.cu_wave_instructions[i * tl.cus + c];
    EXPECT_EQ(sum, t.stats.get("cu." + std::to_string(c) + ".wave_instructions")) << "CU " << c;
  }
  // The samples tile the launch: the last one ends at the launch's last cycle.
  EXPECT_EQ(tl.samples(), (t.cycles + tl.interval - 1) / tl.interval);
  uint64_t spans = 0;
  for (size_t i = 0; i < tl.samples(); ++i) spans += tl.span(i, t.cycles);
  EXPECT_EQ(spans, t.cycles);
}

TEST(Timeline, AFineIntervalMergesSamplesInsteadOfGrowingPastTheBound) {
  const LaunchTiming fine = stream_launch({"gpu.num_cus=4", "sim.timeline_interval=1", "sim.timeline_samples=16"});
  const Timeline& tl = fine.timeline;
  EXPECT_LE(tl.samples(), 16u);
  EXPECT_GT(tl.samples(), 8u);  // merged only as far as it must
  EXPECT_GT(tl.interval, 1u);
  EXPECT_EQ(tl.interval & (tl.interval - 1), 0u) << "the period doubles from 1";
  EXPECT_EQ(total(tl.wave_instructions), fine.wave_instructions);
  EXPECT_EQ(total(tl.retired), fine.functional.workgroups);
  EXPECT_EQ(tl.samples(), (fine.cycles + tl.interval - 1) / tl.interval);
  // The timeline does not change the simulation.
  const LaunchTiming plain = stream_launch({"gpu.num_cus=4"});
  EXPECT_EQ(plain.cycles, fine.cycles);
}

TEST(Timeline, AZeroIntervalRecordsNothing) {
  const LaunchTiming t = stream_launch({"gpu.num_cus=4", "sim.timeline_interval=0"});
  EXPECT_EQ(t.timeline.samples(), 0u);
  EXPECT_EQ(t.timeline.interval, 0u);
}

TEST(Timeline, TheJsonKeepsThePerCuSeriesToAFewColumnsAndPerSimdUtilisation) {
  const LaunchTiming t = stream_launch({"gpu.num_cus=4", "sim.timeline_interval=10"});
  const nlohmann::json j = ::strobe::report::launch_timing_json(t);
  const auto& tl = j["timeline"];
  EXPECT_EQ(tl["wave_instructions"].size(), t.timeline.samples());
  EXPECT_LE(tl["cu_wave_instructions"].size(), 16u);
  uint64_t cu_sum = 0;
  for (const auto& col : tl["cu_wave_instructions"])
    for (const auto& v : col) cu_sum += v.get<uint64_t>();
  EXPECT_EQ(cu_sum, t.wave_instructions);
  EXPECT_FALSE(j.contains("utilisation")) << "the run summary's, not every launch's";
  const nlohmann::json run = ::strobe::report::timing_summary_json(t.stats, t.cycles);
  const auto& u = run["utilisation"];
  EXPECT_EQ(u["cycles"], t.cycles);
  EXPECT_EQ(u["cus"], 4);
  EXPECT_EQ(u["simds"], 4);
  uint64_t issued = 0, busy = 0;
  for (const auto& cu : u["issued"])
    for (const auto& v : cu) issued += v.get<uint64_t>();
  for (const auto& cu : u["valu_busy"])
    for (const auto& v : cu) busy += v.get<uint64_t>();
  EXPECT_EQ(issued, t.wave_instructions);
  EXPECT_EQ(busy, t.stats.sum("cu.", ".busy.valu"));
}

}  // namespace
}  // namespace strobe::timing
