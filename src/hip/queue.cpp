// The packet processor loop and the queue entry points of the thunk.
#include "hip/queue.h"

#include <chrono>
#include <map>
#include <memory>
#include <mutex>

#include <fmt/format.h>

#include "hip/packets.h"
#include "hip/thunk.h"

namespace strobe::hip {

namespace {

constexpr uint8_t kPacketInvalid = 1;

std::mutex g_queues_mu;
std::map<uint64_t, std::unique_ptr<Queue>> g_queues;
uint64_t g_next_queue = 1;

/// Sleeps a little longer each time the queue is found empty, up to a millisecond: quick
/// to react after a submission, cheap while a program computes on the host.
class Backoff {
 public:
  void wait() {
    if (idle_ < 64) std::this_thread::yield();
    else std::this_thread::sleep_for(std::chrono::microseconds(std::min<uint64_t>(1000, 10 * (idle_ - 63))));
    ++idle_;
  }
  void reset() { idle_ = 0; }

 private:
  uint64_t idle_ = 0;
};

}  // namespace

Queue::Queue(uint64_t id, uint8_t* ring, uint64_t bytes, uint64_t* read_index, uint64_t* write_index)
    : id_(id), ring_(ring), packets_(bytes / kPacketBytes), read_index_(read_index), write_index_(write_index),
      amd_queue_(reinterpret_cast<uint64_t>(read_index) - amd_queue_field::kReadDispatchId) {
  thread_ = std::thread([this] { run(); });
}

Queue::~Queue() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

void Queue::run() {
  Backoff backoff;
  while (!stop_.load(std::memory_order_relaxed)) {
    const uint64_t r = __atomic_load_n(read_index_, __ATOMIC_ACQUIRE);
    const uint64_t w = __atomic_load_n(write_index_, __ATOMIC_ACQUIRE);
    uint8_t* slot = ring_ + (r % packets_) * kPacketBytes;
    // The producer bumps the write index before it publishes the header: an INVALID header
    // means the packet is still being written.
    const uint16_t header = __atomic_load_n(reinterpret_cast<uint16_t*>(slot), __ATOMIC_ACQUIRE);
    if (r >= w || (header & 0xff) == kPacketInvalid) {
      backoff.wait();
      continue;
    }
    backoff.reset();
    execute_packet(slot, amd_queue_, id_, stop_);
    __atomic_store_n(reinterpret_cast<uint16_t*>(slot), uint16_t((header & ~0xffu) | kPacketInvalid), __ATOMIC_RELEASE);
    __atomic_store_n(read_index_, r + 1, __ATOMIC_RELEASE);
  }
}

}  // namespace strobe::hip

using namespace strobe::hip;

extern "C" {

HSAKMT_STATUS HSAKMTAPI hsaKmtCreateQueue(HSAuint32 node, HSA_QUEUE_TYPE type, HSAuint32, HSA_QUEUE_PRIORITY,
                                          void* ring, HSAuint64 bytes, HsaEvent*, HsaQueueResource* resource) {
  if (!ring || !resource || bytes < kPacketBytes) return HSAKMT_STATUS_INVALID_PARAMETER;
  if (node != kGpuNode) return HSAKMT_STATUS_INVALID_NODE_UNIT;
  if (type != HSA_QUEUE_COMPUTE_AQL)
    not_implemented("hsaKmtCreateQueue", fmt::format("queue type {} (only AQL compute queues are simulated; set "
                                                     "HSA_ENABLE_SDMA=0 for copies without the DMA engine)", int(type)));
  std::lock_guard lock(g_queues_mu);
  const uint64_t id = g_next_queue++;
  auto q = std::make_unique<Queue>(id, static_cast<uint8_t*>(ring), bytes, resource->Queue_read_ptr_aql,
                                   resource->Queue_write_ptr_aql);
  resource->QueueId = id;
  resource->Queue_DoorBell_aql = static_cast<HSAuint64*>(q->doorbell());
  g_queues.emplace(id, std::move(q));
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtUpdateQueue(HSA_QUEUEID, HSAuint32, HSA_QUEUE_PRIORITY, void*, HSAuint64, HsaEvent*) {
  return HSAKMT_STATUS_SUCCESS;  // percentage and priority do not change what the simulator runs
}

HSAKMT_STATUS HSAKMTAPI hsaKmtDestroyQueue(HSA_QUEUEID id) {
  std::unique_ptr<Queue> q;
  {
    std::lock_guard lock(g_queues_mu);
    auto it = g_queues.find(id);
    if (it == g_queues.end()) return HSAKMT_STATUS_INVALID_PARAMETER;
    q = std::move(it->second);
    g_queues.erase(it);
  }
  return HSAKMT_STATUS_SUCCESS;  // q's destructor joins the processor outside the lock
}

HSAKMT_STATUS HSAKMTAPI hsaKmtSetQueueCUMask(HSA_QUEUEID, HSAuint32, HSAuint32*) {
  return HSAKMT_STATUS_SUCCESS;  // every dispatch may use every simulated CU
}

}  // extern "C"
