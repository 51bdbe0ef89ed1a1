// The one loop through which sampling runs work functionally: a work-group's waves in order,
// each until it halts or reaches s_barrier, then the barrier opens and they go on (the
// executor's rule). A method's profiling pass, its online analysis samples and the work-groups
// it predicts all run here, at the grain its collector asks for (collector.h).
#pragma once

#include <algorithm>
#include <bit>
#include <concepts>
#include <cstdint>
#include <exception>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "emu/executor.h"
#include "emu/memory.h"
#include "emu/workgroup_threads.h"
#include "sampling/profile/collector.h"
#include "timing/gpu/warmer.h"

namespace strobe::sampling::profile {

/// A collector whose work can be split into runs of consecutive work-groups on host threads
/// (collector.h): split() gives an empty collector for one run, join() appends a later run's
/// results, and can_split() says whether this instance may be split at all.
template <class C>
concept Splittable = requires(C& c, const C& cc, C&& part) {
  { cc.can_split() } -> std::convertible_to<bool>;
  { cc.split() } -> std::same_as<C>;
  c.join(std::move(part));
};

/// A split collector that wants to know which run of groups it is about to collect, on the host
/// thread that runs it: begin_run(k) comes before run k's first group (runs are numbered in
/// dispatch order), so per-thread state can be chosen and the run's results numbered in order.
template <class C>
concept KnowsRuns = requires(C& c, uint64_t k) { c.begin_run(k); };

/// Runs work-groups functionally and reports them to a collector. Holds the loop's scratch
/// state, so one Profiler reused across work-groups allocates nothing once warm.
class Profiler {
 public:
  /// `line_bytes` (a power of two): the line size coalesced memory requests are counted at.
  explicit Profiler(uint32_t line_bytes = 64) : line_bits_(uint32_t(std::countr_zero(line_bytes))) {}

  /// The line size requests are counted at.
  uint32_t line_bytes() const { return 1u << line_bits_; }

  /// Makes the next run_workgroup() calls at Grain::None and Grain::Block warm `warmer`'s caches
  /// as the work-group runs on CU `cu` (work a method predicts inside a detailed launch); null
  /// stops warming. Instruction-grain collectors (profiling passes) never warm.
  void set_warming(timing::Warmer* warmer, uint32_t cu) { warmer_ = warmer, warm_cu_ = cu; }

  /// Runs every wave of `wg` (initialised by `ex`) to completion, honouring barriers, counting
  /// into `stats` as the executor does, and reports it to `c` at C::kGrain.
  template <class C>
  void run_workgroup(const emu::Executor& ex, emu::WorkGroup& wg, emu::DispatchStats& stats, C& c);

  /// Runs every work-group of `d` in dispatch order through run_workgroup() and returns the
  /// dispatch's counters. With `threads` > 1, a Splittable collector that can_split(), and a
  /// dispatch whose groups may run on threads (emu::threads_keep_order), runs of consecutive
  /// groups go to threads, each into its own split() of `c`, joined in order: `c`, memory, the
  /// counters, past-the-end warnings and the fault reported are those of one thread.
  template <class C>
  emu::DispatchStats run_launch(const emu::Dispatch& d, emu::GlobalMemory& mem, C& c, uint32_t threads = 1);

  /// Distinct lines among the lanes `mi` records.
  uint32_t count_lines(const emu::MemAccessInfo& mi) const;

 private:
  template <class C>
  void run_instructions(const emu::Executor& ex, emu::WorkGroup& wg, emu::DispatchStats& stats, C& c, uint32_t i);
  /// run_launch() of `ex`'s groups on `threads` threads (its conditions hold).
  template <class C>
  emu::DispatchStats run_threads(emu::Executor& ex, C& c, uint32_t threads) const;

