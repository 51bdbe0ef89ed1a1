#include "timing/engine/engine.h"

#include <algorithm>
#include <cassert>

namespace strobe::timing {

void Engine::schedule(Cycle when, Component* target, uint32_t kind, uint32_t arg) {
  assert(when >= now_);
  heap_.push_back(Event{when, seq_++, target, kind, arg});
  std::push_heap(heap_.begin(), heap_.end(), later);
}

bool Engine::run(Cycle limit) {
  stopped_ = false;
  while (!heap_.empty() && !stopped_) {
    if (heap_.front().when > limit) return false;
    std::pop_heap(heap_.begin(), heap_.end(), later);
    Event e = heap_.back();
    heap_.pop_back();
    now_ = e.when;
    ++processed_;
    e.target->handle(e.when, e.kind, e.arg);
  }
  return true;
}

}  // namespace strobe::timing
