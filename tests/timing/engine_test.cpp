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

TEST(Engine, FarEventsMergeWithNearOnesInTimeAndSchedulingOrder) {
  Engine e;
  std::vector<std::pair<uint64_t, uint32_t>> log;
  Recorder r(&log);
  const uint64_t far = 3 * Engine::kWindow + 17;
  e.schedule(Cycle(far), &r, 0, 1);           // beyond the window: waits in the heap
  e.schedule(Cycle(far + 1), &r, 0, 2);
  e.schedule(Cycle(Engine::kWindow - 1), &r, 0, 3);
  // A relay that, once the far cycle is near, schedules more events at that same cycle.
  struct Relay : Component {
    Relay(Engine& e, Recorder& r, uint64_t at) : Component("relay"), e(e), r(r), at(at) {}
    void handle(Cycle, uint32_t, uint32_t) override {
      e.schedule(Cycle(at), &r, 0, 4);
      e.schedule(Cycle(at + 2 * Engine::kWindow), &r, 0, 5);
    }
    Engine& e;
    Recorder& r;
    uint64_t at;
  } relay(e, r, far);
  e.schedule(Cycle(far - 100), &relay, 0);
  EXPECT_TRUE(e.run());
  std::vector<std::pair<uint64_t, uint32_t>> want = {
      {Engine::kWindow - 1, 3}, {far, 1}, {far, 4}, {far + 1, 2}, {far + 2 * Engine::kWindow, 5}};
  EXPECT_EQ(log, want);
  EXPECT_TRUE(e.empty());
}

TEST(Engine, StopReturnsAfterTheCurrentEventAndRunResumes) {
  Engine e;
  std::vector<std::pair<uint64_t, uint32_t>> log;
  Recorder r(&log);
  struct Stopper : Component {
    explicit Stopper(Engine& e) : Component("stop"), e(e) {}
    void handle(Cycle, uint32_t, uint32_t) override { e.stop(); }
    Engine& e;
  } stopper(e);
  e.schedule(Cycle(4), &r, 0, 1);
  e.schedule(Cycle(4), &stopper, 0);
  e.schedule(Cycle(4), &r, 0, 2);
  e.schedule(Cycle(9), &r, 0, 3);
  e.run();
  EXPECT_EQ(log.size(), 1u);
  e.schedule(Cycle(4), &r, 0, 4);  // same cycle, scheduled later: runs after event 2
  EXPECT_TRUE(e.run());
  std::vector<std::pair<uint64_t, uint32_t>> want = {{4, 1}, {4, 2}, {4, 4}, {9, 3}};
  EXPECT_EQ(log, want);
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
