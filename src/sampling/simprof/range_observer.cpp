// Measuring work-group ranges (see range_observer.h).
#include "sampling/simprof/range_observer.h"

#include <algorithm>
#include <stdexcept>

namespace strobe::sampling::simprof {

RangeObserver::RangeObserver(std::vector<uint64_t> bounds, const std::vector<bool>& measure, uint64_t warm_groups,
                             uint64_t cool_groups, bool skip)
    : SkippingObserver(skip), bounds_(std::move(bounds)) {
  if (bounds_.size() != measure.size() + 1 || measure.empty())
    throw std::invalid_argument("RangeObserver: one bound per range and the group count are needed");
  const uint64_t groups = bounds_.back();
  simulated_.assign(groups, 0);
  dispatched_.assign(groups, 0);
  retired_.assign(groups, 0);
  // The launch's start as a primer: a warm-up dispatched onto an empty GPU starts all its groups
  // at once and they retire in a burst, unlike the staggered retirements of a running launch
  // (measured on relu: a range after such a warm-up 31% short). Run in detail, the launch's first
  // groups stagger the GPU as in the full run before the skipped groups and the warm-up follow.
  for (size_t r = 1; r < measure.size(); ++r)
    if (measure[r] && !measure[0]) {
      for (uint64_t g = 0; g < std::min(groups, warm_groups); ++g) simulated_[g] = 2;
      break;
    }
  for (size_t r = 0; r < measure.size(); ++r) {
    if (!measure[r]) continue;
    const uint64_t first = bounds_[r];
    // The warm-up: the groups just before the range, in its launch (a launch's first range
    // starts on an empty GPU in the full run too).
    for (uint64_t g = first - std::min(first, warm_groups); g < first; ++g)
      if (!simulated_[g]) simulated_[g] = 2;
    for (uint64_t g = first; g < bounds_[r + 1]; ++g) simulated_[g] = 1;
    for (uint64_t g = bounds_[r + 1]; g < std::min(groups, bounds_[r + 1] + cool_groups); ++g)
      if (!simulated_[g]) simulated_[g] = 2;
  }
  for (uint8_t s : simulated_) warm_ += s == 2;
}

bool RangeObserver::simulate(uint64_t wg, uint64_t cycle, uint64_t) {
  if (wg >= simulated_.size() || !simulated_[wg]) return false;
  dispatched_[wg] = cycle;
  return true;
}

void RangeObserver::retired(uint64_t wg, uint64_t, uint64_t cycle, uint64_t) {
  if (wg < retired_.size()) retired_[wg] = cycle;
}

uint64_t RangeObserver::cycles(size_t r) const {
  const uint64_t first = bounds_[r], end = bounds_[r + 1];
  // The last simulated group before the range to retire; with none, the range began on an empty
  // GPU: at the launch's start for its first range, else when its own first group was dispatched.
  bool any = false;
  uint64_t before = 0;
  for (uint64_t g = 0; g < first; ++g)
    if (simulated_[g]) before = std::max(before, retired_[g]), any = true;
  if (!any) before = r == 0 ? start_ : dispatched_[first];
  uint64_t done = before;
  if (r + 2 == bounds_.size()) {
    done = end_;
  } else {
    for (uint64_t g = 0; g < end; ++g)
      if (simulated_[g]) done = std::max(done, retired_[g]);
  }
  return done > before ? done - before : 0;
}

}  // namespace strobe::sampling::simprof
