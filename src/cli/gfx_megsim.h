// MEGsim's functional half on a captured graphics workload: each rendered frame's counts become
// its feature vector, and the frames are clustered into representatives (`strobe run gfx:...
// --sampling megsim`). `strobe compare gfx:...` times them (gfx_compare.h).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "cli/gfx_run.h"
#include "gfx/pipeline/frame_stats.h"

namespace strobe::cli {

/// Clusters `frames` with MEGsim under `sets` (its --sampling-set keys) and describes the choice
/// (sampling/megsim/selection.h) as `strobe run gfx:... --sampling megsim` reports it; `text`
/// gets a few lines for the terminal.
nlohmann::json megsim_selection(const std::vector<gfx::FrameStats>& frames, const std::vector<std::string>& sets,
                                std::string& text);
/// `strobe run gfx:... --sampling megsim --profile RUN.json`: the selection made from the frames'
/// counts an earlier run of the same workload wrote, without rendering (--frames picks among
/// them), so MEGsim's parameters can be studied at the cost of the clustering alone. Returns the
/// exit status; InputError for a file of another workload, a frame it lacks, or options that
/// need rendering.
int megsim_from_profile(const GraphicsRunOptions& o);

}  // namespace strobe::cli
