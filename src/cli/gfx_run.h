// `strobe run gfx:TRACE`: the adapter of experiment::run_frames (experiment/frame_run.h), which
// does the work; this prints each frame's line and writes the report.
#pragma once

#include <string>
#include <vector>

namespace strobe::cli {

/// What `strobe run gfx:...` was asked.
struct GraphicsRunOptions {
  std::string workload;   ///< gfx:NAME or gfx:PATH
  std::string frames;     ///< "A-B", "A", or empty for every frame
  std::string mode = "functional";  ///< functional, or timing: each frame on the tile-based timing model
  std::string arch = "r9nano";      ///< timing: the GPU preset or TOML file
  std::vector<std::string> sets;    ///< timing: KEY=VALUE configuration overrides
  std::string json;       ///< "-", a path, or empty
  std::string images;     ///< directory for each frame's window as PPM, or empty
  std::string reference;  ///< a PNM stream with one image per rendered frame (glretrace -s -), or empty
  int threshold = 16;     ///< per-channel difference counted as a bad pixel against the reference
  bool progress = false;
  std::string warm_frames = "0";  ///< frames rendered, unreported, before each range: a count or "all"
  std::string sampling = "none";  ///< none, or megsim: cluster the rendered frames into representatives
  std::vector<std::string> sampling_sets;  ///< the sampling method's KEY=VALUE parameters
  /// The JSON of an earlier `strobe run gfx:... --json` of the same workload: MEGsim reads its
  /// frames' counts instead of rendering them (empty: render).
  std::string profile;
  uint32_t threads = 1;   ///< host threads the functional pipeline shades pixel waves on
};

/// Runs it; returns the exit status.
int run_graphics(const GraphicsRunOptions& o);

}  // namespace strobe::cli
