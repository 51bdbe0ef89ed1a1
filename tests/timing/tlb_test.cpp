// Address translation: off unless asked for; on, a pointer chase pays the L1 TLB's latency on
// every access, the L2 TLB's after an L1 TLB miss and a page walk on a page's first touch;
// misses to one page merge into one walk, and fewer walkers make walks wait.
#include <gtest/gtest.h>

#include <cmath>

#include "common/error.h"
#include "timing_harness.h"

namespace strobe::timing {
namespace {

using test::KernelHarness;
using test::per_step;
using test::cyclic_chain;
using test::r9nano;

TEST(Tlb, TranslationIsOffInThePresetAndAddsNoCounters) {
  const GpuConfig cfg = r9nano({"gpu.num_cus=4"});
  EXPECT_EQ(cfg.tlb_enabled, "off");
  KernelHarness h("pointer_chase", "chase");
  const uint64_t next = h.upload(cyclic_chain(4, 64)), out = h.zeros(4);
  Gpu gpu(cfg);
  const LaunchTiming t = gpu.run(h.dispatch(1, 1, {next, 8u, out}), h.mem);
  for (const std::string& n : t.stats.names()) EXPECT_NE(n.rfind("tlb.", 0), 0u) << n;
}

TEST(Tlb, AChaseWithinOnePagePaysTheL1TlbLatencyPerStep) {
  const auto chain = cyclic_chain(16, 64);  // 1 KiB: one page
  const double off = per_step(r9nano({"gpu.num_cus=4"}), chain, 64, 320);
  const double on = per_step(r9nano({"gpu.num_cus=4", "tlb.enabled=on"}), chain, 64, 320);
  EXPECT_NEAR(on - off, 4.0, 0.5);  // tlb.l1_latency
}

TEST(Tlb, AChaseOverNewPagesPaysAWalkPerPageAndLaterLapsHitTheL2Tlb) {
  // 128 pages, one line each: more pages than an L1 TLB holds, so every step misses it.
  const auto chain = cyclic_chain(128, 4096);
  const GpuConfig off = r9nano({"gpu.num_cus=4"}), on = r9nano({"gpu.num_cus=4", "tlb.enabled=on"});
  // The first lap: every page is new to the L2 TLB too.
  const double first = per_step(on, chain, 16, 112) - per_step(off, chain, 16, 112);
  RecordProperty("first_lap_extra_cycles", std::to_string(first));
  EXPECT_NEAR(first, 4.0 + 10.0 + 100.0, 3.0);  // l1 + l2 lookups + one walk
  // The second lap: the L2 TLB has them all.
  const double second = per_step(on, chain, 144, 240) - per_step(off, chain, 144, 240);
  EXPECT_NEAR(second, 4.0 + 10.0, 3.0);
}

/// Counter `name` of a stream_read launch over `groups` groups on 16 CUs with `overrides`.
uint64_t stream_counter(const std::string& name, std::initializer_list<const char*> overrides, uint64_t* cycles) {
  GpuConfig cfg = r9nano({"gpu.num_cus=16", "tlb.enabled=on"});
  for (const char* o : overrides) apply_override(cfg, o);
  KernelHarness h("stream", "stream_read");
  const uint32_t items = 64 * 64;
  const uint64_t in = h.zeros(uint64_t(items) * 2 * 16), out = h.zeros(uint64_t(items) * 4);
  Gpu gpu(cfg);
  const LaunchTiming t = gpu.run(h.dispatch(items, 64, {in, out, 2}), h.mem);
  if (cycles) *cycles = t.cycles;
  return t.stats.get(name);
}

TEST(Tlb, ManyCusMissingOnOnePageWalkItOnce) {
  // 128 KiB read and 16 KiB written: 36 data pages, plus the code's and the kernel arguments'.
  const uint64_t walks = stream_counter("tlb.l2.misses", {}, nullptr);
  EXPECT_GE(walks, 36u);
  EXPECT_LE(walks, 36u + 6u);
  // Each CU's vector TLB misses every page its groups touch, and the other CUs' misses to that
  // page find it in the L2 TLB (or its walk under way).
  EXPECT_GT(stream_counter("tlb.l2.hits", {}, nullptr), walks);
}

TEST(Tlb, OneWalkerMakesWalksWaitAndTheKernelSlower) {
  uint64_t many = 0, one = 0;
  EXPECT_EQ(stream_counter("tlb.walk_wait_cycles", {"tlb.walkers=64"}, &many), 0u);
  EXPECT_GT(stream_counter("tlb.walk_wait_cycles", {"tlb.walkers=1"}, &one), 0u);
  EXPECT_GT(one, many);
}

TEST(Tlb, APageSizeThatIsNotAPowerOfTwoIsRefusedByKey) {
  GpuConfig cfg = r9nano();
  apply_override(cfg, "tlb.page_bytes=3000");
  try {
    validate(cfg);
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("tlb.page_bytes"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace strobe::timing
