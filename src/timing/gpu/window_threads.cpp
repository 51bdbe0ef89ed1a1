#include "timing/gpu/window_threads.h"

#include <chrono>

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
constexpr uint32_t kSpins = 1 << 10, kYields = 1 << 14;

}  // namespace

WindowThreads::WindowThreads(uint32_t threads) {
  // The first worker takes tasks from the back, the others (and the caller) from the front: with
  // two threads each keeps mostly the same tasks window after window, and with them their state
  // in its core's caches, while the meeting point still balances the load.
  for (uint32_t i = 1; i < threads; ++i) workers_.emplace_back([this, i] { worker(i == 1); });
}

WindowThreads::~WindowThreads() {
  stop_.store(true, std::memory_order_seq_cst);
  publish(generation_.load(std::memory_order_relaxed) + 1);
  for (std::thread& t : workers_) t.join();
}

void WindowThreads::publish(uint32_t gen) {
  // Sequentially consistent with the sleeper's increment and its check of the generation: either
  // this load sees the sleeper, or the sleeper's check sees this generation.
  generation_.store(gen, std::memory_order_seq_cst);
  if (sleepers_.load(std::memory_order_seq_cst) != 0) {
    const std::lock_guard<std::mutex> lock(sleep_mutex_);
    wake_.notify_all();
  }
}

void WindowThreads::run(uint32_t tasks, const std::function<void(uint32_t)>& body) {
  // Everything a generation's workers read is written before the generation is published.
  if (tasks > 0xFFFF) throw std::invalid_argument("window threads: more than 65535 tasks");
  const uint32_t gen = generation_.load(std::memory_order_relaxed) + 1;
  body_ = &body;
  errors_.assign(tasks, nullptr);
  done_.store(0, std::memory_order_relaxed);
  claim_.store(uint64_t(gen) << 32 | uint64_t(tasks) << 16, std::memory_order_release);
  publish(gen);
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
  // A worker that starts late may find the generation the destructor published, so it starts
  // from 0 and checks for the stop in every wait.
  uint32_t seen = 0;
  for (;;) {
    uint32_t gen = generation_.load(std::memory_order_acquire);
    for (uint32_t i = 0; gen == seen && !stop_.load(std::memory_order_acquire);
         gen = generation_.load(std::memory_order_acquire), ++i) {
      if (i < kSpins) relax();
      else if (i < kSpins + kYields) std::this_thread::yield();
      else {
        std::unique_lock<std::mutex> lock(sleep_mutex_);
        sleepers_.fetch_add(1, std::memory_order_seq_cst);
        // A timed wait re-checks the generation however the wake-up is lost or late.
        wake_.wait_for(lock, std::chrono::milliseconds(1),
                       [&] { return generation_.load(std::memory_order_seq_cst) != seen || stop_.load(); });
        sleepers_.fetch_sub(1, std::memory_order_seq_cst);
      }
    }
    if (stop_.load(std::memory_order_acquire)) return;
    seen = gen;
    work(gen, from_back);
  }
}

void ThreadGovernor::record(uint64_t events, double seconds) {
  events_ += events;
  seconds_ += seconds;
  if (++windows_ < kEpochWindows || seconds_ < kEpochSeconds) return;
  const double rate = double(events_) / seconds_;
  windows_ = 0, events_ = 0, seconds_ = 0;
  switch (stage_) {
    case Stage::Preferred:
      before_ = rate;
      // The first probe comes early: a busy machine is usually busy from the start.
      if (++epochs_ == 1 || epochs_ % kProbeEvery == 0) stage_ = Stage::Probe;
      return;
    case Stage::Probe:
      probe_ = rate;
      stage_ = Stage::After;
      return;
    case Stage::After:
      // The epochs on either side of the probe, so a kernel's phase changing under the probe
      // counts half.
      stage_ = Stage::Preferred;
      if (probe_ > (before_ + rate) / 2 * kMargin) {
        prefer_threads_ = !prefer_threads_;
        ++switches_;
      }
      before_ = rate;
      return;
  }
}

}  // namespace strobe::timing
