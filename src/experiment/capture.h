// `strobe capture BENCH -o W.cap`: one functional run of a workload recorded into a capture
// (capture/capture_file.h), and `strobe run W.cap`: launches replayed from it, each alone from
// its checkpoint, functionally or in detail, without the benchmark's host code.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "capture/recorder.h"
#include "experiment/run.h"
#include "experiment/run_spec.h"
#include "report/run_report.h"

namespace strobe::experiment {

/// One capture as asked for.
struct CaptureSpec {
  RunSpec run;                   ///< benchmark, params, threads, verify, memory check
  std::string output;            ///< the capture file (-o), written atomically
  capture::RecorderOptions recorder;
  std::string frames;            ///< a gfx: workload's --frames ("A-B,C"; empty: every frame)
};

/// What a capture run produced.
struct CaptureResult {
  std::string path;
  std::string workload;
  uint64_t launches = 0;
  uint64_t frames = 0;             ///< a gfx: workload's frames (then launches is 0)
  uint64_t bytes = 0;              ///< the file's size
  uint64_t pages = 0;              ///< distinct non-zero pages stored
  uint64_t peak_device_bytes = 0;  ///< the workload's peak device memory
  double seconds = 0;              ///< the whole capture: setup, run, verification and writing
  double run_seconds = 0;          ///< the launches and the host work between them, recorded
  bool verified = false;
};

/// Runs the benchmark of `spec` functionally once, recording every launch, and writes the
/// capture; a gfx: workload's frames are rendered once and recorded (capture/frames.h), at the
/// tile size --arch and --set give. Throws InputError for a bad spec or an output that cannot be written (before the
/// run), and what a run throws.
CaptureResult capture(const CaptureSpec& spec);

/// One line summarising a capture.
std::string capture_summary(const CaptureResult& r);

/// Replays the launches `v.spec.launches` names (all by default) of capture `v.spec.capture` on
/// a fresh device as `v` configures it, each from its checkpoint, warmed as
/// `v.spec.warm_state` says; with verify, every replayed launch's written pages must match the
/// capture (VerificationError naming the first launch that differs), except in timing mode those
/// of a launch with global atomics, whose order the detailed run may change (counted in the
/// report's `capture.unverified_order_dependent`). `fresh_memory` empties the
/// device's memory before every launch, so that nothing but the checkpoint reaches it (the test
/// of a checkpoint's completeness).
RunResult replay(ValidatedRun& v, const LaunchCallback& on_launch = {}, bool fresh_memory = false);

}  // namespace strobe::experiment
