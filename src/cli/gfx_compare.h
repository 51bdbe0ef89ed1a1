// `strobe compare gfx:TRACE --sampling megsim[,random-frames]`: every frame asked for simulated
// in detail (the reference), then each frame-sampling method's own run: MEGsim renders every
// frame functionally for its features, clusters them, and simulates only the representatives in
// detail; random-frames simulates as many frames drawn at random. Each estimate of total cycles,
// DRAM bytes, L2 accesses and tile-buffer accesses is set against the reference, with frames
// simulated and wall-clock speedup (functional work included).
#pragma once

#include <string>
#include <vector>

namespace strobe::cli {

/// What `strobe compare gfx:...` was asked.
struct GraphicsCompareOptions {
  std::string workload;                    ///< gfx:NAME or gfx:PATH
  std::string frames;                      ///< --frames (empty: all)
  std::string warm_frames = "2";           ///< frames rendered untimed before each sampled frame
  std::string arch = "r9nano";
  std::vector<std::string> sets;           ///< GPU overrides KEY=VALUE
  std::vector<std::string> methods;        ///< megsim, random-frames
  std::vector<std::string> sampling_sets;  ///< MEGsim's parameters
  std::vector<std::string> reference_runs;  ///< timing runs' JSON standing in for the reference
  std::vector<std::string> profile_runs;    ///< functional runs' JSON standing in for MEGsim's profile
  std::string json;                        ///< "-", a path, or empty
  bool progress = false;
};

/// Runs the comparison; returns the exit status. InputError for an unknown method or a bad
/// option, before anything is simulated.
int compare_graphics(const GraphicsCompareOptions& o);

}  // namespace strobe::cli
