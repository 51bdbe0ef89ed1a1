// Shared pieces of strobe's KFD thunk (libhsakmt.so.1): the allocation registry, events, signal
// completion and the failure path for requests the thunk does not support.
#pragma once

#include <hsakmt.h>

#include <cstdint>
#include <string>

namespace strobe::hip {

/// The GPU node's id in the topology (node 0 is the CPU).
inline constexpr HSAuint32 kGpuNode = 1;

/// Ends the process with "not implemented: FUNCTION: why": ROCr must not be left waiting on a
/// request the thunk cannot honour.
[[noreturn]] void not_implemented(const char* function, const std::string& why);

/// One range of memory the thunk knows: allocated by hsaKmtAllocMemory or registered.
struct Allocation {
  uint64_t address = 0, size = 0;
  HsaMemFlags flags{};
  HSAuint32 node = 0;
  bool registered = false;  ///< program memory registered with the runtime (not ours to unmap)
  /// Registrations of this very range not yet deregistered: ROCr and HIP may register the same
  /// host range again, and the KFD thunk counts registrations rather than refusing one.
  uint32_t registrations = 1;
  void* user_data = nullptr;
};

/// The allocation containing `address`, if any (copied out under the registry's lock).
bool find_allocation(uint64_t address, Allocation* out);

/// Sets event `id` (wakes its waiters); unknown ids are ignored, as the KFD does.
void set_event_by_id(uint32_t id);

/// Completes an AQL completion signal the way the command processor does: writes the
/// profiling timestamps, decrements the value and, for an interrupt signal, posts its event
/// id to the event mailbox and sets the event. A zero handle is ignored.
void complete_signal(uint64_t signal, uint64_t start_ns, uint64_t end_ns);

/// The current value of an amd_signal_t.
int64_t signal_value(uint64_t signal);

}  // namespace strobe::hip
