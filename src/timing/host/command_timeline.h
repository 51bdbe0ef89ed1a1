// A host program's time on a discrete GPU: the host link that copies cross (one DMA engine per
// direction, since the link is full duplex), the compute engine that runs kernels and
// device-local copies one at a time, and the host's own clock, which moves only when the host
// waits for the GPU. A host runtime (the OpenCL platform) runs each command functionally, then
// places it here with the device work it did, and reports the times it gets back as the
// command's profiling times. Kernels' own durations come from the timing model; this adds what
// a real GPU adds around them (docs/timing-model.md, "The host side").
#pragma once

#include <array>
#include <cstdint>

#include "timing/config/gpu_config.h"

namespace strobe::timing {

/// Where a command's device work runs.
enum class CommandEngine : uint8_t { None, Compute, ToDevice, ToHost };

/// A command's place on the timeline, in nanoseconds since the program started.
struct CommandTimes {
  uint64_t queued = 0, submit = 0, start = 0, end = 0;
};

/// What one engine did over a run.
struct EngineTotals {
  uint64_t commands = 0;  ///< commands placed on it
  uint64_t bytes = 0;     ///< bytes they moved (copies and fills)
  uint64_t busy_ns = 0;   ///< time it was busy
};

/// The device work of one command, as the command's functional run reports it.
struct CommandWork {
  CommandEngine engine = CommandEngine::None;
  uint64_t busy_ns = 0;  ///< time on the engine, latencies included
  uint64_t bytes = 0;
  bool launch = false;  ///< a dispatch (kernel or blit): it waits the launch latency after submission
};

/// The host link and engines of one GPU, and the host's clock.
class CommandTimeline {
 public:
  /// Rates and latencies from the configuration's `host.*` keys and the DRAM's bandwidth.
  explicit CommandTimeline(const GpuConfig& c);

  /// Device work of a copy of `bytes` between host and device memory (ToDevice or ToHost).
  CommandWork transfer(CommandEngine direction, uint64_t bytes) const;
  /// Device work of a device-local copy or fill that reads `read` bytes and writes `written`,
  /// run as a blit at the DRAM's peak bandwidth on the compute engine.
  CommandWork local(uint64_t read, uint64_t written) const;
  /// Device work of a kernel that took `ns` of simulated GPU time.
  static CommandWork kernel(uint64_t ns) { return {CommandEngine::Compute, ns, 0, true}; }

  /// The host's clock now: when a command enqueued now is queued.
  uint64_t host_ns() const { return host_ns_; }
  /// The host waited until `t` (a blocking call returned when a command that ends then ended).
  void host_waits_until(uint64_t t) {
    if (t > host_ns_) host_ns_ = t;
  }

  /// Places a command queued at `queued` whose dependencies end at `ready`: it is submitted when
  /// queued (the hardware resolves dependencies), starts when its engine is free, its
  /// dependencies have ended and, for a dispatch, the launch latency has passed since
  /// submission, and keeps its engine busy for the work's time.
  CommandTimes place(uint64_t queued, uint64_t ready, const CommandWork& work);

  /// One engine's totals so far.
  const EngineTotals& totals(CommandEngine e) const { return totals_[size_t(e)]; }
  /// Simulated time from the program's start to the later of its last command's end and the
  /// host's clock.
  uint64_t span_ns() const { return last_end_ > host_ns_ ? last_end_ : host_ns_; }
  /// The configuration's rates, for reports: GB/s to and from the device, latencies in ns.
  double to_device_gbs() const { return to_device_gbs_; }
  double to_host_gbs() const { return to_host_gbs_; }
  uint64_t transfer_latency_ns() const { return transfer_latency_ns_; }
  uint64_t launch_latency_ns() const { return launch_latency_ns_; }

 private:
  double to_device_gbs_, to_host_gbs_, local_gbs_;
  uint64_t transfer_latency_ns_, launch_latency_ns_;
  uint64_t host_ns_ = 0;
  uint64_t last_end_ = 0;
  std::array<uint64_t, 4> free_at_{};  // per engine: when it is next idle
  std::array<EngineTotals, 4> totals_{};
};

}  // namespace strobe::timing
