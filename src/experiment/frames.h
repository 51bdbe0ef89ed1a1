// The graphics side of the experiment layer: a captured frame sequence resolved once (trace,
// frames, warm frames, GPU configuration), and the two ways of going over it that every graphics
// run and comparison is made of: rendering functionally for counts, and rendering then timing
// on the tile-based GPU model. Each frame's statistics and counts are read here, once.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "capture/capture_file.h"
#include "capture/frames.h"
#include "experiment/run_spec.h"
#include "gfx/pipeline/frame_stats.h"
#include "gfx/pipeline/renderer.h"
#include "gfx/stream/frame_stream.h"
#include "sampling/frame_method.h"
#include "timing/config/gpu_config.h"
#include "timing/gpu/gpu.h"

namespace strobe::experiment {

/// What a graphics run or comparison names, before it is checked.
struct FrameSpec {
  std::string workload;             ///< gfx:NAME, gfx:PATH, or a frames capture FILE.cap
  std::string frames;               ///< --frames: "A-B,C", or empty for every frame
  std::string warm_frames = "0";    ///< frames rendered and timed, unreported, before each range
  std::string arch = "r9nano";      ///< the GPU preset or TOML file
  std::vector<std::string> sets;    ///< KEY=VALUE configuration overrides
  /// A capture's: how a frame timed after frames that were not starts (history, fitted, none).
  std::string warm_state = kDefaultWarmState;
  /// Host threads a frame's pixel waves are shaded on and, under sim.engine=quantum, its timing
  /// partitions run on (results are the same for any count).
  uint32_t threads = 1;
};

/// A frames capture opened for replay.
struct FrameCaptureSource {
  std::unique_ptr<capture::CaptureFile> file;
  std::unique_ptr<capture::FrameReplayer> replayer;
};

/// A frame sequence resolved: every check made, before any frame is rendered.
struct FrameTarget {
  std::string workload;
  std::string trace;                     ///< the trace file
  std::vector<gfx::FrameRange> ranges;   ///< the frames asked (open-ended to the trace's end)
  uint64_t warm = 0;                     ///< warm frames before each range
  timing::GpuConfig gpu;
  /// A frames capture: its frames are rendered from it rather than from the trace, their counts
  /// read from it, and a frame timed after frames that were not is warmed from their history.
  std::shared_ptr<FrameCaptureSource> capture;
  std::string warm_state = kDefaultWarmState;  ///< a capture's: history, fitted or none
  uint32_t threads = 1;                        ///< FrameSpec::threads
};

/// True if `path` names a capture of graphics frames (false for anything else, a missing file
/// included: the caller's own error then names it).
bool is_frames_capture(const std::string& path);

/// Renders the frames of `ranges` of `t` in order, from its trace (render_trace, `warm_frames`
/// frames before each range rendered unreported through `on_warm_frame`) or from its capture
/// (each frame alone from its checkpoint, `before` called with the frame's position in the
/// capture first), calling `on_frame` after each.
void render_frames(const FrameTarget& t, const std::vector<gfx::FrameRange>& ranges, const gfx::RendererOptions& ro,
                   const std::function<void(const gfx::FrameStats&, const gfx::Renderer&)>& on_frame,
                   uint64_t warm_frames = 0,
                   const std::function<void(const gfx::FrameStats&, const gfx::Renderer&)>& on_warm_frame = {},
                   const std::function<void(size_t)>& before = {});

/// Resolves `s`; InputError names the option at fault. `all_warm` allows --warm-frames all.
FrameTarget resolve(const FrameSpec& s, bool all_warm = false);

/// A timed frame's statistics (sampling::kFrameStatistics' order).
sampling::FrameMeasure frame_measure(const timing::FrameTiming& t);

/// A timed frame's activity per MEGsim stage, in busy unit-cycles (strobe has no power model, so
/// a unit busy for a cycle stands in for the paper's power): the SIMD cycles of its vertex and
/// pixel shaders' wave instructions (a wave64 instruction holds a SIMD16 for 4 cycles), the
/// rasterisers' and blenders' busy cycles beside the pixel shaders, and the setup and tiling
/// unit's. `s` is the frame's functional counts, which name each wave's stage.
sampling::StageActivity frame_activity(const timing::FrameTiming& t, const gfx::FrameStats& s);

/// A frame's counts as the frame methods read them: per program, texture-weighted wave
/// instructions; primitives, those the tiler receives (assembled, less frustum- and face-culled).
sampling::FrameCounts frame_counts(const gfx::FrameStats& s);

/// Frames rendered functionally, for their counts, and what that cost.
struct CountedFrames {
  std::vector<gfx::FrameStats> frames;
  double seconds = 0, cpu_seconds = 0;
};

/// Renders the frames of `ranges` functionally with `t`'s tile size; from a capture, reads the
/// counts its functional pass recorded instead.
CountedFrames render_counts(const FrameTarget& t, const std::vector<gfx::FrameRange>& ranges);

/// Renders the frames of `ranges` and times each on one fresh GPU of `t`'s configuration, in
/// order, `warm` frames before each range timed unreported (their accesses leave the caches as
/// the frames before left them). From a capture, a frame after frames that were not timed here
/// starts from their history instead (t.warm_state). `progress`, when not null, names the run in a line per frame on
/// stderr. `order` gets the frames timed, in order, when not null.
sampling::TimedFrames render_and_time(const FrameTarget& t, const std::vector<gfx::FrameRange>& ranges,
                                      uint64_t warm, const char* progress, std::vector<uint64_t>* order = nullptr);

/// What render_frames() calls before each frame of `t`'s capture rendered for `gpu`: the history
/// of the frames since the last one it timed warms it (t.warm_state); nothing for a trace.
std::function<void(size_t)> capture_warming(const FrameTarget& t, timing::Gpu& gpu);
/// Warms `gpu` with the history of every frame of `t`'s capture before position `p`, as
/// t.warm_state says (a frame timed alone on a fresh GPU).
void warm_before(const FrameTarget& t, timing::Gpu& gpu, size_t p);

/// One range per frame of `frames` (ascending).
std::vector<gfx::FrameRange> single_frames(std::vector<uint64_t> frames);

}  // namespace strobe::experiment
