// A sampling method's observer under the quantum runner (quantum.h). The exact engine calls a
// LaunchObserver from every CU in one global order of events. Under the quantum runner the
// shader arrays run a window each, possibly on host threads, so each partition's CUs call an
// ObserverLog instead: it records what they report (waves beginning and ending, basic blocks,
// work-groups retiring) and their per-instruction intervals. When the window ends the GPU hands
// every partition's records to the real observer in one order that depends on the run alone:
// by the cycle the call names, then partition, then the order the partition made them, which
// is the exact engine's order up to calls of one cycle from different shader arrays.
//
// Decisions stay where they were: the dispatcher asks the observer to predict a work-group from
// the control partition, which runs alone at each window's start, so predict_workgroup() goes
// straight through. A decision therefore sees what the CUs reported up to the end of the last
// window, never part of the current one, and lands at a window boundary on any thread count.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <tuple>
#include <vector>

#include "timing/gpu/launch_observer.h"

namespace strobe::timing {

/// One partition's recording observer (see the file comment).
class ObserverLog final : public LaunchObserver {
 public:
  /// Records for `real`, whose interval accumulators have `instructions` entries.
  ObserverLog(LaunchObserver& real, size_t instructions);

  void wave_begin(WaveKey w, uint64_t cycle) override { push(Kind::WaveBegin, cycle, w, 0, 0, 0); }
  void basic_block(WaveKey w, uint32_t start_pc, uint32_t insts, uint64_t issue, uint64_t end) override {
    push(Kind::BasicBlock, end, w, start_pc, insts, issue);
  }
  void wave_end(WaveKey w, uint64_t cycle) override { push(Kind::WaveEnd, cycle, w, 0, 0, 0); }
  void workgroup_end(uint64_t id, uint64_t dispatched, uint64_t cycle) override {
    push(Kind::WorkgroupEnd, cycle, 0, 0, 0, dispatched, id);
  }
  /// Goes to the real observer at once: only the control partition dispatches, and it runs
  /// while no other partition does.
  std::optional<uint64_t> predict_workgroup(const emu::Executor& ex, emu::WorkGroup& wg, emu::DispatchStats& stats,
                                            uint64_t cycle, uint32_t cu) override {
    return real_.predict_workgroup(ex, wg, stats, cycle, cu);
  }

  /// The partition's interval accumulators (LaunchContext::interval_sum and interval_count),
  /// added into the launch's at each window's end.
  uint64_t* interval_sum() { return sum_.data(); }
  uint32_t* interval_count() { return count_.data(); }
  /// Where the CUs note an instruction index whose count left zero in this window, so the
  /// window's end adds only the entries that moved.
  std::vector<uint32_t>* interval_touched() { return &touched_; }

 private:
  friend class ObserverLogs;
  enum class Kind : uint8_t { WaveBegin, BasicBlock, WaveEnd, WorkgroupEnd };
  /// One call, its arguments packed: `a` is the wave (or unused), `b`/`c` a block's start and
  /// length, `x` a block's issue or a group's dispatch cycle, `id` a group's id.
  struct Record {
    uint64_t cycle;
    uint64_t x;
    uint64_t id;
    WaveKey a;
    uint32_t b, c;
    Kind kind;
  };
  void push(Kind k, uint64_t cycle, WaveKey a, uint32_t b, uint32_t c, uint64_t x, uint64_t id = 0) {
    records_.push_back(Record{cycle, x, id, a, b, c, k});
  }
  /// Hands one record to the real observer.
  void forward(const Record& r) const;

  LaunchObserver& real_;
  std::vector<Record> records_;
  std::vector<uint64_t> sum_;
  std::vector<uint32_t> count_;
  std::vector<uint32_t> touched_;
};

/// One ObserverLog per partition of a launch, and their delivery at each window's end.
class ObserverLogs {
 public:
  /// `partitions` logs recording for `real`, whose interval accumulators have `instructions` entries.
  ObserverLogs(LaunchObserver& real, size_t partitions, size_t instructions);
  /// Partition `p`'s log.
  ObserverLog& operator[](size_t p) { return *logs_[p]; }
  /// Hands every log's records to the real observer in the order the file comment gives, adds
  /// their intervals into `sum` and `count`, and empties them.
  void deliver(std::span<uint64_t> sum, std::span<uint32_t> count);

 private:
  std::vector<std::unique_ptr<ObserverLog>> logs_;
  std::vector<std::tuple<uint64_t, uint32_t, uint32_t>> heap_;  // deliver()'s: cycle, log, position
};

}  // namespace strobe::timing
