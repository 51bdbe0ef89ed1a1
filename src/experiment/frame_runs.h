// Earlier runs' files standing in for a comparison's own passes over a frame sequence too long
// for one process: the reference from `strobe run gfx:... --mode timing --json` files, MEGsim's
// profile from functional ones. Each file is checked against the comparison (the trace, the mode,
// the GPU configuration, the tile size) and together they must cover every frame asked, once.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "experiment/frames.h"

namespace strobe::experiment {

/// Every frame in detail: each frame's statistics in trace order, and the seconds it cost.
struct FrameReference {
  std::map<uint64_t, sampling::FrameMeasure> by_frame;
  std::vector<uint64_t> order;          ///< frames, in the order timed
  double seconds = 0, cpu_seconds = 0;  ///< wall clock and the process's CPU time
};

/// The reference from earlier timing runs' JSON files, each frame's rendering and timing seconds
/// as the run measured them; `sources` gets each file with the frames it gave.
FrameReference reference_from_runs(const std::vector<std::string>& files, const FrameTarget& t,
                                   nlohmann::json& sources);

/// Every frame's counts from earlier functional runs' JSON files, with their rendering seconds as
/// the profile's; `sources` gets each file with the frames it gave.
CountedFrames profile_from_runs(const std::vector<std::string>& files, const FrameTarget& t, nlohmann::json& sources);

}  // namespace strobe::experiment
