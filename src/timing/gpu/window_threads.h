// Host threads for the quantum runner's windows (quantum.h). A window of a sparse kernel holds a
// few microseconds of work, so handing it to a general thread pool (emu::HostThreads, whose
// workers sleep between calls) would cost as much as the work. These workers spin on a counter
// between windows, yield after a while and sleep only when no window has come for a long time
// (between launches), so starting a window costs a cache-line transfer, not a wake-up.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace strobe::timing {

/// `threads` - 1 spinning workers plus the calling thread (see the file comment).
class WindowThreads {
 public:
  explicit WindowThreads(uint32_t threads);
  ~WindowThreads();
  WindowThreads(const WindowThreads&) = delete;
  WindowThreads& operator=(const WindowThreads&) = delete;

  /// The threads that run tasks, the caller included.
  uint32_t threads() const { return uint32_t(workers_.size()) + 1; }
  /// Runs `body(t)` for every task t in [0, tasks) (at most 65535), each once, on the workers and the calling
  /// thread, and returns when all are done. If any threw, rethrows the exception of the lowest
  /// such task (which does not depend on which thread ran what).
  void run(uint32_t tasks, const std::function<void(uint32_t)>& body);

 private:
  /// Claims and runs tasks of generation `gen` until none is left, from the front of the
  /// remaining range or from its back.
  void work(uint32_t gen, bool from_back);
  void worker(bool from_back);
  /// Publishes generation `gen` and wakes any worker that went to sleep.
  void publish(uint32_t gen);

  std::vector<std::thread> workers_;
  // A generation's tasks are claimed by compare-and-swap on one word holding the generation and
  // the unclaimed range [front, back) (32, 16 and 16 bits: back above front), so a worker still
  // leaving an old generation can never take a task of a new one, nor judge an old task by a
  // new range.
  std::atomic<uint64_t> claim_{0};
  std::atomic<uint32_t> generation_{0};
  std::atomic<uint32_t> done_{0};
  std::atomic<bool> stop_{false};
  // Sleeping workers wait on a condition variable (std::atomic::wait lost wake-ups in
  // libstdc++ 12); a publisher takes the mutex only when one may be asleep.
  std::atomic<uint32_t> sleepers_{0};
  std::mutex sleep_mutex_;
  std::condition_variable wake_;
  const std::function<void(uint32_t)>* body_ = nullptr;
  std::vector<std::exception_ptr> errors_;
};

}  // namespace strobe::timing
