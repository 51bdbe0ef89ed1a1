#include "timing/gpu/gpu.h"

#include <algorithm>
#include <deque>
#include <exception>
#include <optional>
#include <span>
#include <tuple>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/error.h"
#include "emu/executor.h"
#include "emu/memory.h"
#include "emu/workgroup_threads.h"
#include "timing/cu/compute_unit.h"
#include "timing/engine/engine.h"
#include "timing/engine/events.h"
#include "timing/gfx/tbr_pipeline.h"
#include "timing/gpu/dispatcher.h"
#include "timing/gpu/observer_log.h"
#include "timing/gpu/placement.h"
#include "timing/gpu/quantum.h"
#include "timing/gpu/window_threads.h"
#include "timing/mem/cache.h"
#include "timing/mem/dram.h"
#include "timing/mem/tlb.h"

namespace strobe::timing {

namespace {

/// Polls a launch's observer every poll_interval() cycles.
class ObserverPoller : public Component {
 public:
  ObserverPoller(Engine& e, const uint64_t* counter) : Component("observer_poll"), engine_(e), counter_(counter) {}
  void begin(Cycle start, LaunchObserver* o, uint32_t launch) {
    observer_ = o, launch_ = launch, base_ = *counter_;
    interval_ = o ? o->poll_interval() : 0;
    if (interval_) engine_.schedule(start + interval_, this, kSample, launch_);
  }
  void end() { launch_ = UINT32_MAX, observer_ = nullptr; }
  void handle(Cycle now, uint32_t kind, uint32_t launch) override {
    if (kind != kSample) unhandled(kind);
    if (launch != launch_) return;  // a poll of a finished launch
    observer_->poll(now.value(), *counter_ - base_);
    engine_.schedule(now + interval_, this, kSample, launch_);
  }

 private:
  Engine& engine_;
  const uint64_t* counter_;
  LaunchObserver* observer_ = nullptr;
  uint64_t interval_ = 0, base_ = 0;
  uint32_t launch_ = UINT32_MAX;
};

/// What each partition counts apart under the quantum runner (one LaunchContext per partition,
/// from `base`): its wave instructions and, on threads, the accesses past an allocation's end
/// its waves logged. collect() adds them up in partition order at each window's end.
struct PartitionCounts {
  std::vector<uint64_t> instructions;
  std::vector<emu::OverrunLog> overruns;
  std::vector<LaunchContext> lc;
  PartitionCounts(size_t parts, const LaunchContext& base, bool on_threads)
      : instructions(parts, 0), overruns(parts), lc(parts, base) {
    for (size_t p = 0; p < parts; ++p) {
      lc[p].wave_instructions = &instructions[p];
      if (on_threads) lc[p].overruns = &overruns[p];
    }
  }
  /// Adds the window's counts into `total` and the logged overruns into `mem`'s log (null: none
  /// were logged apart).
  void collect(uint64_t& total, emu::GlobalMemory* mem) {
    for (size_t p = 0; p < instructions.size(); ++p) {
      total += std::exchange(instructions[p], 0);
      if (mem && overruns[p].count) mem->append_overruns(std::exchange(overruns[p], {}));
    }
  }
};

/// The one memory every shader wave of `f` reads, or null when its waves read none or several.
emu::GlobalMemory* frame_memory(const FrameWork& f) {
  emu::GlobalMemory* mem = nullptr;
  for (const PassWork& pass : f.passes)
    for (const DrawWork& d : pass.draws)
      for (const ShaderWork* s : {&d.vs, &d.ps}) {
        if (!s->executor) continue;
        emu::GlobalMemory* m = &s->executor->memory();
        if (mem && m != mem) return nullptr;
        mem = m;
      }
  return mem;
}

}  // namespace

struct Gpu::Impl {
  GpuConfig cfg;
  // One engine and request pool per partition: one of each on the exact engine; under the
  // quantum runner the control partition (dispatcher, samplers, graphics), the memory hub (L2
  // banks, DRAM) and one per shader array (its CUs, L1Vs, scalar cache and L1I).
  std::vector<std::unique_ptr<Engine>> engines;
  std::vector<std::unique_ptr<RequestPool>> pools;
  Engine& engine;  // the control partition's (the only one on the exact engine)
  std::unique_ptr<QuantumRunner> runner;           // sim.engine=quantum only
  std::unique_ptr<WindowThreads> threads;          // the runner's, made on first use
  StatsRegistry stats;
  std::vector<std::unique_ptr<Cache>> l1v, scache, l1i, l2;
  std::unique_ptr<SharedTlb> shared_tlb;           // tlb.enabled=on only
  std::vector<std::unique_ptr<Tlb>> tlbs;          // in front of the L1s the CUs talk to
  std::unique_ptr<Dram> dram;
  std::vector<std::unique_ptr<ComputeUnit>> cus;
  std::unique_ptr<Dispatcher> dispatcher;
  std::unique_ptr<TbrPipeline> gfx;
  std::unique_ptr<TimelineSampler> sampler;
  std::unique_ptr<ObserverPoller> poller;
  std::unique_ptr<Warmer> warmer;
  /// An L1 TLB's miss in a window, for resolve_translations().
  struct Miss {
    uint64_t at;
    uint32_t part, tlb, id;
  };
  std::vector<Miss> misses;  // resolve_translations()' scratch
  CuParams cu_params;
  uint64_t wave_instructions = 0, launches = 0, cycles_total = 0;
  Cycle start{0};

