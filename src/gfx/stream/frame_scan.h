// One pass over a trace that counts, per frame, what the program asked the GPU to draw: draw
// calls, vertices submitted, and the programs its draws used. It describes a workload (the
// docs' workload table) and is the frame structure the frame stream and MEGsim build on.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace strobe::gfx {

/// What one frame submitted. A frame ends at a swap; draws after the last swap form no frame.
struct FrameCounts {
  uint64_t first_call = 0;  ///< the frame's first call number
  uint64_t draws = 0;       ///< draws the renderer draws (gl_calls.h: GlCallKind::Draw)
  uint64_t unsupported_draws = 0;  ///< multi-draw, instanced and indirect calls, which the renderer refuses
  uint64_t vertices = 0;    ///< vertices the drawn draws submit: index counts or array counts
  uint32_t programs = 0;    ///< distinct programs the frame's draws used
};

/// A whole trace's frames and totals.
struct TraceCounts {
  uint64_t calls = 0;
  uint64_t links = 0;  ///< glLinkProgram calls
  std::vector<FrameCounts> frames;
};

/// Scans the trace at `path` once. InputError names the file and call for a malformed draw.
TraceCounts scan_frames(const std::string& path);

}  // namespace strobe::gfx
