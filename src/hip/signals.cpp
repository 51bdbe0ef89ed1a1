// Completing AQL signals (amd_signal_t) and the failure path for unsupported requests.
#include <cstdio>

#include <fmt/format.h>

#include "hip/simulator.h"
#include "hip/thunk.h"

namespace strobe::hip {

namespace {
// amd_signal_t byte offsets (ROCr's amd_hsa_signal.h).
constexpr uint64_t kValue = 8, kEventMailbox = 16, kEventId = 24, kStartTs = 32, kEndTs = 40;
}  // namespace

void not_implemented(const char* function, const std::string& why) {
  fatal(fmt::format("not implemented: {}: {}", function, why), 1);
}

int64_t signal_value(uint64_t signal) {
  return __atomic_load_n(reinterpret_cast<int64_t*>(signal + kValue), __ATOMIC_ACQUIRE);
}

void complete_signal(uint64_t signal, uint64_t start_ns, uint64_t end_ns) {
  if (!signal) return;
  // Timestamps first: whoever sees the value drop may read them at once.
  __atomic_store_n(reinterpret_cast<uint64_t*>(signal + kStartTs), start_ns, __ATOMIC_RELAXED);
  __atomic_store_n(reinterpret_cast<uint64_t*>(signal + kEndTs), end_ns, __ATOMIC_RELAXED);
  __atomic_fetch_sub(reinterpret_cast<int64_t*>(signal + kValue), 1, __ATOMIC_ACQ_REL);
  const uint64_t mailbox = __atomic_load_n(reinterpret_cast<uint64_t*>(signal + kEventMailbox), __ATOMIC_ACQUIRE);
  if (mailbox) {
    const uint32_t id = __atomic_load_n(reinterpret_cast<uint32_t*>(signal + kEventId), __ATOMIC_ACQUIRE);
    __atomic_store_n(reinterpret_cast<uint64_t*>(mailbox), uint64_t(id), __ATOMIC_RELEASE);
    set_event_by_id(id);
  }
}

}  // namespace strobe::hip
