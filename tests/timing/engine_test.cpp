#include <gtest/gtest.h>

#include <vector>

#include <nlohmann/json.hpp>

#include "timing/engine/engine.h"
#include "timing/stats/stats.h"

namespace strobe::timing {
namespace {

struct Recorder : Component {
  explicit Recorder(std::vector<std::pair<uint64_t, uint32_t>>* log) : Component("rec"), log(log) {}
  void handle(Cycle now, uint32_t kind, uint32_t arg) override { log->push_back({now.value(), arg}); }
  std::vector<std::pair<uint64_t, uint32_t>>* log;
};

TEST(Engine, EventsRunInTimeOrderAndTiesInSchedulingOrder) {
  Engine e;
  std::vector<std::pair<uint64_t, uint32_t>> log;
  Recorder r(&log);
  e.schedule(Cycle(10), &r, 0, 1);
  e.schedule(Cycle(5), &r, 0, 2);
  e.schedule(Cycle(10), &r, 0, 3);
  e.schedule(Cycle(5), &r, 0, 4);
  e.schedule(Cycle(7), &r, 0, 5);
  EXPECT_TRUE(e.run());
  std::vector<std::pair<uint64_t, uint32_t>> want = {{5, 2}, {5, 4}, {7, 5}, {10, 1}, {10, 3}};
  EXPECT_EQ(log, want);
  EXPECT_EQ(e.now(), Cycle(10));
}

TEST(Engine, RunStopsAtTheLimitWithEventsPending) {
  Engine e;
  std::vector<std::pair<uint64_t, uint32_t>> log;
  Recorder r(&log);
  e.schedule(Cycle(3), &r, 0, 1);
  e.schedule(Cycle(30), &r, 0, 2);
  EXPECT_FALSE(e.run(Cycle(10)));
  EXPECT_EQ(log.size(), 1u);
  EXPECT_EQ(e.pending(), 1u);
  EXPECT_TRUE(e.run());
  EXPECT_EQ(log.size(), 2u);
}

TEST(Cycle, IsAStrongType) {
  static_assert(!std::is_convertible_v<uint64_t, Cycle>);
  static_assert(!std::is_convertible_v<Cycle, uint64_t>);
  Cycle a(5);
  EXPECT_EQ((a + Cycle(3)).value(), 8u);
  EXPECT_EQ((a + uint64_t(2)).value(), 7u);
  EXPECT_TRUE(Cycle::never().is_never());
  EXPECT_LT(a, Cycle::never());
}

TEST(Stats, SnapshotsSubtractToAWindow) {
  StatsRegistry reg;
  uint64_t hits = 0, misses = 0;
  reg.add("l1.0.hits", &hits);
  reg.add("l1.1.hits", &misses);
  hits = 5;
  StatsSnapshot a = reg.snapshot();
  hits = 12, misses = 4;
  StatsSnapshot b = reg.snapshot();
  StatsSnapshot w = b - a;
  EXPECT_EQ(w.get("l1.0.hits"), 7u);
  EXPECT_EQ(w.get("l1.1.hits"), 4u);
  EXPECT_EQ(w.sum("l1.", ".hits"), 11u);
  EXPECT_EQ(w.to_json()["l1"]["0"]["hits"], 7);
}

}  // namespace
}  // namespace strobe::timing
