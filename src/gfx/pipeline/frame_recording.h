// A frame recorded for the timing model: its work in tile-based order (timing/gfx/frame_work.h)
// and what that work runs against. The functional pipeline fills it while it renders; every
// shader wave it lists can be set up again, exactly as the pipeline ran it, by the stage's
// executor, so the timing model re-executes the frame's real waves on its CUs.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "emu/executor.h"
#include "emu/memory.h"
#include "gfx/pipeline/shader_wave.h"
#include "gfx/shader/radv.h"
#include "timing/gfx/frame_work.h"

namespace strobe::gfx {

/// One shader stage of one draw, for the timing model: sets up wave `k` of the stage in a
/// work-group of its own, from the inputs the functional pipeline gave that wave. Exports go
/// nowhere (the pipeline already used them); interpolation reads the recorded primitive
/// parameters.
class StageExecutor final : public emu::Executor {
 public:
  /// A stage running `program` (`shader`'s decoded code, which must outlive this) with
  /// `bindings`, in the frame's memory `mem`; `name` labels faults.
  StageExecutor(emu::GlobalMemory& mem, const isa::Program& program, const CompiledShader& shader,
                const ShaderBindings& bindings, const std::string& name, bool pixel);
  void init_workgroup(emu::WorkGroup& wg, uint64_t wave, uint32_t slot) override;

  /// Records a vertex wave over `ids` (at most 64).
  void add_vertex_wave(std::span<const uint32_t> ids);
  /// Records a pixel wave: its lanes, the covered ones, and per lane its primitive's parameter
  /// block (an index into the blocks set_parameters() holds).
  void add_pixel_wave(std::span<const PixelLane> lanes, uint64_t live, std::span<const uint32_t> lane_primitive);
  /// The draw's parameter-cache blocks: `block` floats per primitive, `slots` parameter slots.
  void set_parameters(std::vector<float> params, size_t block, uint32_t slots);
  /// Waves recorded.
  uint32_t waves() const { return uint32_t(first_.size()); }

 private:
  const CompiledShader& shader_;
  ShaderBindings bindings_;
  bool pixel_;
  std::vector<uint32_t> first_;      // per wave: its first entry in ids_ or lanes_
  std::vector<uint8_t> count_;       // per wave: its lanes
  std::vector<uint32_t> ids_;        // vertex waves' vertex ids
  std::vector<PixelLane> lanes_;     // pixel waves' lanes
  std::vector<uint32_t> lane_prim_;  // per pixel lane: its primitive's block
  std::vector<uint64_t> live_;       // per pixel wave
  std::vector<float> params_;
  size_t block_ = 0;
  uint32_t slots_ = 0;
};

/// A frame's recorded work and everything it refers to. Members are destroyed in reverse
/// order: the executors (whose packets live in the memory) before the memory.
struct FrameRecording {
  timing::FrameWork work;
  std::unique_ptr<emu::GlobalMemory> memory;
  std::vector<std::unique_ptr<StageExecutor>> executors;

  /// Identity of a render target within the frame (its tile addresses), by its buffer.
  std::map<const void*, uint32_t> targets;
  /// The pass a draw or clear into `t` (with buffers `color` and `depth`) belongs to: the
  /// current one if it renders into the same buffers and `may_continue`, else a new one.
  timing::PassWork& pass_for(const void* color, const void* depth, uint32_t width, uint32_t height,
                             uint32_t color_bytes, uint32_t depth_bytes, bool may_continue);
  /// Ends the current pass (a blit reads or writes targets outside the pass).
  void end_pass() { open_ = false; }

 private:
  const void* color_ = nullptr;
  const void* depth_ = nullptr;
  bool open_ = false;
};

}  // namespace strobe::gfx
