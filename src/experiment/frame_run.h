// `strobe run gfx:...`: a captured graphics workload rendered frame by frame by the functional
// pipeline, and in timing mode each frame timed on the tile-based GPU model; optionally its
// images, their error against a reference renderer's, and MEGsim's selection over the frames
// (or over an earlier run's counts, without rendering).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "experiment/frames.h"
#include "report/frame_run.h"

namespace strobe::experiment {

/// What a graphics run was asked.
struct FrameRunSpec {
  FrameSpec frames;                        ///< warm_frames may be "all" (every frame from 0)
  std::string mode = "functional";         ///< functional, or timing
  std::string sampling = "none";           ///< none, or megsim: the selection over the frames rendered
  std::vector<std::string> sampling_sets;  ///< MEGsim's KEY=VALUE parameters
  /// An earlier run's JSON whose frames' counts MEGsim reads instead of rendering (empty: render).
  std::string profile;
  std::string images;     ///< a directory for each frame's window as PPM, or empty
  std::string reference;  ///< a PNM stream with one image per rendered frame, or empty
  int threshold = 16;     ///< per-channel difference counted as a bad pixel against the reference
  /// A capture in timing mode: each frame on a fresh GPU, warmed only by the history of the
  /// frames before it (--alone).
  bool alone = false;
};

/// What a graphics run does with each frame.
enum class FrameMode { Functional, Timing };

/// A graphics run whose every rule has been checked.
struct ValidatedFrameRun {
  FrameRunSpec spec;
  FrameMode mode = FrameMode::Functional;  ///< spec.mode, parsed once
  FrameTarget target;  ///< unresolved (trace empty) for a selection from --profile
};

/// Checks `s`; InputError names the option at fault, before anything is rendered.
ValidatedFrameRun validate(const FrameRunSpec& s);

/// Runs it; `on_frame` sees each frame as it is done (for progress lines).
report::FrameRun run_frames(const ValidatedFrameRun& v, const std::function<void(const report::FrameRecord&)>& on_frame);

}  // namespace strobe::experiment
