// TBPoint's homogeneous-region sampling at run time [T §IV-B2, Fig. 7]: a pure state machine
// the timing model drives with work-group dispatch and retirement events, answering for each
// dispatched group whether to simulate it in detail or skip it and predict its cycles.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <span>
#include <vector>

#include "sampling/tbpoint/intra_launch.h"
#include "sampling/tbpoint/launch_profile.h"
#include "sampling/tbpoint/params.h"

namespace strobe::sampling::tbpoint {

/// Where the launch's sampling stands. Exit is the transition from FastForward back to Detailed.
enum class SamplerState { Detailed, Warming, FastForward };

/// The answer for one dispatched work-group.
struct WorkGroupDecision {
  bool simulate = true;         ///< false: skip it (emulate functionally, untimed)
  int region = -1;              ///< the group's region in the table
  double ipc = 0;               ///< for a skipped group, its region's IPC
  double predicted_cycles = 0;  ///< for a skipped group, wave_insts / ipc: what it adds to the launch's cycles
};

/// One sampling unit: the lifetime of one designated work-group.
struct SamplingUnit {
  size_t wg = 0;                      ///< the designated group
  uint64_t begin = 0, end = 0;        ///< its dispatch and retirement cycles
  uint64_t insts = 0;                 ///< wave instructions issued GPU-wide in [begin, end]
  double ipc = 0;                     ///< insts / (end - begin); 0 for an empty window
  int warming_region = -1;            ///< the region it warmed, or -1 if it was not a warming unit
};

/// A state change, for reports and tests.
struct Transition {
  uint64_t cycle = 0;
  SamplerState from = SamplerState::Detailed, to = SamplerState::Detailed;
  int region = -1;  ///< the region entered, fast-forwarded or left
};

/// A region that reached fast-forward: the IPC it was predicted at and what was skipped.
struct SampledRegion {
  int region = -1;
  double ipc = 0;              ///< IPC of the last warming unit
  uint64_t skipped_wgs = 0;    ///< groups skipped
  uint64_t skipped_insts = 0;  ///< their wave instructions (from the profile)
};

/// The launch's estimate [T Table IV]: detailed cycles plus each region's skipped instructions
/// at its IPC.
struct LaunchEstimate {
  double cycles = 0;
  uint64_t insts = 0;           ///< detailed + skipped wave instructions
  uint64_t detailed_insts = 0;  ///< wave instructions of simulated groups (from the profile)
  uint64_t skipped_insts = 0;
  double cpi = 0;               ///< cycles / insts (0 without instructions)
};

/// Detailed -> Warming(r) -> FastForward(r) -> (exit) Detailed, per METHODS.md §1.4.3:
/// - the first dispatched group is designated; when the designated group retires, its unit ends
///   and the next simulated group dispatched is designated;
/// - at a unit's end in Detailed, if every resident group belongs to one samplable region r,
///   warming of r begins (the next unit is its first); with `open_generations` > 0 (strobe's
///   extension) only once that many generations of groups have retired, a generation being the
///   groups dispatched before the first one retired, and with `open_after_l2_fill` once the
///   groups whose requests fill the L2 have;
/// - a warming unit's IPC within `ipc_stability` of the previous warming unit's (relative to it)
///   starts fast-forward at that IPC; a group of another region dispatched while warming ends
///   warming (back to Detailed, its units forgotten);
/// - in fast-forward, dispatched groups of r are skipped and take no slot; the first dispatched
///   group of another region exits to Detailed and is simulated.
/// Events must come in simulated time order; groups are expected in ID (dispatch) order.
class RegionSampler {
 public:
  /// `table` must be built from `groups` (the launch's profile); both are copied. `l2_lines`:
  /// the configured L2's lines, for `open_after_l2_fill` (0: no such wait).
  RegionSampler(RegionTable table, std::span<const WorkGroupCounts> groups, const Params& params,
                uint64_t l2_lines = 0);

  /// Group `wg` is about to be dispatched at `cycle`; `issued` is the launch's GPU-wide count of
  /// issued wave instructions so far. Skipped groups must not be reported to retire().
  WorkGroupDecision dispatch(size_t wg, uint64_t cycle, uint64_t issued);
  /// A simulated group retired at `cycle` with `issued` wave instructions issued GPU-wide so far.
  /// A group never dispatched as simulated is ignored.
  void retire(size_t wg, uint64_t cycle, uint64_t issued);

  /// Current state.
  SamplerState state() const { return state_; }
  /// Region being warmed or fast-forwarded; -1 in Detailed.
  int region() const { return state_ == SamplerState::Detailed ? -1 : region_; }
  /// Completed sampling units, in completion order.
  const std::vector<SamplingUnit>& units() const { return units_; }
  /// State changes, in order.
  const std::vector<Transition>& transitions() const { return transitions_; }
  /// Regions that reached fast-forward, in order.
  const std::vector<SampledRegion>& sampled_regions() const { return sampled_; }
  /// The launch estimate given the cycles the detailed simulation took (E5: read as the launch's
  /// simulated cycles, not a per-group sum).
  LaunchEstimate estimate(uint64_t detailed_cycles) const;
  /// The region table in use.
  const RegionTable& table() const { return table_; }

 private:
  static constexpr size_t kNone = std::numeric_limits<size_t>::max();
  void go(SamplerState to, uint64_t cycle, int region);
  /// The single region every resident group belongs to, or -1 (also when none is resident).
  int resident_region() const;

  RegionTable table_;
  std::vector<uint64_t> wave_insts_;
  double stability_;
  uint64_t open_generations_;
  uint64_t open_groups_ = 0;       ///< groups that fill the L2 (0: no wait)
  uint64_t first_generation_ = 0;  ///< groups dispatched before the first retirement (so far, until it)
  uint64_t retired_ = 0;           ///< simulated groups retired
  SamplerState state_ = SamplerState::Detailed;
  int region_ = -1;
  uint64_t episode_ = 0;                   ///< bumped on every state change: a unit is a warming unit
                                           ///< only if no change happened during it
  std::map<size_t, int> resident_;         ///< simulated, not yet retired groups -> their region
  std::map<int, size_t> resident_count_;   ///< region -> resident groups in it
  size_t designated_ = kNone;
  SamplingUnit current_;
  uint64_t current_episode_ = 0;
  bool current_warming_ = false;
  double last_warming_ipc_ = -1;           ///< previous warming unit's IPC in this episode; < 0: none
  std::vector<SamplingUnit> units_;
  std::vector<Transition> transitions_;
  std::vector<SampledRegion> sampled_;
  uint64_t detailed_insts_ = 0, skipped_insts_ = 0;
};

}  // namespace strobe::sampling::tbpoint
