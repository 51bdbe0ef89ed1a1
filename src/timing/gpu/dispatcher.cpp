#include "timing/gpu/dispatcher.h"

#include <fmt/format.h>

#include "timing/config/gpu_config.h"
#include "timing/engine/events.h"

namespace strobe::timing {

DispatcherParams DispatcherParams::from_config(const GpuConfig& c) {
  return {uint64_t(c.launch_overhead_cycles), uint32_t(c.wg_dispatch_cycles), uint64_t(c.completion_cycles)};
}

Dispatcher::Dispatcher(Engine& engine, std::vector<ComputeUnit*> cus, const DispatcherParams& p)
    : WaveSource("dispatcher"), engine_(engine), picker_(std::move(cus)), p_(p) {}

void Dispatcher::begin(Cycle launch, const WorkgroupLaunch& kernel, uint64_t workgroups) {
  const Cycle start = launch + p_.launch_overhead_cycles;
  kernel_ = kernel;
  kernel_.source = this;
  kernel_.id = 0;
  total_ = workgroups;
  retired_ = 0;
  done_ = false;
  picker_.reset();
  next_allowed_ = start;
  if (total_ == 0) {  // nothing to dispatch: the launch is its overheads
    engine_.schedule(start + p_.completion_cycles, this, kLaunchComplete);
    return;
  }
  try_pending_ = true;
  engine_.schedule(start, this, kDispatchTry);
}

void Dispatcher::handle(Cycle now, uint32_t kind, uint32_t) {
  switch (kind) {
    case kWorkgroupRetired:
      if (++retired_ == total_) {
        // Under the quantum runner the retirement may arrive after its completion time.
        const Cycle done = now + p_.completion_cycles;
        if (done < floor_ || !p_.completion_cycles) complete(done);
        else engine_.schedule(done, this, kLaunchComplete);
        return;
      }
      if (!try_pending_ && kernel_.id < total_) try_dispatch(max(now, floor_));
      return;
    case kDispatchTry:
      try_pending_ = false;
      try_dispatch(now);
      return;
    case kLaunchComplete:
      complete(now);
      return;
    default: unhandled(kind);
  }
}

void Dispatcher::complete(Cycle now) {
  finish_ = now;
  done_ = true;
  engine_.stop();
}

void Dispatcher::try_dispatch(Cycle now) {
  if (kernel_.id >= total_) return;
  if (now < next_allowed_) {
    try_pending_ = true;
    engine_.schedule(next_allowed_, this, kDispatchTry);
    return;
  }
  ComputeUnit* cu = picker_.pick(kernel_.needs);
  if (!cu) return;  // no CU has room: sleep until one retires a work-group
  // A group the observer skips outright (TBPoint's fast-forward, PKA after its stop) takes no
  // time: the next may follow in the same cycle, or the launch's cycles would grow by the
  // dispatch interval for every group a method predicts.
  const bool timed = cu->launch_workgroup(now, kernel_);
  ++kernel_.id;
  next_allowed_ = timed ? now + uint64_t(p_.interval_cycles) : now;
  if (kernel_.id < total_) {
    try_pending_ = true;
    engine_.schedule(next_allowed_, this, kDispatchTry);
  }
}

std::string Dispatcher::describe_state() const {
  return fmt::format("{} of {} work-groups dispatched, {} retired", kernel_.id, total_, retired_);
}

}  // namespace strobe::timing
