// Work-group ranges as sampling units inside large launches (METHODS.md §3.8): while a launch
// is profiled, its groups are cut, in dispatch order, into consecutive ranges of about a target
// count of wave instructions, each with its own basic-block vector, so a range has a code
// signature as a whole launch does.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "isa/program.h"

namespace strobe::sampling::profile {

/// The basic-block vector of per-instruction counts `pc_insts`: for each block (`ends` marks
/// the instructions that end one) with a non-zero count, its first instruction in `start_pc` and
/// the sum over it in `insts` (both cleared first).
void block_vector(std::span<const uint8_t> ends, std::span<const uint64_t> pc_insts, std::vector<uint64_t>& start_pc,
                  std::vector<uint64_t>& insts);

/// One range of consecutive work-groups of a launch.
struct WorkGroupRange {
  uint64_t first_wg = 0, end_wg = 0;  ///< linear ids [first_wg, end_wg)
  uint64_t wave_insts = 0;
  /// Its basic-block vector: blocks that ran in it (as the timing model cuts them), by first
  /// instruction, and the wave instructions executed in each.
  std::vector<uint64_t> start_pc, block_insts;
};

/// Cuts a launch into ranges as its groups finish: a range closes at the first group boundary
/// where it holds at least `target` wave instructions and `min_groups` groups, and a last range
/// short of half of either joins the one before it. A launch under 1.5 times either is
/// therefore one range.
class RangeCutter {
 public:
  /// For a launch of `program`; `target` > 0.
  RangeCutter(const isa::Program& program, uint64_t target, uint64_t min_groups = 1);
  /// Group `linear_id` finished with `wave_insts`; `pc_insts` counts the launch's executed wave
  /// instructions per instruction index so far.
  void workgroup_end(uint64_t linear_id, uint64_t wave_insts, std::span<const uint64_t> pc_insts);
  /// After the last group: closes the last range.
  void finish(std::span<const uint64_t> pc_insts);
  /// The ranges, in order, once finished (none for a launch without groups); moved out.
  std::vector<WorkGroupRange> take() { return std::move(ranges_); }

 private:
  /// Closes the open range at `end_wg` with the counts since the last cut.
  void close(uint64_t end_wg, std::span<const uint64_t> pc_insts);

  std::vector<uint8_t> ends_;     ///< basic-block ends (timing::basic_block_ends)
  uint64_t target_, min_groups_;
  std::vector<uint64_t> at_cut_;  ///< pc_insts at the last cut
  std::vector<uint64_t> delta_;   ///< scratch: counts since the last cut
  uint64_t first_ = 0, end_ = 0, insts_ = 0;
  std::vector<WorkGroupRange> ranges_;
};

}  // namespace strobe::sampling::profile
