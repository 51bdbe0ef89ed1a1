// Functional execution on several host threads (workgroup_threads.h): runs of consecutive
// work-groups ("chunks") are handed to threads dynamically, and everything a chunk produces
// besides memory (counters, the past-the-end log, a fault) is kept per chunk and merged in chunk
// order afterwards. The result is the one a single thread running the work-groups in order
// gives, whichever thread ran what.
#include <algorithm>
#include <atomic>
#include <exception>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "common/error.h"
#include "emu/executor.h"
#include "emu/workgroup_threads.h"
#include "emu/memory.h"
#include "isa/op_traits.h"

namespace strobe::emu {

namespace {

/// What one chunk of work-groups produced, besides memory.
struct ChunkResult {
  DispatchStats stats;
  OverrunLog overruns;
};

}  // namespace

bool has_global_atomics(const isa::Program& p) {
  for (const isa::Inst& in : p.insts) {
    const isa::OpTraits& t = isa::traits(in.op);
    if (t.access == isa::MemAccess::Atomic &&
        (t.mem == isa::MemKind::Flat || t.mem == isa::MemKind::Buffer || t.mem == isa::MemKind::Image))
      return true;
  }
  return false;
}

/// The TBB arena of a HostThreads, with the pool limit that lets it have every thread asked for.
struct HostThreads::Arena {
  tbb::global_control pool;
  tbb::task_arena arena;
  explicit Arena(uint32_t threads)
      : pool(tbb::global_control::max_allowed_parallelism, threads), arena(static_cast<int>(threads)) {}
};

HostThreads::HostThreads(uint32_t threads) : threads_(std::max(threads, 1u)), arena_(std::make_unique<Arena>(threads_)) {}

HostThreads::~HostThreads() = default;

uint64_t HostThreads::run(uint64_t chunks, const std::function<void(uint64_t, uint32_t)>& body,
                          std::exception_ptr* fault) {
  // Chunks after a faulting one are skipped; the ones before it all run, so the fault reported
  // is the first in chunk order, as one thread would report it.
  std::atomic<uint64_t> first_fault{chunks};
  std::vector<std::exception_ptr> errors(chunks);
  // TBB orders the chunks' work after this point and before the return; these two also say so
  // in a form race detectors see (libtbb is not instrumented): one release before the threads
  // start, and one per chunk when it is done.
  std::atomic<uint64_t> started{0}, done{0};
  started.store(1, std::memory_order_release);
  arena_->arena.execute([&] {
    tbb::parallel_for(tbb::blocked_range<uint64_t>(0, chunks, 1), [&](const tbb::blocked_range<uint64_t>& r) {
      // Each arena thread has its own index below `threads`.
      const uint32_t slot = uint32_t(tbb::this_task_arena::current_thread_index());
      (void)started.load(std::memory_order_acquire);
      for (uint64_t c = r.begin(); c != r.end(); ++c) {
        if (c < first_fault.load(std::memory_order_relaxed)) {
          try {
            body(c, slot);
          } catch (...) {
            errors[c] = std::current_exception();
            uint64_t seen = first_fault.load(std::memory_order_relaxed);
            while (c < seen && !first_fault.compare_exchange_weak(seen, c, std::memory_order_relaxed)) {
            }
          }
        }
        done.fetch_add(1, std::memory_order_release);
      }
    });
  });
  if (done.load(std::memory_order_acquire) != chunks) throw Error(ExitCode::Failure, "work-group threads: a chunk never ran");
  const uint64_t first = first_fault.load(std::memory_order_relaxed);
  if (first < chunks) *fault = errors[first];
  return first;
}

uint64_t run_chunks(uint32_t threads, uint64_t chunks, const std::function<void(uint64_t, uint32_t)>& body,
                    std::exception_ptr* fault) {
  HostThreads pool(threads);
  return pool.run(chunks, body, fault);
}

bool uses_scratch(const Dispatch& d) { return std::max(d.private_bytes_per_lane, d.kd.private_segment_fixed_size) > 0; }

uint32_t thread_slots(const Dispatch& d, uint32_t threads) { return uses_scratch(d) ? 1 : std::max(threads, 1u); }

bool threads_keep_order(const Executor& ex) {
  return ex.workgroup_count() > 1 && ex.memory().concurrent_kernels_allowed() && !uses_scratch(ex.dispatch()) &&
         !has_global_atomics(*ex.dispatch().program);
}

DispatchStats Executor::run_threads(uint32_t threads) {
  // Shared memory state is read-only from here to the end of the run (a page created on first
  // touch, or a lookup cache updated, by two threads at once would race).
  const ConcurrentScope concurrent(mem_);
  const uint64_t n = workgroup_count();
  const uint64_t chunks = std::min<uint64_t>(n, uint64_t(threads) * kChunksPerThread);
  std::vector<ChunkResult> results(chunks);
  std::exception_ptr fault;
  const uint64_t first_fault = run_chunks(threads, chunks, [&](uint64_t c, uint32_t slot) {
    ChunkResult& out = results[c];
    WorkGroup wg;  // a chunk's own: its few allocations are nothing beside its work-groups
    for (uint64_t g = chunk_first(n, chunks, c), end = chunk_first(n, chunks, c + 1); g < end; ++g) {
      init_workgroup(wg, g, slot);
      wg.ctx.overruns = &out.overruns;
      run_workgroup(wg, out.stats);
    }
  }, &fault);
  DispatchStats stats;
  for (uint64_t c = 0; c < chunks && c <= first_fault; ++c) {
    stats += results[c].stats;
    mem_.append_overruns(results[c].overruns);
  }
  if (fault) std::rethrow_exception(fault);
  return stats;
}

}  // namespace strobe::emu
