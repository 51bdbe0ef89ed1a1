// Collecting the functional profile (profile_file.h): a collector on profile::Profiler that
// fills the per-work-group and per-wave columns of each launch, and the dispatch runner that
// profiles every launch of a run with it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "emu/dispatch.h"
#include "emu/memory.h"
#include "runtime/device.h"
#include "sampling/profile/collector.h"
#include "sampling/profile/profile_file.h"
#include "sampling/profile/ranges.h"

namespace strobe::sampling::profile {

/// Fills a launch's feature tables: one row per work-group and per wave, at Grain::Instruction
/// (the only grain that sees addresses, which the memory-request columns need). Splittable
/// (profiler.h) unless it cuts ranges, whose cuts depend on every group before them.
struct ColumnCollector : Collector {
  static constexpr Grain kGrain = Grain::Instruction;
  LaunchRecord* record = nullptr;
  /// Waves reported for the group still running (wave_end comes before workgroup_end).
  uint32_t pending_waves = 0;
  /// Wave instructions executed per program instruction, summed into the block table by finish().
  std::vector<uint64_t> pc_insts;
  /// When set, also cuts the launch into work-group ranges (SimProf's units inside large
  /// launches), finished by finish().
  RangeCutter* ranges = nullptr;

  /// Fills `r` for a launch of `program` (its instruction count sizes the per-PC counts).
  ColumnCollector(LaunchRecord& r, const isa::Program& program);
  /// True without ranges.
  bool can_split() const { return ranges == nullptr; }
  /// An empty collector, with its own record, for a run of consecutive groups.
  ColumnCollector split() const;
  /// Appends the rows and adds the per-PC counts of `part`, the run of groups after this one's.
  void join(ColumnCollector&& part);
  /// Counts one executed instruction at its PC.
  void instruction(const Instruction& i) { ++pc_insts[i.pc]; }
  /// Appends wave `wave`'s row.
  void wave_end(uint32_t wave, const Counters& c);
  /// Appends the group's row and names it in its waves' rows.
  void workgroup_end(uint64_t linear_id, const Counters& c);
  /// Throws FaultError unless group `linear_id` comes right after the last one reported
  /// (the first reported to a collector that is not a split() is group 0).
  void check_order(uint64_t linear_id);
  /// After the launch: the record's basic-block vector (LaunchRecord::blocks) from the per-PC
  /// counts, blocks as the timing model cuts them (timing::basic_block_ends()), and the ranges.
  void finish(const isa::Program& program);

 private:
  ColumnCollector(std::unique_ptr<LaunchRecord> own, size_t program_size);
  std::unique_ptr<LaunchRecord> own_;  ///< a split()'s record
  uint64_t next_group_ = 0;            ///< the linear id the next group must have
  bool started_ = false;               ///< a group was reported (a split() starts anywhere)
};

/// The identity of dispatch `d`: kernel, geometry and hashes of its code and kernarg segment.
LaunchIdentity identify(const emu::Dispatch& d, const emu::GlobalMemory& mem);

/// A launch record holding `d`'s identity and the functional columns, empty, for a
/// ColumnCollector to fill (taken before the run: a kernel may write its own kernarg segment).
LaunchRecord begin_record(const emu::Dispatch& d, const emu::GlobalMemory& mem);

/// Runs `d` functionally (its results land in `mem`, as a plain launch's would) and returns its
/// profile at `line_bytes`; `stats` receives the emulator's counters. With `ranges`, the same
/// run cuts the launch into work-group ranges (on one thread); without, its groups may run on
/// `threads` host threads (Profiler::run_launch), with the one-thread result.
LaunchRecord profile_launch(const emu::Dispatch& d, emu::GlobalMemory& mem, uint32_t line_bytes,
                            emu::DispatchStats& stats, RangeCutter* ranges = nullptr, uint32_t threads = 1);

/// How a launch is profiled: profile_launch(), or one that adds a method's blob in the same run,
/// on up to `threads` host threads.
using LaunchProfiler = std::function<LaunchRecord(const emu::Dispatch&, emu::GlobalMemory&, uint32_t line_bytes,
                                                  uint32_t threads, emu::DispatchStats& stats)>;

/// profile_launch() as a LaunchProfiler: the functional columns alone.
inline LaunchProfiler plain_profile() {
  return [](const emu::Dispatch& d, emu::GlobalMemory& mem, uint32_t line_bytes, uint32_t threads,
            emu::DispatchStats& stats) { return profile_launch(d, mem, line_bytes, stats, nullptr, threads); };
}

/// A dispatch runner that runs every launch functionally through a LaunchProfiler and keeps the
/// records in launch order; the timing model it is handed is never used.
class ProfileRunner : public runtime::DispatchRunner {
 public:
  /// `line_bytes` (a power of two): the line size memory requests are counted at.
  explicit ProfileRunner(uint32_t line_bytes, LaunchProfiler how = plain_profile())
      : line_bytes_(line_bytes), how_(std::move(how)) {}
  /// Profiles `d` on `gpu`'s host threads; the result holds the emulator's counters and no timing.
  runtime::LaunchResult run(const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu) override;
  /// The records so far, in launch order (moved out).
  std::vector<LaunchRecord> take() { return std::move(launches_); }

 private:
  uint32_t line_bytes_;
  LaunchProfiler how_;
  std::vector<LaunchRecord> launches_;
};

}  // namespace strobe::sampling::profile
