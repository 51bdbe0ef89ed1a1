// The host side's timeline: copies at the link's rates, the launch latency overlapped with the
// work ahead of a kernel, engines that serialise their own commands and overlap each other's.
#include "timing/host/command_timeline.h"

#include <gtest/gtest.h>

namespace strobe::timing {
namespace {

GpuConfig round_rates() {
  GpuConfig c;
  c.host_to_device_gbs = 10;  // 0.1 ns per byte
  c.host_to_host_gbs = 4;     // 0.25 ns per byte
  c.host_transfer_latency_us = 1;
  c.host_launch_latency_us = 5;
  c.dram_bandwidth_gbs = 100;
  return c;
}

TEST(CommandTimeline, ACopyTakesItsLatencyPlusItsBytesAtItsDirectionsRate) {
  CommandTimeline t(round_rates());
  EXPECT_EQ(t.transfer(CommandEngine::ToDevice, 1000).busy_ns, 1000u + 100u);
  EXPECT_EQ(t.transfer(CommandEngine::ToHost, 1000).busy_ns, 1000u + 250u);
  EXPECT_EQ(t.transfer(CommandEngine::ToDevice, 1).busy_ns, 1000u + 1u);  // rounded up, never free
  const CommandWork local = t.local(1000, 1000);
  EXPECT_EQ(local.engine, CommandEngine::Compute);
  EXPECT_EQ(local.busy_ns, 20u);
  EXPECT_TRUE(local.launch);
}

TEST(CommandTimeline, TheLaunchLatencyOverlapsTheWorkAheadOfAKernel) {
  CommandTimeline t(round_rates());
  // Alone: the kernel starts the launch latency after it was queued.
  CommandTimes a = t.place(0, 0, CommandTimeline::kernel(20000));
  EXPECT_EQ(a.start, 5000u);
  EXPECT_EQ(a.end, 25000u);
  // Queued behind it: the latency has long passed when the engine frees.
  CommandTimes b = t.place(0, a.end, CommandTimeline::kernel(100));
  EXPECT_EQ(b.start, a.end);
  // Queued after the host waited for it: the latency is paid again.
  t.host_waits_until(b.end);
  CommandTimes c = t.place(t.host_ns(), b.end, CommandTimeline::kernel(100));
  EXPECT_EQ(c.start, b.end + 5000);
  EXPECT_EQ(t.totals(CommandEngine::Compute).commands, 3u);
  EXPECT_EQ(t.totals(CommandEngine::Compute).busy_ns, 20200u);
}

TEST(CommandTimeline, EnginesSerialiseTheirOwnCommandsAndOverlapEachOthers) {
  CommandTimeline t(round_rates());
  CommandTimes w1 = t.place(0, 0, t.transfer(CommandEngine::ToDevice, 10000));
  CommandTimes r1 = t.place(0, 0, t.transfer(CommandEngine::ToHost, 10000));
  CommandTimes w2 = t.place(0, 0, t.transfer(CommandEngine::ToDevice, 10000));
  CommandTimes k = t.place(0, 0, CommandTimeline::kernel(10));
  EXPECT_EQ(r1.start, 0u);
  EXPECT_EQ(w2.start, w1.end);
  EXPECT_EQ(k.start, 5000u);  // the compute engine was free
  // A marker (no engine) waits only for what it depends on.
  CommandTimes m = t.place(0, w2.end, CommandWork{});
  EXPECT_EQ(m.start, w2.end);
  EXPECT_EQ(m.end, w2.end);
  EXPECT_EQ(t.span_ns(), k.end);  // the last to end
  EXPECT_EQ(t.totals(CommandEngine::ToDevice).bytes, 20000u);
}

}  // namespace
}  // namespace strobe::timing