  /// The partitions `cfg` asks for: 1 on the exact engine, else 2 + one per shader array.
  static size_t partitions(const GpuConfig& c) {
    return choice<SimEngine>(c, "sim.engine") == SimEngine::Quantum ? size_t(2 + c.num_cus / c.cus_per_shader_array) : 1;
  }
  static constexpr uint32_t kHub = 1;  ///< the memory hub's partition under the quantum runner
  /// The partition of the hub (L2, DRAM) or of shader array `a` (-1: the hub).
  uint32_t part_of(int64_t a) const { return !runner ? 0 : a < 0 ? kHub : uint32_t(2 + a); }
  /// `c`, now a component of partition `p`.
  template <class T>
  T* placed(T* c, uint32_t p) {
    c->set_partition(p);
    return c;
  }

  explicit Impl(const GpuConfig& c)
      : cfg((validate(c), c)), engines(make_engines(partitions(cfg))), pools(make_pools(partitions(cfg))),
        engine(*engines[0]) {
    if (engines.size() > 1) {  // validate() checked the quantum engine's rules
      std::vector<Engine*> e;
      std::vector<RequestPool*> p;
      for (size_t i = 0; i < engines.size(); ++i) {
        e.push_back(engines[i].get());
        p.push_back(pools[i].get());
        pools[i]->set_partition(uint8_t(i), i == kHub);  // the hub's requesters are all elsewhere
      }
      int64_t window = cfg.quantum_cycles ? cfg.quantum_cycles : cfg.noc_latency;
      // An L1 TLB's miss is looked up in the shared L2 TLB when its window ends, which must come
      // before the translation is due (tlb.h).
      if (choice<Switch>(cfg, "tlb.enabled") == Switch::On)
        window = std::min<int64_t>(window, cfg.tlb_l1_latency + cfg.tlb_l2_latency);
      runner = std::make_unique<QuantumRunner>(std::move(e), std::move(p), uint64_t(window));
    }
    const uint32_t hub = part_of(-1);
    Engine& hub_engine = *engines[hub];
    RequestPool& hub_pool = *pools[hub];
    // Each component reads its own parameters (from_config beside its struct); this only wires
    // the hierarchy: L2 banks over DRAM, per-array scalar and instruction caches, per-CU L1Vs.
    dram = std::make_unique<Dram>("dram", DramParams::from_config(cfg), hub_engine, hub_pool, stats);
    placed(dram.get(), hub);
    std::vector<Component*> l2_ports;
    for (int64_t b = 0; b < cfg.l2_banks; ++b) {
      const std::string name = fmt::format("l2.{}", b);
      l2.push_back(std::make_unique<Cache>(name, CacheParams::from_config(cfg, CacheLevel::L2, name), hub_engine,
                                           hub_pool, stats));
      placed(l2.back().get(), hub)->set_lower({dram.get()});
      l2_ports.push_back(l2.back().get());
    }
    const int64_t arrays = cfg.num_cus / cfg.cus_per_shader_array;
    for (int64_t a = 0; a < arrays; ++a) {
      const std::string sname = fmt::format("scache.{}", a), iname = fmt::format("l1i.{}", a);
      const uint32_t part = part_of(a);
      scache.push_back(std::make_unique<Cache>(sname, CacheParams::from_config(cfg, CacheLevel::Scalar, sname),
                                               *engines[part], *pools[part], stats));
      l1i.push_back(std::make_unique<Cache>(iname, CacheParams::from_config(cfg, CacheLevel::L1I, iname),
                                            *engines[part], *pools[part], stats));
      placed(scache.back().get(), part)->set_lower(l2_ports);
      placed(l1i.back().get(), part)->set_lower(l2_ports);
    }
    // With translation modelled, each CU talks to an L1 TLB in front of each of its L1s.
    const TlbParams tlb = TlbParams::from_config(cfg);
    if (tlb.enabled) shared_tlb = std::make_unique<SharedTlb>(tlb, stats);
    // Each sits in its cache's partition; under the quantum runner it looks its misses up at
    // the window's end (Tlb, resolve_translations()).
    auto front = [&](const std::string& name, Cache* cache) -> Component* {
      if (!tlb.enabled) return cache;
      const uint32_t part = cache->partition();
      tlbs.push_back(std::make_unique<Tlb>(name, tlb, *shared_tlb, cache, *engines[part], *pools[part], stats));
      placed(tlbs.back().get(), part)->set_deferred(runner != nullptr);
      return tlbs.back().get();
    };
    std::vector<Component*> scalar_in, instr_in;
    for (int64_t a = 0; a < arrays; ++a) {
      scalar_in.push_back(front(fmt::format("tlb.scalar.{}", a), scache[size_t(a)].get()));
      instr_in.push_back(front(fmt::format("tlb.instr.{}", a), l1i[size_t(a)].get()));
    }
    cu_params = CuParams::from_config(cfg);
    std::vector<ComputeUnit*> cu_ptrs;
    for (int64_t i = 0; i < cfg.num_cus; ++i) {
      const std::string vname = fmt::format("l1v.{}", i);
      const size_t a = size_t(i / cfg.cus_per_shader_array);
      const uint32_t part = part_of(int64_t(a));
      l1v.push_back(std::make_unique<Cache>(vname, CacheParams::from_config(cfg, CacheLevel::L1V, vname),
                                            *engines[part], *pools[part], stats));
      placed(l1v.back().get(), part)->set_lower(l2_ports);
      cus.push_back(std::make_unique<ComputeUnit>(fmt::format("cu.{}", i), uint32_t(i), cu_params, *engines[part],
                                                  *pools[part], stats,
                                                  front(fmt::format("tlb.vector.{}", i), l1v.back().get()),
                                                  scalar_in[a], instr_in[a]));
      placed(cus.back().get(), part);
      cu_ptrs.push_back(cus.back().get());
    }
    dispatcher = std::make_unique<Dispatcher>(engine, cu_ptrs, DispatcherParams::from_config(cfg));
    gfx = std::make_unique<TbrPipeline>(engine, *pools[0], stats, cu_ptrs, l2_ports, GraphicsParams::from_config(cfg),
                                        cu_params);
    TimelineSources sources{&wave_instructions, dispatcher->dispatched_counter(), dispatcher->retired_counter(), {}};
    for (const auto& c : cus) sources.cu_wave_instructions.push_back(&c->counters().wave_instructions);
    sampler = std::make_unique<TimelineSampler>(engine, std::move(sources), uint64_t(cfg.timeline_samples));
    poller = std::make_unique<ObserverPoller>(engine, &wave_instructions);
    auto ptrs = [](const std::vector<std::unique_ptr<Cache>>& v) {
      std::vector<Cache*> p;
      for (const auto& c : v) p.push_back(c.get());
      return p;
    };
    warmer = std::make_unique<Warmer>(ptrs(l1v), ptrs(scache), ptrs(l1i), ptrs(l2), uint32_t(cfg.cus_per_shader_array),
                                      uint32_t(cfg.line_bytes));
    stats.add("gpu.cycles", &cycles_total);
    stats.add("gpu.launches", &launches);
  }

