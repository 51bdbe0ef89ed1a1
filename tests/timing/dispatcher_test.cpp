// The dispatcher's launch overheads: before the first work-group and after the last.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "timing/engine/events.h"
#include "timing/gpu/dispatcher.h"
#include "timing_harness.h"

namespace strobe::timing {
namespace {

using test::KernelHarness;
using test::r9nano;

/// Cycles of a 16-group streaming launch on a fresh 4-CU GPU with `sets` applied.
uint64_t stream_cycles(const std::vector<std::string>& sets) {
  GpuConfig cfg = r9nano({"gpu.num_cus=4"});
  for (const auto& s : sets) apply_override(cfg, s);
  validate(cfg);
  KernelHarness h("stream", "stream_read");
  const uint32_t items = 16 * 256;
  const uint64_t in = h.zeros(uint64_t(items) * 16), out = h.zeros(uint64_t(items) * 4);
  Gpu gpu(cfg);
  return gpu.run(h.dispatch(items, 256, {in, out, 1}), h.mem).cycles;
}

TEST(Dispatcher, CompletionCyclesEndTheLaunchThatMuchAfterItsLastWorkgroup) {
  const uint64_t base = stream_cycles({});
  EXPECT_EQ(stream_cycles({"dispatch.completion_cycles=3600"}), base + 3600);
  EXPECT_EQ(stream_cycles({"dispatch.launch_overhead_cycles=0"}) + 1000, base);  // the preset's 1000 before
}

TEST(Dispatcher, ACompletionLongerThanTheWatchdogIsNotAStall) {
  // No instruction issues while the launch completes; the watchdog must not call that a hang.
  const uint64_t base = stream_cycles({"sim.watchdog_cycles=5000"});
  EXPECT_EQ(stream_cycles({"sim.watchdog_cycles=5000", "dispatch.completion_cycles=20000"}), base + 20000);
}

}  // namespace
}  // namespace strobe::timing

namespace strobe::timing {
namespace {

TEST(Dispatcher, AnEventKindItDoesNotHandleIsAWiringErrorNamingIt) {
  // Components used to drop unknown kinds silently; a mis-wired event now stops the run.
  Engine engine;
  Dispatcher d(engine, {}, DispatcherParams{});
  try {
    d.handle(Cycle{0}, kGfxRasterStep, 0);
    FAIL() << "an unknown event kind was dropped";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("dispatcher: event kind 14"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace strobe::timing
