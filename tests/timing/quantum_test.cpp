// The quantum engine (sim.engine = quantum, gpu/quantum.h): partitions that run windows of
// cycles on their own queues give the same cycles, counters and memory on any number of host
// threads, stay close to the exact engine, and refuse what they do not model.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "common/error.h"
#include "report/timing_json.h"
#include "timing/engine/engine.h"
#include "timing/engine/events.h"
#include "timing/gpu/quantum.h"
#include "timing/gpu/window_threads.h"
#include "timing_harness.h"

namespace strobe::timing {
namespace {

using test::KernelHarness;
using test::r9nano;

/// Records the events it receives, with their cycles.
struct Recorder : Component {
  explicit Recorder(std::string n) : Component(std::move(n)) {}
  void handle(Cycle now, uint32_t kind, uint32_t arg) override { got.push_back({now.value(), kind, arg}); }
  std::vector<std::tuple<uint64_t, uint32_t, uint32_t>> got;
};

TEST(Engine, AdvanceToMovesTheClockAndKeepsLaterEvents) {
  Engine e;
  Recorder r("r");
  e.schedule(Cycle(10), &r, 1);
  e.schedule(Cycle(10 + Engine::kWindow + 5), &r, 2);  // beyond the bucket ring
  e.advance_to(Cycle(7));
  EXPECT_EQ(e.now(), Cycle(7));
  EXPECT_TRUE(e.run());
  ASSERT_EQ(r.got.size(), 2u);
  EXPECT_EQ(std::get<0>(r.got[0]), 10u);
  EXPECT_EQ(std::get<0>(r.got[1]), 10u + Engine::kWindow + 5);
}

TEST(QuantumRunner, CrossingsArriveInTheNextWindowByDueCycleThenSendCycleThenPartition) {
  Engine control, a, b, c;
  RequestPool pc, pa, pb, pd;
  QuantumRunner q({&control, &a, &b, &c}, {&pc, &pa, &pb, &pd}, 10);
  /// Posts an event for `sink` when its own event comes (the send cycle is the engine's clock).
  struct Sender : Component {
    Sender(std::string n, Engine& e, Component* sink) : Component(std::move(n)), e_(e), sink_(sink) {}
    void handle(Cycle, uint32_t, uint32_t arg) override { e_.post(3, Cycle(12), sink_, 1, arg); }
    Engine& e_;
    Component* sink_;
  };
  Recorder sink("sink");
  sink.set_partition(3);
  Sender sa("sa", a, &sink), sb("sb", b, &sink);
  sa.set_partition(1), sb.set_partition(2);
  // Due at cycle 12: partition 2 sends 200 at cycle 1 and 201 at cycle 4, partition 1 sends
  // 100 at cycle 1 and 101 at cycle 6; the sink's own partition queued 300 before the window.
  // One engine would have queued 300, then 100 and 200 (cycle 1), 201 (cycle 4), 101 (cycle 6).
  b.schedule(Cycle(1), &sb, 0, 200);
  b.schedule(Cycle(4), &sb, 0, 201);
  a.schedule(Cycle(1), &sa, 0, 100);
  a.schedule(Cycle(6), &sa, 0, 101);
  c.schedule(Cycle(12), &sink, 1, 300);
  q.run_window(nullptr);
  EXPECT_EQ(q.now(), Cycle(10));
  EXPECT_TRUE(sink.got.empty());
  q.run_window(nullptr);
  std::vector<uint32_t> args;
  for (const auto& g : sink.got) args.push_back(std::get<2>(g));
  EXPECT_EQ(args, (std::vector<uint32_t>{300, 100, 200, 201, 101}));
  EXPECT_TRUE(q.idle());
}

TEST(QuantumRunner, ACrossingShorterThanTheWindowIsAModelError) {
  Engine control, a, b;
  RequestPool pc, pa, pb;
  QuantumRunner q({&control, &a, &b}, {&pc, &pa, &pb}, 10);
  Recorder sink("sink");
  sink.set_partition(2);
  a.post(2, Cycle(9), &sink, 1);  // would be due before the window it is delivered after
  EXPECT_THROW(q.run_window(nullptr), std::logic_error);
}

TEST(QuantumRunner, AControlPartitionCrossingIsDeliveredAtTheWindowsEndNamingItsCycle) {
  Engine control, a;
  RequestPool pc, pa;
  QuantumRunner q({&control, &a}, {&pc, &pa}, 10);
  Recorder dispatcher("dispatcher");
  a.post(0, Cycle(4), &dispatcher, kWorkgroupRetired, 3);
  q.run_window(nullptr);
  ASSERT_EQ(dispatcher.got.size(), 1u);
  EXPECT_EQ(dispatcher.got[0], std::make_tuple(uint64_t(4), uint32_t(kWorkgroupRetired), uint32_t(3)));
}

TEST(QuantumRunner, ARequestCrossesAsACopyIntoTheReceivingPool) {
  Engine control, a, hub;
  RequestPool pc, pa, ph;
  QuantumRunner q({&control, &a, &hub}, {&pc, &pa, &ph}, 10);
  pa.set_partition(1, false);
  ph.set_partition(2, true);
  Recorder l1("l1"), l2("l2");
  l1.set_partition(1), l2.set_partition(2);
  const uint32_t r = pa.make(0x40, ReqKind::Read, &l1, 77);
  pa.cross(2, Cycle(0), Cycle(10), &l2, r);
  EXPECT_EQ(pa.live(), 0u);  // the sender's copy is released at once
  q.run_window(nullptr);
  q.run_window(nullptr);
  ASSERT_EQ(l2.got.size(), 1u);
  const MemReq& got = ph[std::get<2>(l2.got[0])];
  EXPECT_EQ(got.line, 0x40u);
  EXPECT_EQ(got.tag, 77u);
  EXPECT_EQ(got.origin, 1u);
  // The hub's answer goes back across, to the requester's partition.
  ph.respond(hub, Cycle(31), std::get<2>(l2.got[0]));  // due after the window it is sent in
  EXPECT_TRUE(l1.got.empty());
  q.run_window(nullptr);
  q.run_window(nullptr);
  ASSERT_EQ(l1.got.size(), 1u);
  EXPECT_EQ(std::get<0>(l1.got[0]), 31u);
  EXPECT_EQ(std::get<2>(l1.got[0]), 77u);
}

TEST(WindowThreads, EveryTaskOfEveryGenerationRunsExactlyOnce) {
  WindowThreads pool(3);
  EXPECT_EQ(pool.threads(), 3u);
  std::vector<std::atomic<uint32_t>> runs(17);
  for (uint32_t gen = 0; gen < 5000; ++gen) {
    const uint32_t tasks = 1 + gen % 17;  // generations of different sizes, back to back
    pool.run(tasks, [&](uint32_t t) { runs[t].fetch_add(1, std::memory_order_relaxed); });
  }
  uint64_t total = 0;
  for (auto& r : runs) total += r.load();
  uint64_t expected = 0;
  for (uint32_t gen = 0; gen < 5000; ++gen) expected += 1 + gen % 17;
  EXPECT_EQ(total, expected);
  for (uint32_t t = 0; t < 17; ++t) {
    uint64_t want = 0;
    for (uint32_t gen = 0; gen < 5000; ++gen) want += t < 1 + gen % 17;
    EXPECT_EQ(runs[t].load(), want) << "task " << t;
  }
}

TEST(WindowThreads, TheLowestFailingTasksExceptionIsRethrownAndThePoolGoesOn) {
  WindowThreads pool(2);
  for (int rep = 0; rep < 50; ++rep) {
    try {
      pool.run(8, [](uint32_t t) {
        if (t == 5 || t == 2) throw std::runtime_error("task " + std::to_string(t));
      });
      FAIL() << "no exception";
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "task 2");
    }
  }
  std::atomic<uint32_t> n{0};
  pool.run(4, [&](uint32_t) { n.fetch_add(1); });
  EXPECT_EQ(n.load(), 4u);
}

/// Feeds `g` one epoch of windows at `rate` events per second in whatever mode it asks for,
/// or at `other` when it asks for the mode it does not prefer; returns the windows that ran on
/// threads.
uint32_t epoch(ThreadGovernor& g, double rate, double other) {
  uint32_t threaded = 0;
  const bool preferred = g.prefers_threads();
  const uint32_t windows = ThreadGovernor::kEpochWindows;
  const double seconds = ThreadGovernor::kEpochSeconds / windows;
  for (uint32_t i = 0; i < windows; ++i) {
    threaded += g.threaded();
    g.record(uint64_t((g.threaded() == preferred ? rate : other) * seconds), seconds);
  }
  return threaded;
}

TEST(ThreadGovernor, PrefersThreadsProbesOneThreadEarlyAndSwitchesOnlyWhenItIsFaster) {
  ThreadGovernor quiet;
  EXPECT_EQ(epoch(quiet, 2e6, 1e6), ThreadGovernor::kEpochWindows);  // threads first
  EXPECT_EQ(epoch(quiet, 2e6, 1e6), 0u);                             // then the early probe
  EXPECT_EQ(epoch(quiet, 2e6, 1e6), ThreadGovernor::kEpochWindows);
  EXPECT_TRUE(quiet.prefers_threads());
  EXPECT_EQ(quiet.switches(), 0u);
  // Another process holds a core: one thread runs faster than threads, which are given up...
  ThreadGovernor busy;
  epoch(busy, 1e6, 1.5e6), epoch(busy, 1e6, 1.5e6), epoch(busy, 1e6, 1.5e6);
  EXPECT_FALSE(busy.prefers_threads());
  EXPECT_EQ(busy.switches(), 1u);
  // ...until a later probe finds threads faster again.
  uint32_t probes = 0;
  for (uint32_t e = 0; e < 2 * ThreadGovernor::kProbeEvery && !busy.prefers_threads(); ++e)
    probes += epoch(busy, 1.5e6, 3e6) > 0;
  EXPECT_TRUE(busy.prefers_threads());
  EXPECT_EQ(probes, 1u);
  // A probe within the margin changes nothing.
  ThreadGovernor close;
  epoch(close, 1e6, 1.04e6), epoch(close, 1e6, 1.04e6), epoch(close, 1e6, 1.04e6);
  EXPECT_TRUE(close.prefers_threads());
}

/// stream_read on a 16-CU GPU (four shader arrays, so five partitions besides the control).
struct Stream {
  KernelHarness h{"stream", "stream_read"};
  static constexpr uint32_t kItems = 16 * 8 * 64, kPerItem = 4;
  uint64_t in = h.zeros(uint64_t(kItems) * kPerItem * 16), out = h.zeros(kItems * 4);
  emu::Dispatch d = h.dispatch(kItems, 128, {in, out, kPerItem});
};

/// The R9 Nano with 16 CUs on the quantum engine, with `extra` overrides.
GpuConfig quantum(std::initializer_list<const char*> extra = {}) {
  GpuConfig c = r9nano({"gpu.num_cus=16", "sim.engine=quantum"});
  for (const char* o : extra) apply_override(c, o);
  validate(c);
  return c;
}

TEST(QuantumEngine, CyclesCountersAndMemoryAreTheSameOnOneTwoAndThreeThreads) {
  auto run = [](uint32_t threads) {
    Stream s;
    std::vector<float> src(Stream::kItems * Stream::kPerItem * 4);
    for (size_t i = 0; i < src.size(); ++i) src[i] = float(i % 89);
    s.h.mem.write(s.in, src.data(), src.size() * 4);
    Gpu g(quantum());
    g.set_host_threads(threads);
    const LaunchTiming a = g.run(s.d, s.h.mem), b = g.run(s.d, s.h.mem);  // cold, then warm caches
    return std::make_tuple(a.cycles, b.cycles, a.stats, b.stats, report::launch_timing_json(b).dump(),
                           s.h.mem.digest());
  };
  const auto one = run(1);
  for (uint32_t t : {2u, 3u}) {
    const auto many = run(t);
    EXPECT_EQ(std::get<0>(many), std::get<0>(one)) << t << " threads";
    EXPECT_EQ(std::get<1>(many), std::get<1>(one)) << t << " threads";
    EXPECT_TRUE(std::get<2>(many) == std::get<2>(one)) << t << " threads";
    EXPECT_TRUE(std::get<3>(many) == std::get<3>(one)) << t << " threads";
    EXPECT_EQ(std::get<4>(many), std::get<4>(one)) << t << " threads";
    EXPECT_EQ(std::get<5>(many), std::get<5>(one)) << t << " threads";
  }
  EXPECT_LT(std::get<1>(one), std::get<0>(one));  // the caches kept their state between launches
}

TEST(QuantumEngine, ComputesWhatTheExactEngineComputesInNearlyItsCycles) {
  Stream exact_run, quantum_run;
  Gpu exact(r9nano({"gpu.num_cus=16"})), q(quantum());
  q.set_host_threads(2);
  const LaunchTiming e = exact.run(exact_run.d, exact_run.h.mem), t = q.run(quantum_run.d, quantum_run.h.mem);
  EXPECT_EQ(t.wave_instructions, e.wave_instructions);
  EXPECT_EQ(t.stats.get("dram.reads"), e.stats.get("dram.reads"));
  EXPECT_EQ(quantum_run.h.mem.digest(), exact_run.h.mem.digest());
  const double err = (double(t.cycles) - double(e.cycles)) / double(e.cycles);
  EXPECT_LT(std::abs(err), 0.01) << t.cycles << " against " << e.cycles;
}

TEST(QuantumEngine, TheCpiStackStillCoversEveryCuCycle) {
  Stream s;
  Gpu g(quantum());
  const LaunchTiming t = g.run(s.d, s.h.mem);
  const nlohmann::json j = report::launch_timing_json(t);
  uint64_t total = 0;
  for (auto& [k, v] : j["cpi_stack"].items()) total += v["cycles"].get<uint64_t>();
  EXPECT_EQ(total, t.cycles * 16u);
  // The L2 and DRAM stages reach the CUs from the memory hub's partition, at windows' ends.
  EXPECT_GT(j["cpi_stack"]["dram"]["cycles"].get<uint64_t>() + j["cpi_stack"]["dram_queue"]["cycles"].get<uint64_t>(),
            0u);
  EXPECT_EQ(t.wave_instructions, t.stats.sum("cu.", ".wave_instructions"));
}

TEST(QuantumEngine, AShorterWindowIsAllowedAndALongerOneIsRefused) {
  Stream s;
  Gpu g(quantum({"sim.quantum_cycles=8"}));
  EXPECT_GT(g.run(s.d, s.h.mem).cycles, 0u);
  EXPECT_THROW(Gpu((quantum({"sim.quantum_cycles=41"}))), InputError);
  EXPECT_THROW(Gpu((quantum({"noc.latency=0"}))), InputError);
  // Translation needs a window that ends before a looked-up translation is due.
  EXPECT_THROW(Gpu((quantum({"tlb.enabled=on", "tlb.l1_latency=0", "tlb.l2_latency=0"}))), InputError);
}

TEST(QuantumEngine, TranslationGivesTheSameCyclesOnAnyThreadsNearTheExactEngine) {
  // Small pages and L1 TLBs, so the shared L2 TLB and its walkers see many misses.
  const std::initializer_list<const char*> tlb = {"tlb.enabled=on", "tlb.page_bytes=4096", "tlb.l1_entries=4"};
  auto run = [&](uint32_t threads) {
    Stream s;
    Gpu g(quantum(tlb));
    g.set_host_threads(threads);
    const LaunchTiming a = g.run(s.d, s.h.mem), b = g.run(s.d, s.h.mem);
    return std::make_tuple(a.cycles, b.cycles, a.stats, s.h.mem.digest());
  };
  const auto one = run(1);
  EXPECT_GT(std::get<2>(one).get("tlb.l2.misses"), 0u);
  EXPECT_GT(std::get<2>(one).sum("tlb.vector.", ".misses"), std::get<2>(one).get("tlb.l2.misses"));
  for (uint32_t t : {2u, 3u}) {
    const auto many = run(t);
    EXPECT_EQ(std::get<0>(many), std::get<0>(one)) << t;
    EXPECT_EQ(std::get<1>(many), std::get<1>(one)) << t;
    EXPECT_TRUE(std::get<2>(many) == std::get<2>(one)) << t;
    EXPECT_EQ(std::get<3>(many), std::get<3>(one)) << t;
  }
  Stream e;
  GpuConfig c = r9nano({"gpu.num_cus=16"});
  for (const char* o : tlb) apply_override(c, o);
  Gpu exact(c);
  const LaunchTiming x = exact.run(e.d, e.h.mem);
  EXPECT_EQ(x.stats.get("tlb.l2.misses"), std::get<2>(one).get("tlb.l2.misses"));
  EXPECT_LT(std::abs(double(std::get<0>(one)) - double(x.cycles)) / double(x.cycles), 0.01)
      << std::get<0>(one) << " quantum against " << x.cycles << " exact";
}

/// An observer that records what it hears, and from group `predict_from` on predicts every
/// group at `predicted` cycles without running it (0: never predicts). Each predict call sees
/// what was heard before it, as a method's decision would.
struct Listener : LaunchObserver {
  uint64_t predict_from = 0, predicted = 0;
  std::vector<std::tuple<char, uint64_t, uint64_t, uint64_t>> heard;  // kind, cycle, a, b
  uint64_t block_instructions = 0, groups = 0;
  std::span<const uint64_t> sum;
  std::span<const uint32_t> count;
  void wave_begin(WaveKey w, uint64_t c) override { heard.emplace_back('b', c, w, 0); }
  void basic_block(WaveKey w, uint32_t pc, uint32_t n, uint64_t issue, uint64_t end) override {
    heard.emplace_back('k', end, w, uint64_t(pc) << 32 | n);
    block_instructions += n;
    EXPECT_LE(issue, end);
  }
  void wave_end(WaveKey w, uint64_t c) override { heard.emplace_back('e', c, w, 0); }
  void workgroup_end(uint64_t id, uint64_t dispatched, uint64_t c) override { heard.emplace_back('g', c, id, dispatched); }
  std::optional<uint64_t> predict_workgroup(const emu::Executor&, emu::WorkGroup&, emu::DispatchStats&,
                                            uint64_t c, uint32_t) override {
    uint64_t intervals = 0;
    for (uint32_t n : count) intervals += n;
    heard.emplace_back('p', c, heard.size(), intervals);  // what it had heard when it decided
    if (predicted == 0 || groups++ < predict_from) return std::nullopt;
    return predicted;
  }
  void intervals(std::span<const uint64_t> s, std::span<const uint32_t> c) override { sum = s, count = c; }
};

TEST(QuantumEngine, AnObserverHearsTheSameCallsInTheSameOrderOnAnyThreadsInCycleOrder) {
  auto run = [](uint32_t threads, uint64_t predicted) {
    Stream s;
    Gpu g(quantum());
    g.set_host_threads(threads);
    Listener l;
    l.predict_from = 16, l.predicted = predicted;
    const LaunchTiming t = g.run(s.d, s.h.mem, &l);
    return std::make_tuple(t.cycles, l.heard, l.block_instructions, t.detailed_wave_instructions, l.groups);
  };
  for (uint64_t predicted : {uint64_t(0), uint64_t(3000)}) {
    const auto one = run(1, predicted);
    const auto& heard = std::get<1>(one);
    ASSERT_FALSE(heard.empty());
    // Delivered window by window, by cycle: never a call older than one already heard.
    std::vector<uint64_t> cycles;
    for (const auto& h : heard)
      if (std::get<0>(h) != 'p') cycles.push_back(std::get<1>(h));
    EXPECT_TRUE(std::is_sorted(cycles.begin(), cycles.end())) << predicted;
    // Every detailed instruction is in exactly one block.
    EXPECT_EQ(std::get<2>(one), std::get<3>(one)) << predicted;
    EXPECT_EQ(std::count_if(heard.begin(), heard.end(), [](const auto& h) { return std::get<0>(h) == 'p'; }),
              int64_t(Stream::kItems / 128)) << predicted;
    for (uint32_t threads : {2u, 3u}) {
      const auto many = run(threads, predicted);
      EXPECT_EQ(std::get<0>(many), std::get<0>(one)) << threads << " threads, predicted " << predicted;
      EXPECT_TRUE(std::get<1>(many) == std::get<1>(one)) << threads << " threads, predicted " << predicted;
    }
  }
}

TEST(QuantumEngine, AnObserverSeesWhatTheExactEngineShowsItWithinAWindow) {
  Stream exact_run, quantum_run;
  Gpu exact(r9nano({"gpu.num_cus=16"})), q(quantum());
  q.set_host_threads(2);
  Listener e, t;
  const LaunchTiming le = exact.run(exact_run.d, exact_run.h.mem, &e), lt = q.run(quantum_run.d, quantum_run.h.mem, &t);
  // The same waves, blocks and groups, at nearly the same cycles; the intervals add up alike.
  auto count = [](const Listener& l, char k) {
    return std::count_if(l.heard.begin(), l.heard.end(), [k](const auto& h) { return std::get<0>(h) == k; });
  };
  for (char k : {'b', 'k', 'e', 'g', 'p'}) EXPECT_EQ(count(t, k), count(e, k)) << k;
  EXPECT_EQ(t.block_instructions, e.block_instructions);
  uint64_t ne = 0, nt = 0;
  for (uint32_t n : e.count) ne += n;
  for (uint32_t n : t.count) nt += n;
  EXPECT_EQ(nt, ne);
  EXPECT_LT(std::abs(double(lt.cycles) - double(le.cycles)) / double(le.cycles), 0.01);
}

TEST(QuantumEngine, PredictedGroupsHoldTheirResourcesAndTheLaunchEndsWithThem) {
  Stream s;
  Gpu g(quantum());
  g.set_host_threads(2);
  Listener l;
  l.predict_from = 0, l.predicted = 50000;  // every group, far longer than the launch would take
  const LaunchTiming t = g.run(s.d, s.h.mem, &l);
  EXPECT_EQ(t.detailed_wave_instructions, 0u);
  // 64 groups on 16 CUs, at most the CUs' room at once: several generations of 50,000 cycles.
  EXPECT_GE(t.cycles, 50000u);
  EXPECT_GT(g.run(s.d, s.h.mem).cycles, 0u);  // the GPU stays usable
}

}  // namespace
}  // namespace strobe::timing