  static std::vector<std::unique_ptr<Engine>> make_engines(size_t n) {
    std::vector<std::unique_ptr<Engine>> v;
    for (size_t i = 0; i < n; ++i) v.push_back(std::make_unique<Engine>());
    return v;
  }
  static std::vector<std::unique_ptr<RequestPool>> make_pools(size_t n) {
    std::vector<std::unique_ptr<RequestPool>> v;
    for (size_t i = 0; i < n; ++i) v.push_back(std::make_unique<RequestPool>());
    return v;
  }
  /// The simulated time: the control engine's, or the start of the runner's next window.
  Cycle now() const { return runner ? runner->now() : engine.now(); }

  std::string dump_state() const {
    std::string s = fmt::format("at cycle {}:\n  {}: {}\n  {}: {}\n", now().value(), dispatcher->name(),
                                dispatcher->describe_state(), gfx->name(), gfx->describe_state());
    for (const auto& c : cus)
      if (!c->idle()) s += fmt::format("  {}: {}\n", c->name(), c->describe_state());
    for (const auto& c : l2) s += fmt::format("  {}: {}\n", c->name(), c->describe_state());
    return s;
  }
  /// Runs the engine (or the quantum runner's windows, on `threads` when given) until
  /// `w.finished()`, with the one watchdog every run shares: an empty event queue before the end
  /// is a deadlock, and `watchdog_cycles` without `w.progress()` moving is a hang unless
  /// `w.excused()` (a launch completing, a predicted group's retirement still to come). Both
  /// throw FaultError naming `w.what` and the machine's state.
  /// DRAM requests serviced so far (part of what the watchdog counts as progress).
  uint64_t dram_serviced() const { return dram->counters().reads + dram->counters().writes; }
  /// drive(): on the exact engine as it is; under the quantum runner on `threads` host threads
  /// when `shared` (the memory the waves read, then read concurrently) is given, else on one,
  /// with `at_end(end)` and the wave sources' floors (a retirement reaches them when its window
  /// ends) at every window's end.
  template <class Watch, class AtEnd>
  void drive_windows(const Watch& w, emu::GlobalMemory* shared, uint32_t host_threads, AtEnd&& at_end) {
    if (!runner) return drive(w, nullptr);
    if (shared && (!threads || threads->threads() != host_threads)) threads = std::make_unique<WindowThreads>(host_threads);
    std::optional<emu::ConcurrentScope> concurrent;
    if (shared) concurrent.emplace(*shared);
    runner->on_window_end([&](Cycle end) {
      at_end(end);
      resolve_translations();
      dispatcher->set_floor(end);
      gfx->set_floor(end);
    });
    drive(w, shared ? threads.get() : nullptr);
    runner->on_window_end({});
  }
  /// Under the quantum runner: looks the window's L1 TLB misses up in the shared L2 TLB, by
  /// cycle, then partition, TLB and order, and hands each translation back (tlb.h).
  void resolve_translations() {
    misses.clear();
    for (uint32_t t = 0; t < tlbs.size(); ++t)
      for (uint32_t i = 0; i < tlbs[t]->lookups().size(); ++i)
        misses.push_back({tlbs[t]->lookups()[i].at, tlbs[t]->partition(), t, i});
    if (misses.empty()) return;
    std::sort(misses.begin(), misses.end(), [](const auto& a, const auto& b) {
      return std::tie(a.at, a.part, a.tlb, a.id) < std::tie(b.at, b.part, b.tlb, b.id);
    });
    for (const auto& m : misses)
      tlbs[m.tlb]->resolve(m.id, shared_tlb->translate(tlbs[m.tlb]->lookups()[m.id].page, Cycle(m.at)));
    for (const auto& t : tlbs) t->end_window();
  }
  template <class Watch>
  void drive(const Watch& w, WindowThreads* threads) {
    const uint64_t watchdog = uint64_t(cfg.watchdog_cycles);
    uint64_t seen = w.progress();
    const auto deadlock = [&] {
      return FaultError(fmt::format("{}: timing model deadlock (no pending events)\n{}", w.what, dump_state()));
    };
    const auto hang = [&] {
      return FaultError(fmt::format("{}: no progress for {} cycles\n{}", w.what, watchdog, dump_state()));
    };
    if (runner) {
      Cycle seen_at = runner->now();
      while (!w.finished()) {
        runner->run_window(threads);
        if (w.finished()) return;
        if (runner->idle()) throw deadlock();
        if (w.progress() != seen || w.excused()) {
          seen = w.progress();
          seen_at = runner->now();
        } else if ((runner->now() - seen_at).value() >= watchdog) {
          throw hang();
        }
      }
      return;
    }
    while (!w.finished()) {
      const bool drained = engine.run(engine.now() + watchdog);
      if (w.finished()) return;
      if (drained && engine.empty()) throw deadlock();
      if (!drained && w.progress() == seen && !w.excused()) throw hang();
      seen = w.progress();
    }
  }

};


Occupancy Gpu::occupancy_of(const emu::Dispatch& d) const {
  return occupancy(dispatch_needs(d, impl_->cu_params.res), impl_->cu_params.res);
}

Gpu::Gpu(const GpuConfig& cfg) : impl_(std::make_unique<Impl>(cfg)) {}

Warmer& Gpu::warmer() { return *impl_->warmer; }

void Gpu::warm_dram(bool on) { impl_->warmer->set_dram(on ? impl_->dram.get() : nullptr); }

emu::DispatchStats Gpu::run_functional(const emu::Dispatch& d, emu::GlobalMemory& mem) {
  Impl& g = *impl_;
  emu::Executor ex(d, mem, emu::thread_slots(d, host_threads_));
  const std::vector<uint32_t> cu_of =
      functional_placement(uint32_t(g.cfg.num_cus), occupancy_of(d).workgroups_per_cu, ex.workgroup_count());
  if (host_threads_ > 1 && emu::threads_keep_order(ex)) return run_functional_threads(ex, cu_of);
  emu::WorkGroup wg;
  emu::DispatchStats stats;
  for (uint64_t id = 0; id < cu_of.size(); ++id) {
    ex.init_workgroup(wg, id, 0);
    g.warmer->run_workgroup(cu_of[id], ex, wg, stats);
  }
  return stats;
}

emu::DispatchStats Gpu::run_functional_threads(emu::Executor& ex, const std::vector<uint32_t>& cu_of) {
  Impl& g = *impl_;
  emu::GlobalMemory& mem = ex.memory();
  const emu::ConcurrentScope concurrent(mem);  // shared memory state is read-only while threads run
  // Rounds of a few groups per thread bound the recorded accesses held at once; each round's
  // chunks are replayed into the caches in order before the next round runs.
  struct Chunk {
    std::vector<WarmAccess> log;
    emu::DispatchStats stats;
    emu::OverrunLog overruns;
    emu::MemAccessInfo mi;
  };
  const uint32_t threads = host_threads_;
  const uint64_t groups = cu_of.size(), per_round = uint64_t(threads) * 32;
  std::vector<Chunk> chunks(std::min<uint64_t>(groups, uint64_t(threads) * 4));
  emu::DispatchStats stats;
  for (uint64_t first = 0; first < groups; first += per_round) {
    const uint64_t n = std::min(per_round, groups - first);
    const uint64_t k = std::min<uint64_t>(n, chunks.size());
    std::exception_ptr fault;
    const uint64_t failed = emu::run_chunks(threads, k, [&](uint64_t c, uint32_t slot) {
      Chunk& ch = chunks[c];
      ch.log.clear();
      ch.stats = {};
      ch.overruns = {};
      emu::WorkGroup wg;
      for (uint64_t i = emu::chunk_first(n, k, c), end = emu::chunk_first(n, k, c + 1); i < end; ++i) {
        ex.init_workgroup(wg, first + i, slot);
        wg.ctx.overruns = &ch.overruns;
        g.warmer->record_workgroup(cu_of[first + i], ex, wg, ch.stats, ch.mi, ch.log);
      }
    }, &fault);
    for (uint64_t c = 0; c < k && c <= failed; ++c) {
      g.warmer->replay(chunks[c].log);
      stats += chunks[c].stats;
      mem.append_overruns(chunks[c].overruns);
    }
    if (fault) std::rethrow_exception(fault);
  }
  return stats;
}

Gpu::~Gpu() = default;

template <class F>
void Gpu::recovering(F&& run) {
  try {
    run();
  } catch (...) {
    // The machine's in-flight state is inconsistent after a fault: start from a fresh GPU.
    const GpuConfig keep = impl_->cfg;
    impl_ = std::make_unique<Impl>(keep);
    throw;
  }
}

const GpuConfig& Gpu::config() const { return impl_->cfg; }
nlohmann::json Gpu::config_json() const { return to_json(impl_->cfg); }
StatsSnapshot Gpu::snapshot() const { return impl_->stats.snapshot(); }
Cycle Gpu::now() const { return impl_->now(); }

LaunchTiming Gpu::run(const emu::Dispatch& d, emu::GlobalMemory& mem, LaunchObserver* observer) {
  if (before_run_) before_run_();
  Impl& g = *impl_;
  const GpuConfig& cfg = g.cfg;
  emu::Executor ex(d, mem, uint32_t(cfg.num_cus * cfg.max_workgroups_per_cu));
  const std::vector<InstInfo> info = build_inst_info(*d.program, g.cu_params.timing);
  WorkgroupLaunch kernel;
  kernel.executor = &ex;
  kernel.code = WaveCode{info.data(), uint32_t(info.size()), d.program};
  kernel.needs = dispatch_needs(d, g.cu_params.res);
  uint64_t predicted_outstanding = 0;
  LaunchContext lc;
  lc.wave_instructions = &g.wave_instructions;
  lc.observer = observer;
  lc.predicted_outstanding = &predicted_outstanding;
  std::vector<uint64_t> interval_sum;
  std::vector<uint32_t> interval_count;
  if (observer) {
    interval_sum.assign(info.size(), 0);
    interval_count.assign(info.size(), 0);
    lc.interval_sum = interval_sum.data();
    lc.interval_count = interval_count.data();
    observer->intervals(interval_sum, interval_count);
    observer->issue_counter(&g.wave_instructions);
  }
  LaunchTiming lt;
  lt.kernel = d.kernel_name;
  lt.occupancy = occupancy(kernel.needs, g.cu_params.res);
  if (lt.occupancy.workgroups_per_cu == 0)
    throw InputError(fmt::format("kernel {}: a work-group of {} waves ({} VGPRs, {} SGPRs per wave, {} bytes of LDS) "
                                 "does not fit on a CU (limited by {})",
                                 d.kernel_name, kernel.needs.waves, kernel.needs.vgprs_per_wave,
                                 kernel.needs.sgprs_per_wave, kernel.needs.lds_bytes, lt.occupancy.limiter));

  const StatsSnapshot before = g.stats.snapshot();
  const uint64_t detailed_before = g.wave_instructions;
  if (g.runner) g.runner->align(g.runner->now());
  const Cycle start = g.now();
  const bool on_threads = g.runner && host_threads_ > 1 && ex.workgroup_count() > 1 &&
                          mem.concurrent_kernels_allowed() && !emu::uses_scratch(d) &&
                          !emu::has_global_atomics(*d.program);
  PartitionCounts parts(g.engines.size(), lc, on_threads);
  std::vector<LaunchContext>& part_lc = parts.lc;
  // An observer hears each partition's CUs through that partition's log, delivered in order
  // at each window's end (observer_log.h); each partition counts the predicted groups it
  // retires, since the control partition adds to a CU partition's count while none runs.
  std::optional<ObserverLogs> logs;
  if (g.runner && observer) logs.emplace(*observer, part_lc.size(), info.size());
  std::vector<uint64_t> part_predicted(g.engines.size(), 0);
  for (size_t p = 0; p < part_lc.size() && logs; ++p) {
    ObserverLog& log = (*logs)[p];
    part_lc[p].observer = &log;
    part_lc[p].interval_sum = log.interval_sum();
    part_lc[p].interval_count = log.interval_count();
    part_lc[p].interval_touched = log.interval_touched();
    part_lc[p].predicted_outstanding = &part_predicted[p];
  }
  const std::span<const uint64_t> predicted =
      g.runner ? std::span<const uint64_t>(part_predicted) : std::span<const uint64_t>(&predicted_outstanding, 1);
  for (auto& c : g.cus) c->begin_launch(g.runner ? &part_lc[c->partition()] : &lc);
  ++g.launches;
  g.dispatcher->begin(start, kernel, ex.workgroup_count());
  g.sampler->begin(start, uint64_t(cfg.timeline_interval), uint32_t(g.launches));
  g.poller->begin(start, observer, uint32_t(g.launches));
  // Progress is an issued instruction or a retired work-group; a predicted group's scheduled
  // retirement is progress still to come, however long the prediction.
  struct {
    Impl& g;
    std::span<const uint64_t> predicted;
    std::string what;
    bool finished() const { return g.dispatcher->finished(); }
    // DRAM service counts too: a launch's start (code and arguments fetched cold) and a wave
    // burst stalled on a saturated DRAM can issue no instruction for thousands of cycles while
    // the memory system is busy, which is no hang.
    uint64_t progress() const {
      return g.wave_instructions + *g.dispatcher->dispatched_counter() + g.dispatcher->retired() + g.dram_serviced();
    }
    bool excused() const {
      return g.dispatcher->starting() || g.dispatcher->completing() ||
             std::any_of(predicted.begin(), predicted.end(), [](uint64_t n) { return n != 0; });
    }
  } watch{g, predicted, "kernel " + d.kernel_name};
  recovering([&] {
    g.drive_windows(watch, on_threads ? &mem : nullptr, host_threads_, [&](Cycle) {
      parts.collect(g.wave_instructions, &mem);
      if (logs) logs->deliver(interval_sum, interval_count);
    });
  });
  const Cycle end = g.dispatcher->finish_time();
  for (auto& c : g.cus) {
    c->end_launch(end);
    lt.peak_waves_per_cu = std::max(lt.peak_waves_per_cu, c->peak_resident_waves());
    lt.functional += c->functional_stats();
  }
  lt.timeline = g.sampler->end(end);
  g.poller->end();
  if (observer) observer->launch_end(start.value(), end.value());
  lt.detailed_wave_instructions = g.wave_instructions - detailed_before;
  lt.set_totals((end - start).value(), lt.functional.wave_instructions, lt.functional.thread_instructions,
                cfg.clock_mhz);
  g.cycles_total += lt.cycles;
  lt.stats = g.stats.snapshot() - before;
  return lt;
}

FrameTiming Gpu::run_frame(const FrameWork& f) {
  Impl& g = *impl_;
  const GpuConfig& cfg = g.cfg;
  if (choice<FrameCaches>(cfg, "gfx.frame_caches") == FrameCaches::Invalidate)
    for (const auto* level : {&g.l1v, &g.scache, &g.l1i, &g.l2})
      for (const auto& c : *level) c->invalidate_all();
  LaunchContext lc;
  lc.wave_instructions = &g.wave_instructions;
  const StatsSnapshot before = g.stats.snapshot();
  if (g.runner) g.runner->align(g.runner->now());
  const Cycle start = g.now();
  // Shader waves read their draws' inputs and write no memory, so a frame's partitions may run
  // on threads when every wave reads one memory that allows it.
  emu::GlobalMemory* shared = frame_memory(f);
  const bool on_threads = g.runner && host_threads_ > 1 && shared && shared->concurrent_kernels_allowed();
  PartitionCounts parts(g.engines.size(), lc, on_threads);
  for (auto& c : g.cus) c->begin_launch(g.runner ? &parts.lc[c->partition()] : &lc);
  struct {
    Impl& g;
    std::string what;
    bool finished() const { return g.gfx->finished(); }
    uint64_t progress() const { return g.gfx->progress() + g.wave_instructions + g.dram_serviced(); }
    bool excused() const { return false; }
  } watch{g, fmt::format("frame {}", f.frame)};
  recovering([&] {
    g.gfx->begin(start, f);
    g.drive_windows(watch, on_threads ? shared : nullptr, host_threads_,
                    [&](Cycle) { parts.collect(g.wave_instructions, shared); });
  });
  const Cycle end = g.gfx->finish_time();
  FrameTiming ft;
  ft.frame = f.frame;
  for (auto& c : g.cus) {
    c->end_launch(end);
    ft.wave_instructions += c->functional_stats().wave_instructions;
    ft.thread_instructions += c->functional_stats().thread_instructions;
  }
  ft.cycles = (end - start).value();
  ft.sim_seconds = double(ft.cycles) / (cfg.clock_mhz * 1e6);
  for (uint64_t e : g.gfx->phase_ends()) ft.phase_ends.push_back(e - start.value());
  g.cycles_total += ft.cycles;
  ft.stats = g.stats.snapshot() - before;
  return ft;
}

void LaunchTiming::set_totals(uint64_t c, uint64_t wave_insts, uint64_t thread_insts, double clock_mhz) {
  cycles = c;
  sim_seconds = double(cycles) / (clock_mhz * 1e6);
  wave_instructions = wave_insts;
  thread_instructions = thread_insts;
  ipc = cycles ? double(wave_instructions) / double(cycles) : 0;
}

LaunchTiming predicted_launch_timing(std::string kernel, uint64_t cycles, uint64_t wave_instructions,
                                     uint64_t thread_instructions, const emu::DispatchStats& functional,
                                     double clock_mhz) {
  LaunchTiming lt;
  lt.kernel = std::move(kernel);
  lt.functional = functional;
  lt.set_totals(cycles, wave_instructions, thread_instructions, clock_mhz);
  return lt;
}

}  // namespace strobe::timing
