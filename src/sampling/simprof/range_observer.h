// Measuring work-group ranges of one launch in detail (SimProf's units inside large launches,
// METHODS.md §3.8) on the shared fast-forward (common/skipping_observer.h): the measured ranges
// run in detail with a warm-up of the groups just before each and a cool-down of those just
// after, the launch's first groups run as a primer, and every other group is fast-forwarded.
//
// A range's cycles are what it adds to its launch: the cycle its last group retires (the launch's
// end for the last range) less the cycle the last simulated group before it retired, both
// running maxima in group order. In a full detailed run the ranges' cycles so defined add up
// exactly to the launch's. Sampled, each helper reproduces a condition of the full run (measured
// on relu, docs/sampling.md): the warm-up fills the GPU before the range, the cool-down keeps its
// last groups retiring among others, and the primer staggers the retirements the warm-up's
// groups are dispatched into, as a running launch's are.
#pragma once

#include <cstdint>
#include <vector>

#include "sampling/common/skipping_observer.h"

namespace strobe::sampling::simprof {

/// Runs a launch's measured ranges in detail and measures their cycles.
class RangeObserver final : public SkippingObserver {
 public:
  /// `bounds`: the first group (linear id) of each range in order, then the launch's group count;
  /// `measure[r]`: range r is measured; `warm_groups`: groups before a measured range that does
  /// not start the launch simulated in detail, unmeasured; `cool_groups`: the same after one, so
  /// that its last groups retire among others as in the full run; `skip`: fast-forwarded groups
  /// are not emulated.
  RangeObserver(std::vector<uint64_t> bounds, const std::vector<bool>& measure, uint64_t warm_groups,
                uint64_t cool_groups, bool skip);

  /// After the launch: measured range `r`'s cycles.
  uint64_t cycles(size_t r) const;
  /// Groups simulated in detail only to warm or cool a measured range.
  uint64_t warmup_groups() const { return warm_; }

  void launch_end(uint64_t start, uint64_t end) override { start_ = start, end_ = end; }

 private:
  bool simulate(uint64_t wg, uint64_t cycle, uint64_t) override;
  void retired(uint64_t wg, uint64_t, uint64_t cycle, uint64_t) override;

  std::vector<uint64_t> bounds_;
  std::vector<uint8_t> simulated_;  ///< per group: whether it runs in detail
  std::vector<uint64_t> dispatched_, retired_;
  uint64_t warm_ = 0;
  uint64_t start_ = 0, end_ = 0;
};

}  // namespace strobe::sampling::simprof
