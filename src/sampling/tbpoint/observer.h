// TBPoint's intra-launch sampling driven by the timing model: the shared fast-forward observer
// (common/skipping_observer.h) answering each dispatched work-group from the RegionSampler
// (state_machine.h).
#pragma once

#include <cstdint>
#include <span>

#include "sampling/common/skipping_observer.h"
#include "sampling/tbpoint/state_machine.h"

namespace strobe::sampling::tbpoint {

/// Feeds the model's dispatch and retirement events to a RegionSampler. A group the sampler
/// skips is fast-forwarded, as in the paper; its cycles are not simulated but predicted from its
/// region's IPC by RegionSampler::estimate().
class RegionObserver final : public SkippingObserver {
 public:
  /// `table` must be built from `groups`, the launch's profile; `skip`: skipped groups are not
  /// emulated (the results are then unverifiable); `l2_lines`: the configured L2's lines, for
  /// RegionSampler's wait for the L2 to fill.
  RegionObserver(RegionTable table, std::span<const WorkGroupCounts> groups, const Params& params, bool skip,
                 uint64_t l2_lines = 0);

  /// The sampler, for its estimate, units, transitions and sampled regions.
  const RegionSampler& sampler() const { return sampler_; }

 private:
  bool simulate(uint64_t wg, uint64_t cycle, uint64_t issued) override {
    return sampler_.dispatch(wg, cycle, issued).simulate;
  }
  void retired(uint64_t wg, uint64_t, uint64_t cycle, uint64_t issued) override { sampler_.retire(wg, cycle, issued); }

  RegionSampler sampler_;
};

}  // namespace strobe::sampling::tbpoint
