// Observers under the quantum runner (see observer_log.h).
#include "timing/gpu/observer_log.h"

#include <algorithm>
#include <functional>
#include <queue>
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

void ObserverLog::deliver(std::span<ObserverLog* const> logs, std::span<uint64_t> sum, std::span<uint32_t> count) {
  // Intervals are sums: adding the partitions' in any order gives the same totals. They are
  // added first, so a record's call sees the window's intervals as a decision will.
  for (ObserverLog* log : logs) {
    for (uint32_t pc : log->touched_) {
      sum[pc] += std::exchange(log->sum_[pc], 0);
      count[pc] += std::exchange(log->count_[pc], 0);
    }
    log->touched_.clear();
  }
  // A partition's records are in the order its engine made them, which is cycle order except
  // where the control partition started waves ahead of the CU's clock: a k-way merge by (cycle,
  // partition, position) over each log sorted stably by cycle.
  using Head = std::tuple<uint64_t, uint32_t, uint32_t>;  // cycle, log, position
  std::priority_queue<Head, std::vector<Head>, std::greater<>> heads;
  for (uint32_t l = 0; l < logs.size(); ++l) {
    std::vector<Record>& r = logs[l]->records_;
    if (r.empty()) continue;
    std::stable_sort(r.begin(), r.end(), [](const Record& x, const Record& y) { return x.cycle < y.cycle; });
    heads.emplace(r.front().cycle, l, 0);
  }
  while (!heads.empty()) {
    const auto [cycle, l, i] = heads.top();
    heads.pop();
    const std::vector<Record>& r = logs[l]->records_;
    logs[l]->forward(r[i]);
    if (i + 1 < r.size()) heads.emplace(r[i + 1].cycle, l, i + 1);
  }
  for (ObserverLog* log : logs) log->records_.clear();
}

}  // namespace strobe::timing
