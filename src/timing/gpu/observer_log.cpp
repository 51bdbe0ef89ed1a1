// Observers under the quantum runner (see observer_log.h).
#include "timing/gpu/observer_log.h"

#include <algorithm>
#include <functional>
#include <tuple>
#include <utility>

namespace strobe::timing {

ObserverLog::ObserverLog(LaunchObserver& real, size_t instructions)
    : real_(real), sum_(instructions, 0), count_(instructions, 0) {}

void ObserverLog::forward(const Record& r) const {
  switch (r.kind) {
    case Kind::WaveBegin: real_.wave_begin(r.a, r.cycle); break;
    case Kind::BasicBlock: real_.basic_block(r.a, r.b, r.c, r.x, r.cycle); break;
    case Kind::WaveEnd: real_.wave_end(r.a, r.cycle); break;
    case Kind::WorkgroupEnd: real_.workgroup_end(r.id, r.x, r.cycle); break;
  }
}

ObserverLogs::ObserverLogs(LaunchObserver& real, size_t partitions, size_t instructions) {
  for (size_t p = 0; p < partitions; ++p) logs_.push_back(std::make_unique<ObserverLog>(real, instructions));
}

void ObserverLogs::deliver(std::span<uint64_t> sum, std::span<uint32_t> count) {
  // Intervals are sums: adding the partitions' in any order gives the same totals. They are
  // added first, so a record's call sees the window's intervals as a decision will.
  for (const auto& log : logs_) {
    for (uint32_t pc : log->touched_) {
      sum[pc] += std::exchange(log->sum_[pc], 0);
      count[pc] += std::exchange(log->count_[pc], 0);
    }
    log->touched_.clear();
  }
  // A partition's records are in the order its engine made them, which is cycle order except
  // where the control partition started waves ahead of the CU's clock: a k-way merge by (cycle,
  // partition, position) over each log sorted stably by cycle. The heap's storage is kept from
  // window to window.
  heap_.clear();
  const auto later = std::greater<>();
  for (uint32_t l = 0; l < logs_.size(); ++l) {
    std::vector<ObserverLog::Record>& r = logs_[l]->records_;
    if (r.empty()) continue;
    std::stable_sort(r.begin(), r.end(), [](const auto& x, const auto& y) { return x.cycle < y.cycle; });
    heap_.emplace_back(r.front().cycle, l, 0);
    std::push_heap(heap_.begin(), heap_.end(), later);
  }
  while (!heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end(), later);
    const auto [cycle, l, i] = heap_.back();
    heap_.pop_back();
    const std::vector<ObserverLog::Record>& r = logs_[l]->records_;
    logs_[l]->forward(r[i]);
    if (i + 1 < r.size()) {
      heap_.emplace_back(r[i + 1].cycle, l, i + 1);
      std::push_heap(heap_.begin(), heap_.end(), later);
    }
  }
  for (const auto& log : logs_) log->records_.clear();
}

}  // namespace strobe::timing
