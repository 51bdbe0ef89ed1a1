// A user-mode AQL queue and its packet processor: one host thread per queue plays the GPU's
// command processor, watching the write index (the doorbell is plain memory here) and
// executing packets in order.
#pragma once

#include <atomic>
#include <cstdint>
#include <thread>

namespace strobe::hip {

/// amd_queue_t byte offsets the packet processor uses (ROCr's amd_hsa_queue.h).
namespace amd_queue_field {
inline constexpr uint64_t kReadDispatchId = 128;
}  // namespace amd_queue_field

/// One queue ROCr created with hsaKmtCreateQueue.
class Queue {
 public:
  /// Starts the packet processor on the ring `ring` of `bytes` bytes; `read_index` and
  /// `write_index` point into ROCr's amd_queue_t. On gfx8 (legacy doorbells) the write index
  /// is max_legacy_doorbell_dispatch_id_plus_1, which ROCr advances when it rings the doorbell,
  /// not write_dispatch_id; the read index is read_dispatch_id, which locates the structure.
  Queue(uint64_t id, uint8_t* ring, uint64_t bytes, uint64_t* read_index, uint64_t* write_index);
  /// Stops and joins the packet processor.
  ~Queue();
  Queue(const Queue&) = delete;
  Queue& operator=(const Queue&) = delete;

  uint64_t id() const { return id_; }
  /// The doorbell page handed to ROCr (written, never read: the write index is watched).
  void* doorbell() { return doorbell_; }

 private:
  void run();
  /// Executes the packet in `slot`; returns once it is complete.
  void execute(uint8_t* slot);

  uint64_t id_;
  uint8_t* ring_;
  uint64_t packets_;
  uint64_t* read_index_;
  uint64_t* write_index_;
  uint64_t amd_queue_;  // address of ROCr's amd_queue_t (for the kernels' queue_ptr)
  alignas(64) uint64_t doorbell_[512] = {};
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace strobe::hip
