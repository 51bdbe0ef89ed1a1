#include "timing/engine/engine.h"

#include <algorithm>
#include <bit>

namespace strobe::timing {

Engine::Engine() : buckets_(kWindow), occupied_(kWindow / 64, 0) {
  for (auto& b : buckets_) b.reserve(16);
  far_.reserve(256);
}

void Engine::push_far(Cycle when, Component* target, uint32_t kind, uint32_t arg) {
  far_.push_back(FarEvent{when, far_seq_++, Slot{target, kind, arg}});
  std::push_heap(far_.begin(), far_.end(), later);
}

Cycle Engine::next_time() const {
  // Scan the bitmap from the bucket after now_'s, wrapping once around the ring. Every bucket
  // holds events of one cycle in [now_, now_ + kWindow), so the first set bit is the earliest.
  const uint32_t words = kWindow / 64;
  const uint32_t start = uint32_t((now_.value() + 1) & (kWindow - 1));
  for (uint32_t i = 0; i <= words; ++i) {
    const uint32_t wi = (start / 64 + i) % words;
    uint64_t bits = occupied_[wi];
    if (i == 0) bits &= ~uint64_t{0} << (start % 64);               // from `start` on
    if (i == words) bits &= (uint64_t{1} << (start % 64)) - 1;      // wrapped: before `start`
    if (!bits) continue;
    const uint32_t b = wi * 64 + uint32_t(std::countr_zero(bits));
    return now_ + uint64_t((b - start) & (kWindow - 1)) + 1;
  }
  return far_.empty() ? Cycle::never() : far_.front().when;
}

void Engine::migrate() {
  while (!far_.empty() && far_.front().when.value() - now_.value() < kWindow) {
    std::pop_heap(far_.begin(), far_.end(), later);
    const FarEvent e = far_.back();
    far_.pop_back();
    const uint32_t b = uint32_t(e.when.value() & (kWindow - 1));
    buckets_[b].push_back(e.slot);
    occupied_[b / 64] |= uint64_t{1} << (b % 64);
  }
}

bool Engine::run(Cycle limit) {
  stopped_ = false;
  while (!stopped_) {
    const uint32_t bi = uint32_t(now_.value() & (kWindow - 1));
    std::vector<Slot>& bucket = buckets_[bi];
    if (cursor_ < bucket.size()) {
      const Slot e = bucket[cursor_++];  // a copy: handling may append to this bucket
      --pending_;
      ++processed_;
      e.target->handle(now_, e.kind, e.arg);
      continue;
    }
    bucket.clear();
    cursor_ = 0;
    occupied_[bi / 64] &= ~(uint64_t{1} << (bi % 64));
    if (pending_ == 0) return true;
    const Cycle next = next_time();
    if (next > limit) return false;
    now_ = next;
    migrate();
  }
  return true;
}

void Engine::clear() {
  for (auto& b : buckets_) b.clear();
  std::fill(occupied_.begin(), occupied_.end(), 0);
  far_.clear();
  cursor_ = 0;
  pending_ = 0;
}

}  // namespace strobe::timing
