// The placement rule the Dispatcher and the SPI share: round robin from the CU after the last
// choice, and a CU found full is not asked again until one of its waves retires (mark_room).
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "timing/config/gpu_config.h"
#include "timing/cu/cu_picker.h"
#include "timing/stats/stats.h"

namespace strobe::timing {
namespace {

/// A cache stand-in: the picker never sends the CUs anything, so nothing arrives here.
struct Idle : Component {
  Idle() : Component("idle") {}
  void handle(Cycle, uint32_t kind, uint32_t) override { unhandled(kind); }
};

TEST(CuPicker, RoundRobinSkipsTheCusKnownFullUntilTheyMarkRoom) {
  Engine engine;
  RequestPool pool;
  StatsRegistry stats;
  Idle cache;
  const CuParams p = CuParams::from_config(load_config("r9nano"));
  std::vector<std::unique_ptr<ComputeUnit>> cus;
  std::vector<ComputeUnit*> ptrs;
  for (uint32_t i = 0; i < 3; ++i) {
    cus.push_back(std::make_unique<ComputeUnit>("cu" + std::to_string(i), i, p, engine, pool, stats, &cache, &cache, &cache));
    ptrs.push_back(cus.back().get());
  }
  CuPicker picker(ptrs);
  picker.reset();
  const WorkgroupNeeds small{};
  EXPECT_EQ(picker.pick(small), ptrs[0]);
  EXPECT_EQ(picker.pick(small), ptrs[1]) << "the next choice starts after the last";
  WorkgroupNeeds huge;
  huge.vgprs_per_wave = p.res.vgprs_per_simd + p.res.vgpr_granule;  // fits no SIMD
  EXPECT_EQ(picker.pick(huge), nullptr);
  // Every CU was found full for that group, so none is asked again until it retires a wave,
  // even for a group that would fit: the dispatcher sleeps until mark_room instead of polling.
  EXPECT_EQ(picker.pick(small), nullptr);
  picker.mark_room(2);
  EXPECT_EQ(picker.pick(small), ptrs[2]);
  picker.reset();
  EXPECT_EQ(picker.pick(small), ptrs[0]) << "a new launch starts over at CU 0";
}

}  // namespace
}  // namespace strobe::timing
