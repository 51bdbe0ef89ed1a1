// GPUMech's interval algorithm.
#include "sampling/gpumech/interval.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace strobe::sampling::gpumech {
namespace {

/// Slack for deciding that an instruction issued late: latencies are real-valued (AMATs), so an
/// exact comparison would open intervals for rounding noise.
constexpr double kEpsilon = 1e-9;

/// Done times of one waitcnt counter's operations in issue order, with their running maximum,
/// so "everything but the N most recent" is one lookup.
class InOrderCounter {
 public:
  /// Records an operation issued now with its done slot.
  void push(double done, uint32_t index) {
    if (prefix_.empty() || done > prefix_.back().done) {
      prefix_.push_back({done, index});
    } else {
      prefix_.push_back(prefix_.back());
    }
  }
  /// The latest done slot (and its instruction) among all operations but the `keep` most recent;
  /// false when at most `keep` were issued.
  bool oldest_beyond(uint32_t keep, double& done, int64_t& index) const {
    if (prefix_.size() <= keep) return false;
    const Entry& e = prefix_[prefix_.size() - keep - 1];
    done = e.done;
    index = e.index;
    return true;
  }

 private:
  /// The maximum done slot over a prefix and the instruction that has it.
  struct Entry {
    double done;
    uint32_t index;
  };
  std::vector<Entry> prefix_;
};

/// Raises (ready, binding) to a dependency on `done` of instruction `index` if it is later.
void depend(double done, int64_t index, double& ready, int64_t& binding) {
  if (done > ready) ready = done, binding = index;
}

}  // namespace

IntervalProfile interval_profile(const WaveTrace& wave, const ModelParams& params) {
  IntervalProfile p;
  interval_profile(wave, params, p);
  return p;
}

void interval_profile(const WaveTrace& wave, const ModelParams& params, IntervalProfile& p) {
  const size_t n = wave.insts.size();
  const double slot = 1.0 / params.issue_rate;
  p.intervals.clear();
  p.issue.resize(n);
  p.done.resize(n);
  InOrderCounter vm, lgkm;
  Interval current;
  double max_done = 0;
  int64_t max_done_index = -1;
  for (size_t k = 0; k < n; ++k) {
    const TraceInst& inst = wave.insts[k];
    double ready = -slot;  // no dependency: issue right after the previous instruction
    int64_t binding = -1;
    for (const uint32_t src : inst.producers) {
      if (src >= k) {
        throw std::invalid_argument("gpumech: instruction " + std::to_string(k) + " names producer " +
                                    std::to_string(src) + ", which is not earlier in the trace");
      }
      depend(p.done[src], src, ready, binding);
    }
    if (inst.cls == InstClass::Waitcnt) {
      double d;
      int64_t i;
      if (inst.wait.vmcnt != kNoWait && vm.oldest_beyond(inst.wait.vmcnt, d, i)) depend(d, i, ready, binding);
      if (inst.wait.lgkmcnt != kNoWait && lgkm.oldest_beyond(inst.wait.lgkmcnt, d, i)) depend(d, i, ready, binding);
    }
    if (k == 0) {
      // The wave's first instruction defines time 0; nothing earlier can hold it back.
      p.issue[0] = 0;
    } else {
      const double in_order = p.issue[k - 1] + slot;
      const double issue = std::max(in_order, ready + slot);  // Eq. 13
      p.issue[k] = issue;
      if (issue > in_order + kEpsilon) {
        current.stall = issue - in_order;
        current.cause = binding;
        p.intervals.push_back(current);
        current = Interval{static_cast<uint32_t>(k), 0, 0, -1};
      }
    }
    ++current.insts;
    p.done[k] = p.issue[k] + inst.latency / params.cycles_per_slot;
    if (max_done_index < 0 || p.done[k] > max_done) max_done = p.done[k], max_done_index = static_cast<int64_t>(k);
    if (inst.cls == InstClass::VectorMemory) vm.push(p.done[k], static_cast<uint32_t>(k));
    if (inst.cls == InstClass::ScalarMemory || inst.cls == InstClass::Lds) lgkm.push(p.done[k], static_cast<uint32_t>(k));
  }
  if (current.insts > 0) {
    if (params.include_drain && max_done > p.issue[n - 1] + kEpsilon) {
      // As if one more instruction depended on the latest result: Eq. 13's gap, minus the slot.
      current.stall = max_done - p.issue[n - 1];
      current.cause = max_done_index;
    }
    p.intervals.push_back(current);
  }
}

uint64_t total_insts(std::span<const Interval> intervals) {
  uint64_t sum = 0;
  for (const Interval& i : intervals) sum += i.insts;
  return sum;
}

double total_slots(std::span<const Interval> intervals, double issue_rate) {
  double sum = 0;
  for (const Interval& i : intervals) sum += i.insts / issue_rate + i.stall;
  return sum;
}

double wave_perf(std::span<const Interval> intervals, double issue_rate) {
  const double slots = total_slots(intervals, issue_rate);
  return slots > 0 ? static_cast<double>(total_insts(intervals)) / slots : 0;
}

}  // namespace strobe::sampling::gpumech
