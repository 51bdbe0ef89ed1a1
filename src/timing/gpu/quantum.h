// The quantum runner (sim.engine = quantum): the GPU as partitions that each run a window of
// cycles on their own engine, request pool and state before the next one does, so a shader
// array's CUs and L1s stay in the host's caches for a whole window instead of one cycle, and the
// partitions of one window may run on host threads.
//
// Partition 0 is the control partition (the dispatcher and the samplers): it runs first in each
// window, on one thread, and may call into any partition, since none runs at that moment. Every
// other partition only schedules events for its own components; an event for another
// partition (Engine::post), a request leaving for another partition's cache (RequestPool::cross)
// and a stage mark for a requester elsewhere (RequestPool::mark) wait in the sender's outboxes
// until the window ends, and are then delivered in the order the exact engine would have queued
// them (send cycle, then partition). The window is the shortest
// latency between partitions (the L1-to-L2 interconnect), so every crossing arrives in a later
// window than it was sent in and the partitions of one window never see each other's effects:
// the result depends on the inputs alone, never on the number of threads or their timing.
// Crossings into the control partition (a work-group's retirement) arrive when the window ends,
// by which time the CUs have run past the cycle the event names; docs/timing-model.md says what
// that changes against the exact engine.
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "timing/engine/engine.h"
#include "timing/gpu/window_threads.h"
#include "timing/mem/mem_req.h"

namespace strobe::timing {


/// Runs partitioned engines window by window (see the file comment).
class QuantumRunner {
 public:
  /// `engines[p]` and `pools[p]` belong to partition p (at most 256); 0 is the control
  /// partition. `window` cycles (at least 1) must not exceed the shortest latency of any
  /// crossing.
  QuantumRunner(std::vector<Engine*> engines, std::vector<RequestPool*> pools, uint64_t window);
  /// Appends the scaling profile (below) to its file, when one was asked for.
  ~QuantumRunner();
  QuantumRunner(const QuantumRunner&) = delete;
  QuantumRunner& operator=(const QuantumRunner&) = delete;

  /// Called when the partitions have run a window, before its crossings are delivered, with
  /// the window's end (the GPU sums its partitions' counters and sets the dispatcher's floor).
  void on_window_end(std::function<void(Cycle)> f) { on_end_ = std::move(f); }
  /// Aligns every partition's clock to `t` (nothing may be pending before it).
  void align(Cycle t);
  /// Runs the window [now(), now() + window): the control partition's events, then every other
  /// partition's (on `threads` when given, else in order), then the window-end hook and the
  /// crossings. A partition that throws (a kernel fault) stops the run; the exception of the
  /// lowest such partition is rethrown, so the fault reported does not depend on threads.
  void run_window(WindowThreads* threads);
  /// The start of the next window.
  Cycle now() const { return now_; }
  uint64_t window() const { return window_; }
  /// True when no partition has an event pending.
  bool idle() const;
  /// Events every partition processed so far.
  uint64_t events_processed() const;

 private:
  /// run_window() with the scaling profile's timers, on this thread.
  void run_profiled_window();
  /// The window-end hook, the crossings' delivery and every clock moved to `end`.
  void end_window(Cycle end);
  /// Delivers every partition's crossings of the window that ended at `end`.
  void deliver(Cycle end);

  /// One crossing in the delivery order.
  struct Item {
    uint64_t key;      ///< key(): send cycle, partition
    uint32_t pos;      ///< position when gathered (partition, then engine before pool, then order)
    uint32_t part, index;
    bool request;      ///< a RequestPool crossing, else an Engine one
  };
  /// The delivery key of a crossing sent at cycle `sent` by partition `part` (below 256) in
  /// the window starting at `start`.
  static uint64_t key(uint64_t sent, uint64_t start, uint32_t part);
  /// The cycle crossing `it` is due at.
  Cycle when_of(const Item& it) const;

  std::vector<Engine*> engines_;
  std::vector<RequestPool*> pools_;
  uint64_t window_;
  Cycle now_{0};
  std::function<void(Cycle)> on_end_;
  /// The scaling profile: with STROBE_QUANTUM_PROFILE=FILE in the environment, every window runs
  /// on this thread and is timed, each partition apart, and when the runner goes a JSON line is
  /// appended to FILE with the serial part (the control partition, the window's end and the
  /// deliveries), each partition's total, and the time the same windows would take on N threads
  /// by the list-scheduling bound: per window, its serial part plus the larger of its longest
  /// partition and its partitions' sum over N (docs/timing-model.md, "Scaling").
  struct Profile {
    std::string file;
    uint64_t windows = 0;
    double serial = 0, total = 0;
    std::vector<double> part;   ///< seconds per partition
    std::vector<double> model;  ///< modelled seconds on kModelThreads[i] threads
    std::vector<double> scratch;
  };
  static constexpr uint32_t kModelThreads[] = {1, 2, 4, 8, 16, 32};
  std::unique_ptr<Profile> profile_;
  std::vector<Item> order_;  // deliver()'s scratch
  std::vector<std::pair<size_t, size_t>> sizes_;  // deliver()'s: each partition's outboxes as gathered
  /// Events a window's predecessor must have had for the window to go to threads.
  static constexpr uint64_t kThreadedEvents = 128;
  uint64_t last_events_ = 0;
  ThreadGovernor governor_;
};

}  // namespace strobe::timing
