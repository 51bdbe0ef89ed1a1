// A compiled graphics shader's wave set up for the emulator from the argument layout RADV's code
// expects: the SGPR arguments from one draw's bindings and the per-lane VGPR arguments.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "emu/wave.h"
#include "gfx/shader/radv.h"

namespace strobe::gfx {

/// A buffer resource descriptor (V#) for untyped loads: `base`, `stride` bytes per index (0 for
/// a plain byte range), `num_records` (indices when strided, else bytes).
std::array<uint32_t, 4> buffer_resource(uint64_t base, uint32_t stride, uint32_t num_records);

/// What one draw binds: 32-bit addresses of its tables (allocated with allocate_32bit).
struct ShaderBindings {
  uint32_t vertex_buffers = 0;  ///< the vertex-buffer table: one V# per attribute location
  uint32_t descriptor_set = 0;  ///< descriptor set 0
  uint32_t base_vertex = 0;
  uint32_t prim_mask = 0;       ///< pixel shaders: the value copied to M0 for v_interp
};

/// One pixel's inputs: barycentrics at the pixel centre and its window position.
struct PixelLane {
  float i = 0, j = 0;
  float x = 0, y = 0, z = 0, w = 1;
  bool front_facing = true;
};

/// Prepares `w` to run vertex shader `vs` over `vertex_ids` (at most 64; EXEC covers them).
void init_vertex_wave(emu::Wave& w, const CompiledShader& vs, const ShaderBindings& b,
                      std::span<const uint32_t> vertex_ids);

/// Prepares `w` to run pixel shader `ps` over `pixels` (at most 64; EXEC covers them).
/// Throws NotImplementedError for an input the launch does not provide (sample positions, ...).
void init_pixel_wave(emu::Wave& w, const CompiledShader& ps, const ShaderBindings& b, std::span<const PixelLane> pixels);

}  // namespace strobe::gfx
