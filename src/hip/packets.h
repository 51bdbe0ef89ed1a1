// Executing one AQL packet as the command processor does: kernel dispatches through strobe's
// runtime, barrier-AND/OR packets, and the gfx8 PM4 commands ROCr writes into AQL slots.
#pragma once

#include <atomic>
#include <cstdint>

namespace strobe::hip {

/// Bytes of one AQL packet slot.
inline constexpr uint64_t kPacketBytes = 64;

/// Executes the packet in `slot` of queue `queue_id` (whose amd_queue_t is at `amd_queue`) to
/// completion, including its completion signal. Waits on barrier dependencies until they are
/// met or `stop` is set. A fault or an unsupported packet ends the process with its reason.
void execute_packet(uint8_t* slot, uint64_t amd_queue, uint64_t queue_id, const std::atomic<bool>& stop);

}  // namespace strobe::hip
