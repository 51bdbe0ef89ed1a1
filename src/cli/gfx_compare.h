// `strobe compare gfx:TRACE --sampling METHODS`: the adapter of experiment::compare_frames
// (experiment/frame_compare.h), which does the work; this writes its JSON and text.
#pragma once

#include <string>

#include "experiment/frame_compare.h"

namespace strobe::cli {

/// Runs the comparison `spec` (progress also when stderr is a terminal) and writes its JSON to
/// `json` ("-": stdout instead of the text; a path; empty: none). Returns the exit status;
/// InputError for an unknown method or a bad option, before anything is rendered.
int compare_graphics(const experiment::FrameCompareSpec& spec, const std::string& json);

}  // namespace strobe::cli
