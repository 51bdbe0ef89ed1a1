// The line accesses a recorded frame makes, in the order the tile-based pipeline makes them and
// with no GPU at all: what a workload capture of graphics frames keeps as a frame's
// configuration-free history (capture/history.h), as a compute launch's functional walk is kept.
// Every shader wave the frame records runs functionally once more through its stage's executor
// (its vertex fetches, uniform loads, texture samples and instruction fetches, as
// timing/gpu/access_walk.h sees them), and the fixed-function stages' tile loads and stores are
// the lines of the synthetic tile arrays the pipeline addresses (tbr_addresses.h).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "timing/gfx/frame_work.h"
#include "timing/gpu/access_walk.h"

namespace strobe::timing {

/// The unit a fixed-function access is given (a shader wave's accesses carry its number in the
/// frame).
inline constexpr uint32_t kFixedFunctionUnit = UINT32_MAX;

/// What walking a frame counted.
struct FrameWalk {
  uint64_t waves = 0;              ///< vertex and pixel waves run
  uint64_t wave_instructions = 0;  ///< their instructions
};

/// One step of a frame's walk: a shader wave (`shader` set: wave `wave` of that stage, its
/// accesses given `unit`) or a fixed-function range of lines [addr, addr + bytes).
struct FrameWalkStep {
  const ShaderWork* shader = nullptr;
  uint64_t wave = 0;
  uint32_t unit = 0;
  uint64_t addr = 0, bytes = 0;
  ReqKind kind = ReqKind::Read;
};

/// The steps of walk_frame_accesses() in its order, so that runs of them can be walked apart (on
/// host threads: each wave's accesses depend on nothing before it) and their accesses joined in
/// order. Fixed-function accesses are at step 0 of their unit.
std::vector<FrameWalkStep> frame_walk_steps(const FrameWork& f, uint32_t bin_entry_bytes);

/// The accesses of `steps`, in order, to `emit` (lines of `line_bytes`).
FrameWalk walk_frame_steps(std::span<const FrameWalkStep> steps, uint32_t line_bytes,
                           const std::function<void(const WarmAccess&)>& emit);

/// Hands every line access of frame `f` to `emit`, lines being `line_bytes` wide (a power of
/// two), in the pipeline's order: pass after pass, each pass's vertex waves draw by draw, each
/// draw's bin-list writes (`bin_entry_bytes` per entry, in chunks from the pass's heap, as
/// bin_lists.h lays them out), then tile after tile (row-major) its bin-list reads, its colour
/// and depth tile loads unless the pass cleared them, its pixel waves draw by draw, and its
/// colour and depth tile stores (a replay drops depth stores when gfx.store_depth is off). A
/// shader access's unit is its wave's number in the frame, in that order; a fixed-function
/// access takes the WarmAccess::L2 path and kFixedFunctionUnit.
/// Throws what a wave's execution throws.
FrameWalk walk_frame_accesses(const FrameWork& f, uint32_t line_bytes, uint32_t bin_entry_bytes,
                              const std::function<void(const WarmAccess&)>& emit);

/// True if granule `g` (of `granule_bytes`) lies in the depth tile arrays (a replay drops those
/// tile stores when the configuration does not store depth).
bool is_depth_tile_granule(uint64_t g, uint32_t granule_bytes);

}  // namespace strobe::timing
