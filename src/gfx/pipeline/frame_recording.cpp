#include "gfx/pipeline/frame_recording.h"

#include <fmt/format.h>

#include "common/error.h"

namespace strobe::gfx {

namespace {

emu::Dispatch stage_dispatch(const isa::Program& program, const std::string& name) {
  emu::Dispatch d;
  d.kernel_name = name;
  d.program = &program;
  d.grid = {emu::kWaveSize, 1, 1};
  d.local = {emu::kWaveSize, 1, 1};
  return d;
}

}  // namespace

StageExecutor::StageExecutor(emu::GlobalMemory& mem, const isa::Program& program, const CompiledShader& shader,
                             const ShaderBindings& bindings, const std::string& name, bool pixel)
    : emu::Executor(stage_dispatch(program, name), mem), shader_(shader), bindings_(bindings), pixel_(pixel) {
  if (shader.scratch_bytes)
    throw NotImplementedError(fmt::format("{}: a shader that spills {} bytes per lane to scratch", name,
                                          shader.scratch_bytes));
}

void StageExecutor::add_vertex_wave(std::span<const uint32_t> ids) {
  first_.push_back(uint32_t(ids_.size()));
  count_.push_back(uint8_t(ids.size()));
  ids_.insert(ids_.end(), ids.begin(), ids.end());
}

void StageExecutor::add_pixel_wave(std::span<const PixelLane> lanes, uint64_t live,
                                   std::span<const uint32_t> lane_primitive) {
  first_.push_back(uint32_t(lanes_.size()));
  count_.push_back(uint8_t(lanes.size()));
  lanes_.insert(lanes_.end(), lanes.begin(), lanes.end());
  lane_prim_.insert(lane_prim_.end(), lane_primitive.begin(), lane_primitive.end());
  live_.push_back(live);
}

void StageExecutor::set_parameters(std::vector<float> params, size_t block, uint32_t slots) {
  params_ = std::move(params);
  block_ = block;
  slots_ = slots;
}

void StageExecutor::init_workgroup(emu::WorkGroup& wg, uint64_t wave, uint32_t) {
  if (wave >= first_.size())
    throw InputError(fmt::format("{}: wave {} of {} recorded", dispatch().kernel_name, wave, first_.size()));
  wg.id = {uint32_t(wave), 0, 0};
  wg.size = {count_[wave], 1, 1};
  wg.waves.resize(1);
  wg.lds.clear();
  if (!wg.gfx_io) {
    wg.gfx_io = std::make_unique<emu::GraphicsIo>();
    wg.gfx_io->values = {};  // exports only mark what was written: the pipeline used the values
  }
  emu::GraphicsIo& io = *wg.gfx_io;
  io.clear_exports();
  emu::ExecContext& c = wg.ctx;
  c = emu::ExecContext{};
  c.memory = &memory();
  c.program = dispatch().program;
  c.dispatch = &dispatch();
  c.gfx = &io;
  emu::Wave& w = wg.waves[0];
  const uint32_t first = first_[wave], n = count_[wave];
  if (!pixel_) {
    init_vertex_wave(w, shader_, bindings_, std::span(ids_.data() + first, n));
  } else {
    init_pixel_wave(w, shader_, bindings_, std::span(lanes_.data() + first, n), live_[wave]);
    io.lane_params.fill(nullptr);
    for (uint32_t l = 0; l < n; ++l) io.lane_params[l] = params_.data() + size_t(lane_prim_[first + l]) * block_;
    io.param_slots = slots_;
  }
  w.pc = entry_pc();
}

timing::PassWork& FrameRecording::pass_for(const void* color, const void* depth, uint32_t width, uint32_t height,
                                           uint32_t color_bytes, uint32_t depth_bytes, bool may_continue) {
  if (!(open_ && may_continue && color == color_ && depth == depth_)) {
    timing::PassWork p;
    const void* key = color ? color : depth;
    auto [it, fresh] = targets.try_emplace(key, uint32_t(targets.size()));
    p.target = it->second;
    p.width = width;
    p.height = height;
    p.color_bytes = color_bytes;
    p.depth_bytes = depth_bytes;
    work.passes.push_back(std::move(p));
    color_ = color, depth_ = depth, open_ = true;
  }
  return work.passes.back();
}

}  // namespace strobe::gfx
