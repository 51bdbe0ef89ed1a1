#include "timing/gpu/quantum.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <tuple>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "timing/gpu/window_threads.h"
#include "timing/engine/events.h"

namespace strobe::timing {

QuantumRunner::QuantumRunner(std::vector<Engine*> engines, std::vector<RequestPool*> pools, uint64_t window)
    : engines_(std::move(engines)), pools_(std::move(pools)), window_(window) {
  if (window_ == 0) throw std::invalid_argument("quantum runner: a window of 0 cycles");
  if (engines_.size() != pools_.size() || engines_.empty() || engines_.size() > 256)
    throw std::invalid_argument("quantum runner: one engine and one pool per partition, at most 256");
  for (uint32_t p = 0; p < engines_.size(); ++p) {
    engines_[p]->set_partition(p);
    now_ = max(now_, engines_[p]->now());
  }
  if (const char* f = std::getenv("STROBE_QUANTUM_PROFILE"); f && *f) {
    profile_ = std::make_unique<Profile>();
    profile_->file = f;
    profile_->part.assign(engines_.size(), 0);
    profile_->scratch.assign(engines_.size(), 0);
    profile_->model.assign(std::size(kModelThreads), 0);
  }
}

QuantumRunner::~QuantumRunner() {
  if (!profile_ || profile_->windows == 0) return;
  const Profile& p = *profile_;
  nlohmann::json j{{"windows", p.windows}, {"window_cycles", window_}, {"seconds", p.total},
                   {"serial_seconds", p.serial}, {"partition_seconds", p.part}};
  for (size_t i = 0; i < std::size(kModelThreads); ++i) j["model_seconds"][std::to_string(kModelThreads[i])] = p.model[i];
  std::ofstream(p.file, std::ios::app) << j.dump() << "\n";
}

void QuantumRunner::align(Cycle t) {
  now_ = max(now_, t);
  for (Engine* e : engines_) e->advance_to(now_);
}

bool QuantumRunner::idle() const {
  for (const Engine* e : engines_)
    if (!e->empty()) return false;
  return true;
}

uint64_t QuantumRunner::events_processed() const {
  uint64_t n = 0;
  for (const Engine* e : engines_) n += e->events_processed();
  return n;
}

namespace {

/// Runs `e` to the window's last cycle. run() returns early when a component stopped its engine
/// (the dispatcher, when a launch completes); the window still runs to its end.
void run_to(Engine& e, Cycle last) {
  while (e.run(last) && !e.empty()) {
  }
}

}  // namespace

void QuantumRunner::end_window(Cycle end) {
  if (on_end_) on_end_(end);
  deliver(end);
  now_ = end;
  for (Engine* e : engines_) e->advance_to(end);
}

void QuantumRunner::run_window(WindowThreads* threads) {
  if (profile_) return run_profiled_window();
  const Cycle end = now_ + window_, last = end - Cycle(1);
  run_to(*engines_[0], last);
  const uint32_t parts = uint32_t(engines_.size()) - 1;
  // Handing a window to threads costs a little; a window whose predecessor had little work
  // runs on this thread. Either way each partition runs alone, so the choice changes nothing
  // but the time. Whether threads pay at all is measured as the run goes (ThreadGovernor): on a
  // machine where another process holds a core, they may not.
  const uint64_t before = events_processed();
  const bool eligible = threads && threads->threads() > 1 && last_events_ >= kThreadedEvents;
  const auto t0 = eligible ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
  if (eligible && governor_.threaded()) {
    threads->run(parts, [&](uint32_t t) { run_to(*engines_[1 + t], last); });
  } else {
    for (uint32_t p = 1; p <= parts; ++p) run_to(*engines_[p], last);
  }
  last_events_ = events_processed() - before;
  if (eligible)
    governor_.record(last_events_, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  end_window(end);
}

void QuantumRunner::run_profiled_window() {
  using Clock = std::chrono::steady_clock;
  Profile& p = *profile_;
  const Cycle end = now_ + window_, last = end - Cycle(1);
  const auto t0 = Clock::now();
  run_to(*engines_[0], last);
  double sum = 0, longest = 0;
  for (uint32_t q = 1; q < engines_.size(); ++q) {
    const auto a = Clock::now();
    run_to(*engines_[q], last);
    const double s = std::chrono::duration<double>(Clock::now() - a).count();
    p.part[q] += s;
    sum += s;
    longest = std::max(longest, s);
  }
  end_window(end);
  const double total = std::chrono::duration<double>(Clock::now() - t0).count(), serial = total - sum;
  ++p.windows;
  p.total += total;
  p.serial += serial;
  p.part[0] += serial;
  for (size_t i = 0; i < std::size(kModelThreads); ++i)
    p.model[i] += serial + std::max(longest, sum / double(kModelThreads[i]));
}

uint64_t QuantumRunner::key(uint64_t sent, uint64_t start, uint32_t part) {
  return (sent - start) << 8 | part;
}

Cycle QuantumRunner::when_of(const Item& it) const {
  return it.request ? pools_[it.part]->outbox()[it.index].when : engines_[it.part]->outbox()[it.index].when;
}

void QuantumRunner::deliver(Cycle end) {
  // Every crossing of the window, in the order the exact engine would have queued them: by the
  // cycle they were sent in, then partition, then send order. (Crossings due at different
  // cycles land in different buckets, so only the order among those due together matters.)
  // The key depends on the partitions' own runs alone, so the order is the same on any threads.
  order_.clear();
  sizes_.clear();
  const uint64_t start = end.value() - window_;
  for (uint32_t p = 0; p < engines_.size(); ++p) {
    const auto& events = engines_[p]->outbox();
    for (uint32_t i = 0; i < events.size(); ++i)
      order_.push_back(Item{key(events[i].sent.value(), start, p),
                            uint32_t(order_.size()), p, i, false});
    const auto& reqs = pools_[p]->outbox();
    for (uint32_t i = 0; i < reqs.size(); ++i)
      order_.push_back(Item{key(reqs[i].sent.value(), start, p),
                            uint32_t(order_.size()), p, i, true});
    sizes_.emplace_back(events.size(), reqs.size());
  }
  // (key, gathering position) is unique, so the sort needs no stability.
  std::sort(order_.begin(), order_.end(),
            [](const Item& a, const Item& b) { return a.key != b.key ? a.key < b.key : a.pos < b.pos; });
  auto early = [&](const Item& it, uint32_t dest) {
    return std::logic_error(fmt::format("quantum runner: a crossing from partition {} to {} at cycle {} falls inside "
                                        "the window ending at {} (a latency shorter than the window)",
                                        it.part, dest, when_of(it).value(), end.value()));
  };
  for (const Item& it : order_) {
    if (!it.request) {
      const Engine::Crossing& c = engines_[it.part]->outbox()[it.index];
      if (c.dest == 0 && c.when < end) {
        // Into the control partition, due inside the window that ended (a work-group's
        // retirement): delivered now, naming the cycle it happened at. What is due later (an L2
        // response to the graphics pipeline) is queued for its cycle like any other crossing.
        const Engine::Crossing now = c;  // the handler may send crossings of its own
        now.target->handle(now.when, now.kind, now.arg);
        continue;
      }
      if (c.when < end) throw early(it, c.dest);
      engines_[c.dest]->schedule(c.when, c.target, c.kind, c.arg);
      continue;
    }
    const RequestPool::Crossing& c = pools_[it.part]->outbox()[it.index];
    if (c.when < end || c.dest == 0) throw early(it, c.dest);
    RequestPool& to = *pools_[c.dest];
    const uint32_t r = to.alloc();
    to[r] = c.req;
    engines_[c.dest]->schedule(c.when, c.target, kMemRequest, r);
  }
  // What the control partition sent while it handled its crossings (the graphics pipeline's
  // next requests to the L2) stays for the next window's end.
  for (uint32_t p = 0; p < engines_.size(); ++p) {
    auto& events = engines_[p]->outbox();
    events.erase(events.begin(), events.begin() + ptrdiff_t(sizes_[p].first));
    auto& reqs = pools_[p]->outbox();
    reqs.erase(reqs.begin(), reqs.begin() + ptrdiff_t(sizes_[p].second));
    std::vector<RequestPool::Mark>& marks = pools_[p]->marks();
    for (const RequestPool::Mark& m : marks) m.progress->reach(m.stage);
    marks.clear();
  }
}

}  // namespace strobe::timing
