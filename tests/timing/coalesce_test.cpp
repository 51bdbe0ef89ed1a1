// Coalescing lanes into line requests: the lines, their order (first touch, in lane order: the
// order the CU's memory pipeline issues them in) and whether a lane spans two lines, against a
// plain scan over every lane, for strides that rise, fall, repeat and scatter.
#include "timing/cu/coalesce.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace strobe::timing {
namespace {

/// The rule written as plainly as it reads: each lane's first and last byte's line, kept at
/// its first appearance.
std::vector<uint64_t> by_scan(const emu::MemAccessInfo& mi, uint32_t bits, bool& spans) {
  std::vector<uint64_t> out;
  spans = false;
  const uint32_t bytes = std::max<uint32_t>(1, mi.bytes_per_lane);
  for (uint32_t lane = 0; lane < emu::kWaveSize; ++lane) {
    if (!(mi.lane_mask >> lane & 1)) continue;
    const uint64_t first = mi.lane_addr[lane] >> bits, last = (mi.lane_addr[lane] + bytes - 1) >> bits;
    spans |= first != last;
    for (uint64_t line : {first, last})
      if (std::find(out.begin(), out.end(), line) == out.end()) out.push_back(line);
  }
  return out;
}

TEST(CoalesceLines, GiveEveryLaneLineOnceInFirstTouchOrderForAnyPattern) {
  uint64_t x = 99;
  auto next = [&x] { return x = x * 6364136223846793005ull + 1442695040888963407ull, x >> 31; };
  int scattered = 0, spanning = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    emu::MemAccessInfo mi;
    mi.bytes_per_lane = std::vector<uint32_t>{0, 1, 4, 8, 12, 16}[next() % 6];
    mi.lane_mask = trial % 3 ? next() << 32 ^ next() : ~uint64_t(0);
    const int pattern = trial % 5;
    const uint64_t base = next() % 100000 * 4;
    const int64_t stride = int64_t(next() % 70) - 10;
    for (uint32_t lane = 0; lane < emu::kWaveSize; ++lane)
      mi.lane_addr[lane] = pattern == 0   ? base + uint64_t(int64_t(lane) * stride)                  // strides, also falling
                           : pattern == 1 ? base + next() % 4096                                     // scattered in a page
                           : pattern == 2 ? base + (lane % 8) * 256                                  // coming back down
                           : pattern == 3 ? base + lane * 4                                          // unit stride
                                          : next() % (uint64_t(1) << 40);                            // anywhere
    for (uint32_t bits : {6u, 7u}) {
      bool want_spans = false, spans = true;
      const std::vector<uint64_t> want = by_scan(mi, bits, want_spans);
      uint64_t lines[kMaxCoalescedLines];
      const uint32_t n = coalesce_lines(mi, bits, lines, &spans);
      ASSERT_EQ(std::vector<uint64_t>(lines, lines + n), want) << "trial " << trial << ", pattern " << pattern;
      EXPECT_EQ(spans, want_spans) << "trial " << trial;
      EXPECT_EQ(coalesce_lines(mi, bits, lines), n);
      scattered += !std::is_sorted(want.begin(), want.end());
      spanning += want_spans;
    }
  }
  // Both paths of the coalescer were taken, and lanes spanning lines were among them.
  EXPECT_GT(scattered, 5000);
  EXPECT_GT(spanning, 5000);
}

}  // namespace
}  // namespace strobe::timing
