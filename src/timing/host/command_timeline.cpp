#include "timing/host/command_timeline.h"

#include <algorithm>
#include <cmath>

namespace strobe::timing {

namespace {

/// Nanoseconds `bytes` take at `gbs` GB/s (10^9 bytes per second), rounded up.
uint64_t ns_at(uint64_t bytes, double gbs) { return uint64_t(std::ceil(double(bytes) / gbs)); }

uint64_t us_to_ns(double us) { return uint64_t(std::llround(us * 1e3)); }

}  // namespace

CommandTimeline::CommandTimeline(const GpuConfig& c)
    : to_device_gbs_(c.host_to_device_gbs),
      to_host_gbs_(c.host_to_host_gbs),
      local_gbs_(c.dram_bandwidth_gbs),
      transfer_latency_ns_(us_to_ns(c.host_transfer_latency_us)),
      launch_latency_ns_(us_to_ns(c.host_launch_latency_us)) {}

CommandWork CommandTimeline::transfer(CommandEngine direction, uint64_t bytes) const {
  const double gbs = direction == CommandEngine::ToDevice ? to_device_gbs_ : to_host_gbs_;
  return {direction, transfer_latency_ns_ + ns_at(bytes, gbs), bytes, false};
}

CommandWork CommandTimeline::local(uint64_t read, uint64_t written) const {
  return {CommandEngine::Compute, ns_at(read + written, local_gbs_), written, true};
}

CommandTimes CommandTimeline::place(uint64_t queued, uint64_t ready, const CommandWork& work) {
  CommandTimes t;
  t.queued = queued;
  t.submit = queued;
  t.start = std::max(ready, t.submit);
  if (work.launch) t.start = std::max(t.start, t.submit + launch_latency_ns_);
  if (work.engine != CommandEngine::None) t.start = std::max(t.start, free_at_[size_t(work.engine)]);
  t.end = t.start + work.busy_ns;
  if (work.engine != CommandEngine::None) free_at_[size_t(work.engine)] = t.end;
  EngineTotals& tot = totals_[size_t(work.engine)];
  ++tot.commands;
  tot.bytes += work.bytes;
  tot.busy_ns += work.busy_ns;
  last_end_ = std::max(last_end_, t.end);
  return t;
}

}  // namespace strobe::timing
