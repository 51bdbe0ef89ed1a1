// GPUMech's trace collector: a Grain::Instruction collector on the one functional profiling loop
// (profile::Profiler) that records, per wave, every executed instruction's PC, the producers of
// its sources and, for vector memory, the coalesced lines it touched (LaunchTrace).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "emu/dispatch.h"
#include "emu/memory.h"
#include "sampling/gpumech/launch_trace.h"
#include "sampling/gpumech/static_inst.h"
#include "sampling/profile/collector.h"
#include "sampling/profile/functional_profile.h"

namespace strobe::sampling::gpumech {

/// The default cap on a launch's traced wave instructions. The compact trace costs about 13
/// bytes per instruction plus about one byte per line, and the model decodes it one wave at a
/// time (TraceWaves), so 2^26 instructions peak near 1 GB.
inline constexpr uint64_t kDefaultMaxInstructions = uint64_t{1} << 26;
/// Approximate bytes one traced instruction costs from collection to the model's input.
inline constexpr uint64_t kBytesPerInstruction = 16;

/// How a launch is traced.
struct TraceOptions {
  uint32_t line_bytes = 64;                            ///< line size (power of two) of the coalesced lines
  uint64_t max_instructions = kDefaultMaxInstructions; ///< InputError past this many wave instructions
  uint32_t threads = 1;  ///< host threads the launch may run on (profile::Profiler::run_launch)
};

/// Fills a LaunchTrace from the profiling loop's per-instruction hook. Splittable (profiler.h):
/// the cap is on the instructions of every split together.
class TraceCollector : public profile::Collector {
 public:
  static constexpr profile::Grain kGrain = profile::Grain::Instruction;

  /// Traces into `out` the instructions of the program `statics` describes; `kernel` names the
  /// launch in the cap's error.
  TraceCollector(const std::vector<StaticInst>& statics, const TraceOptions& o, std::string kernel, LaunchTrace& out);

  /// One instruction of wave `i.wave` of the running group ran.
  void instruction(const profile::Instruction& i) {
    if (++unchecked_ >= kCapBatch) [[unlikely]] check_cap();
    record(i);
  }
  /// The running group finished: its waves join the launch's trace in wave order.
  void workgroup_end(uint64_t linear_id, const profile::Counters& c);
  /// Always: groups are traced independently.
  bool can_split() const { return true; }
  /// An empty collector with its own trace, sharing this one's cap.
  TraceCollector split() const;
  /// Appends the waves of `part`, the run of groups after this one's.
  void join(TraceCollector&& part);

 private:
  /// Instructions counted before the shared total is updated and checked against the cap: few
  /// enough that a trace stops near the cap, many enough that threads rarely share the counter.
  static constexpr uint64_t kCapBatch = 4096;
  /// Adds the instructions not yet counted to the shared total; InputError past the cap.
  void check_cap();
  /// Appends instruction `i` to its wave's trace.
  void record(const profile::Instruction& i);

  /// A wave of the running group: its trace and the latest writer of every register.
  struct Live {
    CollectedWave trace;
    std::array<uint32_t, 512> last_writer;  ///< per operand code: trace index + 1 (0: none yet)
  };
  const std::vector<StaticInst>& statics_;
  TraceOptions opt_;
  uint32_t line_bits_;
  std::string kernel_;
  LaunchTrace* out_;
  std::unique_ptr<LaunchTrace> own_;  ///< a split()'s trace
  std::shared_ptr<std::atomic<uint64_t>> traced_;  ///< instructions counted by every split
  uint64_t unchecked_ = 0;                          ///< this one's, not yet in traced_
  std::vector<Live> group_;
};

/// Runs `d` functionally (its results land in `mem`, as a plain launch's would) through
/// profile::Profiler with a TraceCollector and returns its traces; `stats` receives the
/// emulator's counters when given. With `columns`, the same run also fills the functional
/// profile's columns (profile::ColumnCollector), so a profile and its traces come from one
/// execution; with `ranges` too, the columns' run also cuts the launch into work-group ranges.
/// Throws InputError past `o.max_instructions`.
LaunchTrace collect_trace(const emu::Dispatch& d, emu::GlobalMemory& mem, const std::vector<StaticInst>& statics,
                          const TraceOptions& o, emu::DispatchStats* stats = nullptr,
                          profile::LaunchRecord* columns = nullptr, profile::RangeCutter* ranges = nullptr);

}  // namespace strobe::sampling::gpumech
