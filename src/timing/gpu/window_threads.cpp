#include "timing/gpu/window_threads.h"

#include <stdexcept>

namespace strobe::timing {

namespace {

/// Tells the core this thread is spinning.
inline void relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

/// Spins before a waiting worker yields, and yields before it sleeps: a window's serial part
/// (the control partition and the deliveries) takes microseconds; a gap between launches, the
/// host's setup and verification, can take seconds.
constexpr uint32_t kSpins = 1 << 14, kYields = 1 << 12;

}  // namespace

WindowThreads::WindowThreads(uint32_t threads) {
  // The first worker takes tasks from the back, the others (and the caller) from the front: with
  // two threads each keeps mostly the same tasks window after window, and with them their state
  // in its core's caches, while the meeting point still balances the load.
  for (uint32_t i = 1; i < threads; ++i) workers_.emplace_back([this, i] { worker(i == 1); });
}

WindowThreads::~WindowThreads() {
  stop_.store(true, std::memory_order_release);
  generation_.fetch_add(1, std::memory_order_release);
  generation_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void WindowThreads::run(uint32_t tasks, const std::function<void(uint32_t)>& body) {
  // Everything a generation's workers read is written before the generation is published.
  if (tasks > 0xFFFF) throw std::invalid_argument("window threads: more than 65535 tasks");
  const uint32_t gen = generation_.load(std::memory_order_relaxed) + 1;
  body_ = &body;
  errors_.assign(tasks, nullptr);
  done_.store(0, std::memory_order_relaxed);
  claim_.store(uint64_t(gen) << 32 | uint64_t(tasks) << 16, std::memory_order_release);
  generation_.store(gen, std::memory_order_release);
  generation_.notify_all();
  work(gen, false);
  // The last tasks run on other threads; with more threads than cores, one of them may be
  // waiting for this core, so stop spinning after a while.
  for (uint32_t i = 0; done_.load(std::memory_order_acquire) != tasks; ++i) {
    if (i < kSpins) relax();
    else std::this_thread::yield();
  }
  for (std::exception_ptr& e : errors_)
    if (e) std::rethrow_exception(e);
}

void WindowThreads::work(uint32_t gen, bool from_back) {
  for (uint64_t c = claim_.load(std::memory_order_acquire);;) {
    const uint32_t front = uint32_t(c & 0xFFFF), back = uint32_t(c >> 16 & 0xFFFF);
    if (uint32_t(c >> 32) != gen || front >= back) return;
    const uint64_t next = from_back ? c - (uint64_t{1} << 16) : c + 1;
    if (!claim_.compare_exchange_weak(c, next, std::memory_order_acq_rel, std::memory_order_acquire)) continue;
    const uint32_t t = from_back ? back - 1 : front;
    try {
      (*body_)(t);
    } catch (...) {
      errors_[t] = std::current_exception();
    }
    done_.fetch_add(1, std::memory_order_release);
    c = claim_.load(std::memory_order_acquire);
  }
}

void WindowThreads::worker(bool from_back) {
  uint32_t seen = generation_.load(std::memory_order_acquire);
  for (;;) {
    uint32_t gen = generation_.load(std::memory_order_acquire);
    for (uint32_t i = 0; gen == seen; gen = generation_.load(std::memory_order_acquire), ++i) {
      if (i < kSpins) relax();
      else if (i < kSpins + kYields) std::this_thread::yield();
      else generation_.wait(seen, std::memory_order_acquire);
    }
    if (stop_.load(std::memory_order_acquire)) return;
    seen = gen;
    work(gen, from_back);
  }
}

}  // namespace strobe::timing
