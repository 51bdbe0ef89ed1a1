// Events: what ROCr's interrupt signals sleep on. Each event has a mailbox (HWData2) where the
// command processor posts its id when it completes a signal; hsaKmtSetEvent and completion
// both wake the waiters.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include <sys/mman.h>

#include <fmt/format.h>

#include "hip/simulator.h"
#include "hip/thunk.h"

namespace strobe::hip {

namespace {

struct Event {
  HsaEvent public_part{};  // first: ROCr holds HsaEvent*, which is this object's address
  bool manual_reset = false;
  bool signaled = false;
};

// Event mailboxes live in one page range the simulated GPU can reach, as the KFD's event page:
// device code completing an interrupt signal (a hostcall, device printf) writes the event id
// there. Event ids index it modulo its size.
constexpr uint32_t kMailboxes = 4096;
uint64_t* g_mailboxes = nullptr;

uint64_t* mailbox_area() {
  if (!g_mailboxes) {
    void* p = ::mmap(nullptr, kMailboxes * sizeof(uint64_t), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) not_implemented("hsaKmtCreateEvent", "no memory for the event mailboxes");
    Simulator& sim = Simulator::instance();
    std::lock_guard dev(sim.mutex());
    sim.device().memory().map_host(reinterpret_cast<uint64_t>(p), kMailboxes * sizeof(uint64_t), "event mailboxes");
    g_mailboxes = static_cast<uint64_t*>(p);
  }
  return g_mailboxes;
}

std::mutex g_mu;
std::condition_variable g_cv;  // one for all events: waits are short and wake-ups rare
std::unordered_map<uint32_t, std::unique_ptr<Event>> g_events;
uint32_t g_next_id = 1;
std::vector<bool> g_slot_used(kMailboxes);

// ROCr re-reads its signal values after every wake-up, so a bounded sleep is never wrong and
// covers a signal a kernel changes in memory without an event.
constexpr auto kMaxSleep = std::chrono::milliseconds(5);

Event* from_public(HsaEvent* e) { return reinterpret_cast<Event*>(e); }

}  // namespace

void set_event_by_id(uint32_t id) {
  std::lock_guard lock(g_mu);
  auto it = g_events.find(id);
  if (it == g_events.end()) return;
  it->second->signaled = true;
  g_cv.notify_all();
}

}  // namespace strobe::hip

using namespace strobe::hip;

extern "C" {

HSAKMT_STATUS HSAKMTAPI hsaKmtCreateEvent(HsaEventDescriptor* desc, bool manual_reset, bool is_signaled,
                                          HsaEvent** event) {
  if (!event) return HSAKMT_STATUS_INVALID_PARAMETER;
  auto e = std::make_unique<Event>();
  e->manual_reset = manual_reset;
  e->signaled = is_signaled;
  std::lock_guard lock(g_mu);
  if (g_events.size() + 1 >= kMailboxes)
    not_implemented("hsaKmtCreateEvent", fmt::format("more than {} events at once", kMailboxes));
  uint32_t id = g_next_id;
  while (id % kMailboxes == 0 || g_slot_used[id % kMailboxes]) ++id;  // slot 0: id 0 means "no event"
  g_slot_used[id % kMailboxes] = true;
  g_next_id = id + 1;
  e->public_part.EventId = id;
  e->public_part.EventData.EventType = desc ? desc->EventType : HSA_EVENTTYPE_SIGNAL;
  e->public_part.EventData.HWData2 = reinterpret_cast<HSAuint64>(mailbox_area() + e->public_part.EventId % kMailboxes);
  *event = &e->public_part;
  g_events.emplace(e->public_part.EventId, std::move(e));
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtDestroyEvent(HsaEvent* event) {
  if (!event) return HSAKMT_STATUS_INVALID_PARAMETER;
  std::lock_guard lock(g_mu);
  if (g_events.erase(event->EventId)) g_slot_used[event->EventId % kMailboxes] = false;
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtSetEvent(HsaEvent* event) {
  if (!event) return HSAKMT_STATUS_INVALID_PARAMETER;
  set_event_by_id(event->EventId);
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtWaitOnMultipleEvents(HsaEvent* events[], HSAuint32 n, bool wait_all,
                                                   HSAuint32 milliseconds) {
  if (!events || n == 0) return HSAKMT_STATUS_INVALID_PARAMETER;
  auto ready = [&] {
    HSAuint32 set = 0;
    for (HSAuint32 i = 0; i < n; ++i) set += events[i] && from_public(events[i])->signaled;
    return wait_all ? set == n : set > 0;
  };
  std::unique_lock lock(g_mu);
  const auto limit = std::min<std::chrono::milliseconds>(kMaxSleep, std::chrono::milliseconds(milliseconds));
  if (!g_cv.wait_for(lock, limit, ready)) return HSAKMT_STATUS_WAIT_TIMEOUT;
  for (HSAuint32 i = 0; i < n; ++i)  // auto-reset events are consumed by the wait that saw them
    if (events[i] && !from_public(events[i])->manual_reset) from_public(events[i])->signaled = false;
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtWaitOnEvent(HsaEvent* event, HSAuint32 milliseconds) {
  return hsaKmtWaitOnMultipleEvents(&event, 1, true, milliseconds);
}

}  // extern "C"
