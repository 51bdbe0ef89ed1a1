// Work-groups of one dispatch on several host threads: the chunking, thread and fault rules that
// make the result the one a single thread running the groups in order gives (executor.h,
// Executor::run). Shared by the emulator's own runs and by the timing model's functional
// warming, which records each chunk's accesses and replays them in order.
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <memory>

namespace strobe::emu {

class Executor;
struct Dispatch;

/// Chunks per thread: enough that a thread finishing early finds work (work-groups of one
/// dispatch differ in length), few enough that a chunk amortises its bookkeeping.
inline constexpr uint64_t kChunksPerThread = 16;

/// Runs `body(c, slot)` for every chunk c in [0, chunks) on `threads` host threads (at most
/// `threads` at once, also beyond the core count), `slot` being the running thread's index below
/// `threads` (a scratch slot of an executor with that many). Chunks are independent: the caller
/// keeps what each produces apart and merges it in chunk order. A chunk that throws keeps its
/// exception and chunks after it are skipped (those before it all run). Returns the first chunk
/// in order that threw, or `chunks` if none did, with its exception in `*fault`.
uint64_t run_chunks(uint32_t threads, uint64_t chunks, const std::function<void(uint64_t chunk, uint32_t slot)>& body,
                    std::exception_ptr* fault);

/// Host threads kept for repeated runs of chunks (the pixel waves of one draw after another):
/// the thread arena is made once, not per run.
class HostThreads {
 public:
  /// At most `threads` at once, also beyond the core count.
  explicit HostThreads(uint32_t threads);
  ~HostThreads();
  HostThreads(const HostThreads&) = delete;
  HostThreads& operator=(const HostThreads&) = delete;
  /// The threads asked for.
  uint32_t threads() const { return threads_; }
  /// run_chunks() on these threads.
  uint64_t run(uint64_t chunks, const std::function<void(uint64_t chunk, uint32_t slot)>& body,
               std::exception_ptr* fault);

 private:
  struct Arena;
  uint32_t threads_;
  std::unique_ptr<Arena> arena_;
};

/// True if `ex`'s dispatch may run its work-groups on threads with a one-thread result: more than
/// one group, memory that allows concurrent kernel accesses, no global atomics, and no private
/// (scratch) memory: scratch for more slots would move every later allocation's address, and
/// with it the digest and the timing model's cache sets.
bool threads_keep_order(const Executor& ex);

/// True if `d` needs private (scratch) memory.
bool uses_scratch(const Dispatch& d);

/// The executor slots a functional run of `d` on `threads` threads allocates scratch for: one
/// when it uses scratch (it then runs on one thread), else `threads`.
uint32_t thread_slots(const Dispatch& d, uint32_t threads);

/// The first work-group of chunk `c` of `chunks` over `groups` (chunk c is [first(c), first(c+1))).
inline uint64_t chunk_first(uint64_t groups, uint64_t chunks, uint64_t c) { return groups * c / chunks; }

}  // namespace strobe::emu
