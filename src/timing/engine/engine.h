// Discrete-event engine: components receive events in deterministic (time, sequence) order and
// are only ever called when there is something for them to do.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "timing/engine/cycle.h"

namespace strobe::timing {

/// Anything that receives events. Components schedule their own ticks while busy and otherwise
/// sleep until a message (an event from another component) wakes them.
class Component {
 public:
  explicit Component(std::string name) : name_(std::move(name)) {}
  virtual ~Component() = default;
  Component(const Component&) = delete;
  Component& operator=(const Component&) = delete;

  /// Handles one event of a component-defined `kind` with a component-defined argument.
  virtual void handle(Cycle now, uint32_t kind, uint32_t arg) = 0;
  /// One line describing what the component is waiting for (the watchdog's deadlock dump).
  virtual std::string describe_state() const { return "idle"; }
  const std::string& name() const { return name_; }

 private:
  std::string name_;
};

/// One scheduled event. Ordered by (when, seq): ties in time break by scheduling order, so a
/// run is a pure function of its inputs.
struct Event {
  Cycle when;
  uint64_t seq = 0;
  Component* target = nullptr;
  uint32_t kind = 0;
  uint32_t arg = 0;
};

/// The event queue: a binary heap in a reserved vector (no allocation in steady state).
class Engine {
 public:
  Engine() { heap_.reserve(4096); }

  /// Schedules `target->handle(when, kind, arg)`. `when` must not be in the past.
  void schedule(Cycle when, Component* target, uint32_t kind, uint32_t arg = 0);
  /// Runs events until the queue is empty, `stop()` is called or `limit` is passed.
  /// Returns false if the limit was reached with events still pending.
  bool run(Cycle limit = Cycle::never());
  /// Asks run() to return after the current event.
  void stop() { stopped_ = true; }
  Cycle now() const { return now_; }
  bool empty() const { return heap_.empty(); }
  size_t pending() const { return heap_.size(); }
  uint64_t events_processed() const { return processed_; }
  /// Drops every pending event (used after a fault aborts a launch).
  void clear() { heap_.clear(); }

 private:
  static bool later(const Event& a, const Event& b) {
    return a.when != b.when ? a.when > b.when : a.seq > b.seq;
  }
  std::vector<Event> heap_;
  Cycle now_{0};
  uint64_t seq_ = 0, processed_ = 0;
  bool stopped_ = false;
};

}  // namespace strobe::timing
