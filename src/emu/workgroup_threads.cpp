// Functional execution on several host threads: runs of consecutive work-groups ("chunks") are
// handed to threads dynamically, and everything a chunk produces besides memory (counters, the
// past-the-end log, a fault) is kept per chunk and merged in chunk order afterwards. The result is
// the one a single thread running the work-groups in order gives, whichever thread ran what.
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
#include "emu/memory.h"
#include "isa/op_traits.h"

namespace strobe::emu {

namespace {

/// Chunks per thread: enough that a thread finishing early finds work (work-groups of one
/// dispatch differ in length), few enough that a chunk amortises its bookkeeping.
constexpr uint64_t kChunksPerThread = 16;

/// What one chunk of work-groups produced, besides memory.
struct ChunkResult {
  DispatchStats stats;
  OverrunLog overruns;
  std::exception_ptr fault;  ///< the chunk's first fault; its later work-groups did not run
};

void add(DispatchStats& to, const DispatchStats& s) {
  to.wave_instructions += s.wave_instructions;
  to.thread_instructions += s.thread_instructions;
  to.vector_memory_instructions += s.vector_memory_instructions;
  to.scalar_memory_instructions += s.scalar_memory_instructions;
  to.lds_instructions += s.lds_instructions;
  to.workgroups += s.workgroups;
  to.wavefronts += s.wavefronts;
}

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

DispatchStats Executor::run_threads(uint32_t threads) {
  // Shared memory state is read-only from here to the end of the run (a page created on first
  // touch, or a lookup cache updated, by two threads at once would race).
  mem_.begin_concurrent();
  struct EndConcurrent {
    emu::GlobalMemory& m;
    ~EndConcurrent() { m.end_concurrent(); }
  } end_concurrent{mem_};
  const uint64_t n = workgroup_count();
  const uint64_t chunks = std::min<uint64_t>(n, uint64_t(threads) * kChunksPerThread);
  std::vector<ChunkResult> results(chunks);
  // Chunks after a faulting one are skipped; the ones before it all run, so the fault reported
  // is the first in work-group order, as one thread would report it.
  std::atomic<uint64_t> first_fault{chunks};
  // TBB orders the chunks' work after this point and before the merge below; these two also
  // say so in a form race detectors see (libtbb is not instrumented): one release before the
  // threads start, and one per chunk when it is done.
  std::atomic<uint64_t> started{0}, done{0};
  started.store(1, std::memory_order_release);
  // As many threads as asked for, also beyond the cores (TBB's pool stops at the core count).
  tbb::global_control pool(tbb::global_control::max_allowed_parallelism, threads);
  tbb::task_arena arena(static_cast<int>(threads));
  arena.execute([&] {
    tbb::parallel_for(tbb::blocked_range<uint64_t>(0, chunks, 1), [&](const tbb::blocked_range<uint64_t>& r) {
      // Each arena thread has its own index below `threads`, so its own scratch slot.
      const uint32_t slot = uint32_t(tbb::this_task_arena::current_thread_index());
      (void)started.load(std::memory_order_acquire);
      for (uint64_t c = r.begin(); c != r.end(); ++c) {
        if (c > first_fault.load(std::memory_order_relaxed)) {
          done.fetch_add(1, std::memory_order_release);
          continue;
        }
        ChunkResult& out = results[c];
        WorkGroup wg;  // a chunk's own: its few allocations are nothing beside its work-groups
        try {
          for (uint64_t g = n * c / chunks, end = n * (c + 1) / chunks; g < end; ++g) {
            init_workgroup(wg, g, slot);
            wg.ctx.overruns = &out.overruns;
            run_workgroup(wg, out.stats);
          }
        } catch (...) {
          out.fault = std::current_exception();
          uint64_t seen = first_fault.load(std::memory_order_relaxed);
          while (c < seen && !first_fault.compare_exchange_weak(seen, c, std::memory_order_relaxed)) {
          }
        }
        done.fetch_add(1, std::memory_order_release);
      }
    });
  });
  if (done.load(std::memory_order_acquire) != chunks) throw Error(ExitCode::Failure, "work-group threads: a chunk never ran");
  DispatchStats stats;
  for (const ChunkResult& r : results) {
    add(stats, r.stats);
    mem_.append_overruns(r.overruns);
    if (r.fault) std::rethrow_exception(r.fault);
  }
  return stats;
}

}  // namespace strobe::emu
