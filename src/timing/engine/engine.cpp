#include "timing/engine/engine.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <stdexcept>
#include <string>

namespace strobe::timing {

void Component::unhandled(uint32_t kind) const {
  throw std::logic_error(name_ + ": event kind " + std::to_string(kind) + " sent to a component that does not handle it");
}

Engine::Engine() : head_(kWindow, kNil), tail_(kWindow, kNil), occupied_(kWindow / 64, 0) {
  nodes_.reserve(1 << 14);
  far_.reserve(256);
}

void Engine::push_far(Cycle when, Component* target, uint32_t kind, uint32_t arg) {
  far_.push_back(FarEvent{when, far_seq_++, target, kind, arg});
  std::push_heap(far_.begin(), far_.end(), later);
}

Cycle Engine::next_time(Cycle limit) const {
  // Scan the bitmap from the bucket after now_'s, wrapping once around the ring. Every bucket
  // holds events of one cycle in [now_, now_ + kWindow), so the first set bit is the earliest.
  // Words wholly after `limit` are not looked at: a short run (the quantum runner's window)
  // scans a word or two, not the ring.
  const uint32_t words = kWindow / 64;
  const uint32_t start = uint32_t((now_.value() + 1) & (kWindow - 1));
  const uint64_t span = limit.value() - now_.value();  // cycles after now_ that may be looked at
  const uint32_t scan = span >= kWindow ? words : uint32_t((start % 64 + span + 63) / 64);
  for (uint32_t i = 0; i <= std::min(words, scan); ++i) {
    const uint32_t wi = (start / 64 + i) % words;
    uint64_t bits = occupied_[wi];
    if (i == 0) bits &= ~uint64_t{0} << (start % 64);           // from `start` on
    if (i == words) bits &= (uint64_t{1} << (start % 64)) - 1;  // wrapped: before `start`
    if (!bits) continue;
    const uint32_t b = wi * 64 + uint32_t(std::countr_zero(bits));
    return now_ + uint64_t((b - start) & (kWindow - 1)) + 1;
  }
  if (scan < words) return limit + Cycle(1);  // nothing up to the limit in the ring; far events are later
  return far_.empty() ? Cycle::never() : far_.front().when;
}

void Engine::migrate() {
  while (!far_.empty() && far_.front().when.value() - now_.value() < kWindow) {
    std::pop_heap(far_.begin(), far_.end(), later);
    const FarEvent e = far_.back();
    far_.pop_back();
    append(uint32_t(e.when.value() & (kWindow - 1)), e.target, e.kind, e.arg);
  }
}

bool Engine::run(Cycle limit) {
  stopped_ = false;
  while (!stopped_) {
    const uint32_t b = uint32_t(now_.value() & (kWindow - 1));
    const uint32_t n = head_[b];
    if (n != kNil) {
      const Node e = nodes_[n];  // a copy: handling may grow the node pool
      head_[b] = e.next;
      nodes_[n].next = free_;
      free_ = n;
      --pending_;
      ++processed_;
      // The next event's target is usually another component whose state is cold by now; start
      // loading it while this event is handled.
      if (e.next != kNil) __builtin_prefetch(nodes_[e.next].target);
      e.target->handle(now_, e.kind, e.arg);
      continue;
    }
    occupied_[b / 64] &= ~(uint64_t{1} << (b % 64));
    if (pending_ == 0) return true;
    const Cycle next = next_time(limit);
    if (next > limit) return false;
    now_ = next;
    migrate();
  }
  return true;
}

void Engine::advance_to(Cycle t) {
  if (t <= now_) return;
  const uint32_t b = uint32_t(now_.value() & (kWindow - 1));
  assert(head_[b] == kNil && next_time(Cycle::never()) >= t);
  occupied_[b / 64] &= ~(uint64_t{1} << (b % 64));
  now_ = t;
  migrate();
}

void Engine::clear() {
  nodes_.clear();
  free_ = kNil;
  std::fill(head_.begin(), head_.end(), kNil);
  std::fill(tail_.begin(), tail_.end(), kNil);
  std::fill(occupied_.begin(), occupied_.end(), 0);
  far_.clear();
  outbox_.clear();
  pending_ = 0;
}

}  // namespace strobe::timing
