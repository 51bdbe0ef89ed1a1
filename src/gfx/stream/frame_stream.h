// The frames of a captured trace, streamed: the windows of frames asked for are recorded with
// everything their draws read, and the calls of every other frame only move the GL state on, so
// any set of frames costs no more memory than one.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "gfx/stream/gl_state.h"

namespace strobe::gfx {

/// Frames first to last of a trace, inclusive (0-based, by swaps).
struct FrameRange {
  uint64_t first = 0, last = 0;
};

/// "A-B", "A" or a comma-separated list of them ("0-9,100,200-201") as ascending, disjoint
/// ranges; `what` names the setting in errors (InputError).
std::vector<FrameRange> parse_frame_ranges(const std::string& text, const std::string& what);

/// The frames of a trace one at a time, those in `ranges` (ascending and disjoint) only: the
/// calls of the others are applied without recording, so any set of frames costs no more
/// memory than one frame. `path` may also be a frame file (frame_file.h), which holds a window
/// of frames: every frame asked for must be in it.
class FrameStream {
 public:
  /// Opens the trace at `path`.
  FrameStream(const std::string& path, std::vector<FrameRange> ranges);
  ~FrameStream();
  /// The next frame asked for, or false after the last one or at the end of the trace; `index`
  /// is its number.
  bool next(GlFrame& frame, uint64_t& index);
  /// Frames ended so far, skipped ones included (at the end of the trace: all of them).
  uint64_t frames_seen() const;
  /// The calls read so far that no reader of the GL call table knows, by name (none from a
  /// frame file, whose frames were made by a state tracker already).
  std::map<std::string, uint64_t> unknown_calls() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// How many frames the trace (or frame file) at `path` holds: a trace's calls are replayed
/// without recording anything, a frame file's count is read.
uint64_t count_frames(const std::string& path);

/// Frames [first, last] of the trace at `path` (0-based, by swaps), with the state every draw
/// reads; the calls before `first` are applied without recording.
std::vector<GlFrame> read_frames(const std::string& path, uint64_t first, uint64_t last);

}  // namespace strobe::gfx
