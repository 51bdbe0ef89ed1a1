// Discrete-event engine: components receive events in deterministic (time, sequence) order and
// are only ever called when there is something for them to do.
#pragma once

#include <cassert>
#include <cstdint>
#include <string>
#include <vector>

#include "timing/engine/cycle.h"

namespace strobe::timing {

/// Anything that receives events. Components schedule their own ticks while busy and otherwise
/// sleep until a message (an event from another component) wakes them.
class Component {
 public:
  /// Throws std::logic_error naming this component and `kind`: an event it does not handle was
  /// sent to it, a wiring error never to be dropped silently (each handle()'s last resort).
  [[noreturn]] void unhandled(uint32_t kind) const;

  explicit Component(std::string name) : name_(std::move(name)) {}
  virtual ~Component() = default;
  Component(const Component&) = delete;
  Component& operator=(const Component&) = delete;

  /// Handles one event: `kind` is an Event (events.h), `arg` means what that kind documents.
  virtual void handle(Cycle now, uint32_t kind, uint32_t arg) = 0;
  /// One line describing what the component is waiting for (the watchdog's deadlock dump).
  virtual std::string describe_state() const { return "idle"; }
  const std::string& name() const { return name_; }
  /// The partition whose engine runs this component (quantum.h; 0 for every component of a
  /// model on one engine).
  uint32_t partition() const { return partition_; }
  void set_partition(uint32_t p) { partition_ = p; }

 private:
  std::string name_;
  uint32_t partition_ = 0;
};

/// The event queue, ordered by (time, scheduling order): ties in time break by scheduling
/// order, so a run is a pure function of its inputs.
///
/// Almost every delay in the model is short (latencies of tens to hundreds of cycles), so the
/// queue is a calendar: a ring of one bucket per cycle covering the next kWindow cycles, each
/// bucket a FIFO list (appending keeps scheduling order) of nodes from one pool, with a bitmap
/// of non-empty buckets. Events further out wait in a binary heap and move into their bucket, in
/// (time, sequence) order, as soon as their cycle enters the window, which is before anything
/// can be appended to that bucket directly. Scheduling and dispatching are O(1); freed nodes are
/// reused most-recent first, so the queue's working set stays small and warm.
class Engine {
 public:
  static constexpr uint32_t kWindow = 4096;  ///< cycles covered by the bucket ring (power of two)

  Engine();

  /// Schedules `target->handle(when, kind, arg)`. `when` must not be in the past.
  void schedule(Cycle when, Component* target, uint32_t kind, uint32_t arg = 0) {
    assert(when >= now_);
    const uint64_t w = when.value();
    if (w - now_.value() < kWindow) {
      append(uint32_t(w & (kWindow - 1)), target, kind, arg);
    } else {
      push_far(when, target, kind, arg);
    }
    ++pending_;
  }
  /// Schedules an event for `target`, a component of partition `dest`: at once when that is
  /// this engine's partition, else into the outbox that the quantum runner (gpu/quantum.h)
  /// delivers when the window ends. Used where an event may leave a partition.
  void post(uint32_t dest, Cycle when, Component* target, uint32_t kind, uint32_t arg = 0) {
    if (dest == partition_) schedule(when, target, kind, arg);
    else outbox_.push_back(Crossing{when, now_, target, kind, arg, dest});
  }
  /// An event for another partition's component, held until the window ends.
  struct Crossing {
    Cycle when;
    Cycle sent;  ///< the cycle post() was called in (delivery keeps the exact engine's order)
    Component* target;
    uint32_t kind, arg;
    uint32_t dest;  ///< the target's partition
  };
  /// Events post() held for other partitions, in the order they were posted.
  std::vector<Crossing>& outbox() { return outbox_; }
  /// The partition this engine runs (0 unless the quantum runner set another).
  uint32_t partition() const { return partition_; }
  void set_partition(uint32_t p) { partition_ = p; }
  /// Moves the clock to `t` with nothing in between: no event before `t` may be pending (the
  /// quantum runner aligns its partitions' clocks at each window's end).
  void advance_to(Cycle t);
  /// Runs events until the queue is empty, `stop()` is called or `limit` is passed.
  /// Returns false if the limit was reached with events still pending.
  bool run(Cycle limit = Cycle::never());
  /// Asks run() to return after the current event.
  void stop() { stopped_ = true; }
  Cycle now() const { return now_; }
  bool empty() const { return pending_ == 0; }
  size_t pending() const { return pending_; }
  uint64_t events_processed() const { return processed_; }
  /// Drops every pending event (used after a fault aborts a launch).
  void clear();

 private:
  static constexpr uint32_t kNil = UINT32_MAX;
  struct Node {
    Component* target;
    uint32_t kind, arg;
    uint32_t next;
  };
  struct FarEvent {
    Cycle when;
    uint64_t seq;
    Component* target;
    uint32_t kind, arg;
  };
  static bool later(const FarEvent& a, const FarEvent& b) {
    return a.when != b.when ? a.when > b.when : a.seq > b.seq;
  }
  void append(uint32_t b, Component* target, uint32_t kind, uint32_t arg) {
    uint32_t n = free_;
    if (n != kNil) {
      free_ = nodes_[n].next;
    } else {
      n = uint32_t(nodes_.size());
      nodes_.emplace_back();
    }
    nodes_[n] = Node{target, kind, arg, kNil};
    if (head_[b] == kNil) {
      head_[b] = n;
      occupied_[b / 64] |= uint64_t{1} << (b % 64);
    } else {
      nodes_[tail_[b]].next = n;
    }
    tail_[b] = n;
  }
  void push_far(Cycle when, Component* target, uint32_t kind, uint32_t arg);
  /// Time of the earliest pending event after now_'s bucket (which must be empty), or any
  /// time after `limit` when there is none up to it.
  Cycle next_time(Cycle limit) const;
  /// Moves far events whose cycle has entered the window into their buckets.
  void migrate();

  std::vector<Node> nodes_;
  uint32_t free_ = kNil;            // free node list
  std::vector<uint32_t> head_, tail_;  // per bucket
  std::vector<uint64_t> occupied_;  // bit per non-empty bucket
  std::vector<FarEvent> far_;       // heap, earliest on top
  size_t pending_ = 0;
  Cycle now_{0};
  uint64_t far_seq_ = 0, processed_ = 0;
  bool stopped_ = false;
  uint32_t partition_ = 0;
  std::vector<Crossing> outbox_;
};

}  // namespace strobe::timing
