// Running a draw's shader waves, counted, and on host threads: a batch of pixel waves is shaded
// wave by wave, each on its own emulator wave and export buffer, and what each exported is kept
// for late Z and blending, which the draw applies in primitive order afterwards; vertex waves
// likewise (draw.cpp). A GL shader writes no memory and reads only what the draw bound, so the
// waves are independent and the results are those of one thread, whatever the count.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "emu/graphics.h"
#include "emu/wave.h"
#include "gfx/pipeline/frame_stats.h"
#include "gfx/pipeline/shader_wave.h"

namespace strobe::emu {
class GlobalMemory;
class HostThreads;
}

namespace strobe::gfx {

/// One wave's counts: its shader's, and its image_samples' lanes and texels by filter kind.
struct WaveCounts {
  ShaderCounts shader;  ///< invocations not included
  std::array<uint64_t, emu::kTexFilterKinds> sample_lanes{}, texel_fetches{};
  /// Adds them to the shader's counts `s` and to the frame's per-filter counts.
  void add_to(ShaderCounts& s, FrameStats& frame) const;
};

/// One pixel wave of a draw: up to 16 quads of one tile, and what its shader exported.
struct PixelWave {
  uint32_t quads = 0;   ///< quads packed (4 lanes each)
  uint32_t tile = 0;    ///< the tile they lie in
  uint64_t live = 0;    ///< lanes of covered pixels (the others are helpers)
  std::array<PixelLane, emu::kWaveSize> lanes;
  std::array<const float*, emu::kWaveSize> params{};  ///< each lane's primitive parameters
  std::array<uint32_t, emu::kWaveSize> primitive{};   ///< each lane's primitive in the draw
  // What shading gave.
  WaveCounts counts;       ///< this wave's
  uint64_t done = 0;       ///< lanes of an export with `done` set
  uint8_t color_channels = 0;  ///< channels MRT0 received
  bool exported_z = false;     ///< MRTZ received a depth
  std::array<std::array<float, emu::kWaveSize>, 4> color{};  ///< MRT0, [channel][lane]
  std::array<float, emu::kWaveSize> z{};                     ///< MRTZ's depth per lane
};

/// What a draw's pixel waves run.
struct PixelShader {
  const isa::Program* program = nullptr;
  const CompiledShader* shader = nullptr;
  ShaderBindings bindings;
  uint32_t param_slots = 0;    ///< parameter slots every lane's `params` provides
  const char* name = nullptr;  ///< for faults
};

/// A host thread's emulator wave and export buffer, reused from batch to batch.
struct ShadingSlot {
  emu::Wave wave;
  emu::GraphicsIo io;
};

/// Runs one graphics wave of `program` on `slot` (its wave already initialised, its exports
/// cleared) and returns its counts: one wave, its instructions and image_samples.
WaveCounts run_counted_wave(const isa::Program& program, ShadingSlot& slot, emu::GlobalMemory& mem, const char* name);

/// Shades `waves` with `ps` on `threads` (null: this thread); `slots` grows to one per thread.
/// A fault is the first in wave order, as one thread would report it.
void shade_pixel_waves(std::span<PixelWave> waves, const PixelShader& ps, emu::GlobalMemory& mem,
                       emu::HostThreads* threads, std::vector<ShadingSlot>& slots);

}  // namespace strobe::gfx
