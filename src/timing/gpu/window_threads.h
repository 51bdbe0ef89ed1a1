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

/// Decides, window by window, whether handing windows to threads pays. On a machine where
/// another process holds a core, a worker can be preempted holding a task, and the window then
/// waits for the scheduler: threads can be slower than one. So the runner times its windows
/// (events per second of their partitions' part) in epochs of at least kEpochWindows windows and
/// kEpochSeconds, mostly in the mode it prefers. After the first epoch, and then every
/// kProbeEvery epochs, one epoch runs in the other mode, and the preference changes when that
/// probe is faster by more than kMargin than the mean of the epochs on either side of it. Threads
/// are preferred at first. Which mode runs a window changes the time only, never the result.
class ThreadGovernor {
 public:
  static constexpr uint32_t kEpochWindows = 8;
  static constexpr double kEpochSeconds = 0.02;
  static constexpr uint32_t kProbeEvery = 16;
  static constexpr double kMargin = 1.05;
  /// Whether the next window should go to threads.
  bool threaded() const { return stage_ == Stage::Probe ? !prefer_threads_ : prefer_threads_; }
  /// Records a window run as threaded() said: `events` processed in `seconds`.
  void record(uint64_t events, double seconds);
  /// Whether threads are preferred now.
  bool prefers_threads() const { return prefer_threads_; }
  /// Times the preference changed.
  uint64_t switches() const { return switches_; }

 private:
  enum class Stage : uint8_t { Preferred, Probe, After };
  Stage stage_ = Stage::Preferred;
  bool prefer_threads_ = true;
  uint32_t windows_ = 0, epochs_ = 0;
  uint64_t events_ = 0, switches_ = 0;
  double seconds_ = 0, before_ = 0, probe_ = 0;
};

}  // namespace strobe::timing
