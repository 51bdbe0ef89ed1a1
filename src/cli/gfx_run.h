// `strobe run gfx:TRACE`: the adapter of experiment::run_frames (experiment/frame_run.h), which
// does the work; this prints each frame's line and writes the report.
#pragma once

#include <string>

#include "experiment/frame_run.h"

namespace strobe::cli {

/// What `strobe run gfx:...` was asked: the run, and where its report goes.
struct GraphicsRunOptions {
  experiment::FrameRunSpec spec;
  std::string json;  ///< "-", a path, or empty
  bool progress = false;
};
/// Runs it; returns the exit status.
int run_graphics(const GraphicsRunOptions& o);

}  // namespace strobe::cli
