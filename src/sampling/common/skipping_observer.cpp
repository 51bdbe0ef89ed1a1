// The shared work-group fast-forward (see skipping_observer.h).
#include "sampling/common/skipping_observer.h"

#include "emu/executor.h"

namespace strobe::sampling {

std::optional<uint64_t> SkippingObserver::predict_workgroup(const emu::Executor& ex, emu::WorkGroup& wg,
                                                            emu::DispatchStats& stats, uint64_t cycle, uint32_t cu) {
  if (simulate(profile::linear_id(ex, wg), cycle, issued())) return std::nullopt;
  if (!skip_functional_) {
    profile::Collector none;
    profiler_.set_warming(warmer_, cu);
    profiler_.run_workgroup(ex, wg, stats, none);
  }
  // A skipped group takes no simulated time in the launch: the method accounts for it.
  return 0;
}

}  // namespace strobe::sampling
