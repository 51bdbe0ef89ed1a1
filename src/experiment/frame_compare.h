// `strobe compare gfx:...`: every frame asked simulated in detail (the reference, or earlier
// timing runs' files standing in for it), then each registered frame-sampling method run on its
// own (sampling/frame_method.h), each `repeat` times in this process as compute comparisons are.
// Each estimate of total cycles, DRAM bytes, L2 accesses and tile-buffer accesses is set against
// the reference, with frames simulated, costs (the functional profile charged to every method
// that reads it) and the median speedup over repeats.
#pragma once

#include <string>
#include <vector>

#include "experiment/frames.h"
#include "report/frame_comparison.h"

namespace strobe::experiment {

/// What a graphics comparison was asked.
struct FrameCompareSpec {
  /// The sequence; warm_frames: before each sampled frame (empty: 2 for a trace, 0 for a capture,
  /// whose frames start warm from its history).
  FrameSpec frames;
  std::vector<std::string> methods;          ///< registered frame methods, in order
  std::vector<std::string> sampling_sets;    ///< the methods' KEY=VALUE parameters
  std::vector<std::string> reference_runs;   ///< timing runs' JSON standing in for the reference
  std::vector<std::string> profile_runs;     ///< functional runs' JSON standing in for the profile
  int repeat = 1;                            ///< runs of the reference and of each method
  bool progress = false;                     ///< a line per timed frame on stderr
};

/// A graphics comparison whose every rule has been checked.
struct ValidatedFrameCompare {
  FrameCompareSpec spec;
  FrameTarget target;
};

/// Checks `s`: the frame sequence, the methods, their parameters and the repeat count.
/// InputError names the option at fault, before anything is rendered.
ValidatedFrameCompare validate(const FrameCompareSpec& s);

/// Runs the comparison. InputError for a sequence of fewer than two frames or runs' files that
/// do not fit it; FaultError when a repeat's statistics differ from the first's.
report::FrameComparison compare_frames(const ValidatedFrameCompare& c);

}  // namespace strobe::experiment