  uint32_t line_bits_;
  timing::Warmer* warmer_ = nullptr;  ///< set_warming(): the caches warmed, null for none
  uint32_t warm_cu_ = 0;
  std::vector<Counters> waves_;  ///< per wave of the current group
  emu::MemAccessInfo mi_;
};

/// Whether `e` is a vector memory encoding (the timing model's IssueType::Vmem).
constexpr bool is_vector_memory(isa::Encoding e) {
  return e == isa::Encoding::FLAT || e == isa::Encoding::GLOBAL || e == isa::Encoding::SCRATCH ||
         e == isa::Encoding::MUBUF || e == isa::Encoding::MTBUF || e == isa::Encoding::MIMG;
}

/// The dispatch-order index of `wg` (x fastest), as Executor::init_workgroup numbers groups.
inline uint64_t linear_id(const emu::Executor& ex, const emu::WorkGroup& wg) {
  const auto& g = ex.groups();
  return wg.id[0] + uint64_t(g[0]) * (wg.id[1] + uint64_t(g[1]) * wg.id[2]);
}

/// A Grain::Block collector that hands every basic block to `fn(wave, start_pc, instructions)`.
template <class F>
struct BlockCallback : Collector {
  static constexpr Grain kGrain = Grain::Block;
  const uint8_t* ends;
  F* fn;
  const uint8_t* block_ends() const { return ends; }
  void block(uint32_t wave, uint32_t start, uint32_t n) { (*fn)(wave, start, n); }
};

/// Runs `wg` through `p` calling `fn(wave, start_pc, instructions)` for each basic block; `ends`
/// is timing::basic_block_ends() of the dispatch's program.
template <class F>
void run_blocks(Profiler& p, const emu::Executor& ex, emu::WorkGroup& wg, emu::DispatchStats& stats,
                const std::vector<uint8_t>& ends, F&& fn) {
  BlockCallback<std::remove_reference_t<F>> c{{}, ends.data(), &fn};
  p.run_workgroup(ex, wg, stats, c);
}

template <class C>
void Profiler::run_workgroup(const emu::Executor& ex, emu::WorkGroup& wg, emu::DispatchStats& stats, C& c) {
  const uint32_t n = uint32_t(wg.waves.size());
  waves_.assign(n, Counters{});
  struct Sink {
    C* c;
    uint32_t wave;
  } sink [[maybe_unused]]{&c, 0};
  do {
    for (uint32_t i = 0; i < n; ++i) {
      emu::Wave& w = wg.waves[i];
      if constexpr (C::kGrain == Grain::Instruction) {
        run_instructions(ex, wg, stats, c, i);
      } else {
        // Whole waves at full speed; the counters are the executor's, taken as differences.
        const uint64_t wi = stats.wave_instructions, ti = stats.thread_instructions;
        if constexpr (C::kGrain == Grain::Block) {
          sink.wave = i;
          const emu::Executor::BlockFn fn = [](void* s, uint32_t start, uint32_t len) {
            auto* k = static_cast<Sink*>(s);
            k->c->block(k->wave, start, len);
          };
          if (warmer_) warmer_->run_wave(warm_cu_, ex, w, wg, stats, c.block_ends(), fn, &sink);
          else ex.run_wave_blocks(w, wg, stats, c.block_ends(), fn, &sink);
        } else if (warmer_) {
          warmer_->run_wave(warm_cu_, ex, w, wg, stats);
        } else {
          ex.run_wave(w, wg, stats);
        }
        waves_[i].wave_instructions += stats.wave_instructions - wi;
        waves_[i].thread_instructions += stats.thread_instructions - ti;
      }
    }
  } while (emu::Executor::try_release_barrier(wg));
  stats.wavefronts += n;
  ++stats.workgroups;
  Counters total;
  for (uint32_t i = 0; i < n; ++i) {
    c.wave_end(i, waves_[i]);
    total.add(waves_[i]);
  }
  c.workgroup_end(linear_id(ex, wg), total);
}

template <class C>
void Profiler::run_instructions(const emu::Executor& ex, emu::WorkGroup& wg, emu::DispatchStats& stats, C& c,
                                uint32_t i) {
  // One Executor::step per instruction, with the lanes' addresses recorded for vector memory.
  emu::Wave& w = wg.waves[i];
  Counters& k = waves_[i];
  const isa::Program& prog = *ex.dispatch().program;
  const std::vector<isa::Inst>& insts = prog.insts;
  Instruction ev;
  ev.wave = i;
  // With C::kAccesses, every line access goes to the collector too, as functional warming walks them.
  [[maybe_unused]] const timing::AccessWalker walk(c.access_line_bytes());
  [[maybe_unused]] const uint32_t unit = uint32_t(linear_id(ex, wg));
  [[maybe_unused]] uint64_t code_line = UINT64_MAX;  // the instruction line the wave last fetched
  while (!w.halted && !w.at_barrier) {
    const uint32_t pc = w.pc;
    if (pc >= insts.size()) [[unlikely]] {
      ex.step(w, wg, stats);  // faults, naming the wave
      continue;
    }
    const isa::Inst& in = insts[pc];
    const bool vmem = is_vector_memory(in.enc);
    if constexpr (C::kAccesses) {
      const uint64_t line = (prog.base_address + prog.offsets[pc]) >> walk.line_bits();
      if (line != code_line)
        c.access(timing::WarmAccess{code_line = line, unit, timing::WarmAccess::L1i, timing::ReqKind::Read,
                                    uint32_t(k.wave_instructions)});
      // Only memory instructions touch lines: LDS and ALU ones are not asked to record lanes.
      const bool mem = vmem || in.enc == isa::Encoding::SMEM;
      mi_.lane_mask = 0, mi_.space = emu::MemAccessInfo::Space::None;
      wg.ctx.mem_info = mem ? &mi_ : nullptr;
    } else {
      if (vmem) mi_.lane_mask = 0, mi_.space = emu::MemAccessInfo::Space::None;
      wg.ctx.mem_info = vmem ? &mi_ : nullptr;
    }
    ev.pc = pc;
    ev.inst = &in;
    ev.active_lanes = uint32_t(std::popcount(w.exec()));
    ex.step(w, wg, stats);
    uint32_t lines = timing::AccessWalker::kLinesUncounted;
    if constexpr (C::kAccesses) {
      lines = walk.emit_accesses(unit, mi_, [&c](const timing::WarmAccess& a) { c.access(a); },
                                 uint32_t(k.wave_instructions));
      if (walk.line_bits() != line_bits_) lines = timing::AccessWalker::kLinesUncounted;  // counted at another size
    }
    ev.mem = vmem ? &mi_ : nullptr;
    ev.lines = !vmem ? 0 : lines != timing::AccessWalker::kLinesUncounted ? lines : count_lines(mi_);
    ++k.wave_instructions;
    k.thread_instructions += ev.active_lanes;
    if (vmem) {
      if (mi_.space == emu::MemAccessInfo::Space::Global) k.global_requests += ev.lines;
      else if (mi_.space == emu::MemAccessInfo::Space::Scratch) k.scratch_requests += ev.lines;
    }
    c.instruction(ev);
  }
  wg.ctx.mem_info = nullptr;  // mi_ is ours; the next user of the group must not write into it
}

template <class C>
emu::DispatchStats Profiler::run_launch(const emu::Dispatch& d, emu::GlobalMemory& mem, C& c, uint32_t threads) {
  emu::Executor ex(d, mem, emu::thread_slots(d, threads));
  if constexpr (Splittable<C>) {
    // Cache warming replays accesses in dispatch order; a warming loop stays on one thread.
    if (threads > 1 && !warmer_ && c.can_split() && emu::threads_keep_order(ex)) return run_threads(ex, c, threads);
  }
  emu::WorkGroup wg;
  emu::DispatchStats stats;
  for (uint64_t g = 0; g < ex.workgroup_count(); ++g) {
    ex.init_workgroup(wg, g, 0);
    run_workgroup(ex, wg, stats, c);
  }
  return stats;
}

template <class C>
emu::DispatchStats Profiler::run_threads(emu::Executor& ex, C& c, uint32_t threads) const {
  const emu::ConcurrentScope concurrent(ex.memory());  // shared memory state is read-only meanwhile
  const uint64_t n = ex.workgroup_count();
  const uint64_t chunks = std::min<uint64_t>(n, uint64_t(threads) * emu::kChunksPerThread);
  /// What one run of groups produced: its collector, counters and past-the-end accesses.
  struct Part {
    std::optional<C> c;
    emu::DispatchStats stats;
    emu::OverrunLog overruns;
  };
  std::vector<Part> parts(chunks);
  for (Part& p : parts) p.c.emplace(c.split());  // here, so split() need not be thread-safe
  std::vector<Profiler> loops(threads, Profiler(line_bytes()));  // scratch state per thread
  std::exception_ptr fault;
  const uint64_t first_fault = emu::run_chunks(threads, chunks, [&](uint64_t k, uint32_t slot) {
    Part& p = parts[k];
    if constexpr (KnowsRuns<C>) p.c->begin_run(k);
    emu::WorkGroup wg;
    for (uint64_t g = emu::chunk_first(n, chunks, k), end = emu::chunk_first(n, chunks, k + 1); g < end; ++g) {
      ex.init_workgroup(wg, g, slot);
      wg.ctx.overruns = &p.overruns;
      loops[slot].run_workgroup(ex, wg, p.stats, *p.c);
    }
  }, &fault);
  emu::DispatchStats stats;
  for (uint64_t k = 0; k < chunks && k < first_fault; ++k) {
    stats += parts[k].stats;
    ex.memory().append_overruns(parts[k].overruns);
    c.join(std::move(*parts[k].c));
  }
  if (fault) {
    ex.memory().append_overruns(parts[first_fault].overruns);
    std::rethrow_exception(fault);
  }
  return stats;
}

}  // namespace strobe::sampling::profile
