// TBPoint's region observer.
#include "sampling/tbpoint/observer.h"

#include <utility>

#include "emu/executor.h"

namespace strobe::sampling::tbpoint {

RegionObserver::RegionObserver(RegionTable table, std::span<const WorkGroupCounts> groups, const Params& params,
                               bool skip)
    : sampler_(std::move(table), groups, params), skip_(skip) {}

std::optional<uint64_t> RegionObserver::predict_workgroup(const emu::Executor& ex, emu::WorkGroup& wg,
                                                          emu::DispatchStats& stats, uint64_t cycle,
                                                          uint32_t cu) {
  const WorkGroupDecision d = sampler_.dispatch(profile::linear_id(ex, wg), cycle, issued());
  if (d.simulate) return std::nullopt;
  if (!skip_) {
    profile::Collector none;
    profiler_.set_warming(warmer_, cu);
    profiler_.run_workgroup(ex, wg, stats, none);
  }
  // Fast-forwarded groups take no simulated time in the launch; their time is the region IPC's
  // prediction, added to the launch's detailed cycles by the estimate [T Table IV].
  return 0;
}

void RegionObserver::workgroup_end(uint64_t id, uint64_t, uint64_t cycle) { sampler_.retire(id, cycle, issued()); }

}  // namespace strobe::sampling::tbpoint
