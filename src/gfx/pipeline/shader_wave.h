// A compiled graphics shader's wave set up for the emulator from the argument layout RADV's code
// expects: the SGPR arguments from one draw's bindings and the per-lane VGPR arguments.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "emu/wave.h"
#include "gfx/shader/descriptors.h"
#include "gfx/shader/radv.h"
#include "isa/program.h"

namespace strobe::emu {
class GlobalMemory;
}

namespace strobe::gfx {

/// A buffer resource descriptor (V#) for untyped loads: `base`, `stride` bytes per index (0 for
/// a plain byte range), `num_records` (indices when strided, else bytes).
std::array<uint32_t, 4> buffer_resource(uint64_t base, uint32_t stride, uint32_t num_records);

/// A compiled stage's words decoded for the emulator, placed at address 0.
isa::Program decode_shader(const CompiledShader& s);
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

/// One draw's descriptor tables in device memory, below 4 GiB where the shaders' 32-bit pointers
/// reach: the vertex-buffer table (a V# per attribute location) and descriptor set 0 (the
/// default uniform block's V#, each sampler's T# and S#), laid out as descriptors.h says.
class DrawTables {
 public:
  /// Allocates both tables for `program` in `mem`, which must outlive this; `vertex_inputs` are
  /// the locations its compiled vertex shader reads (ShaderArgs::vertex_inputs).
  DrawTables(emu::GlobalMemory& mem, const SpirvProgram& program, std::vector<int> vertex_inputs);
  /// Uploads `bytes` of vertex data and points `location`'s V# at it: `stride` bytes per vertex
  /// (0: every vertex reads the first), `records` vertices (or bytes when stride is 0). A
  /// location the vertex shader does not read has no V# and is ignored.
  void bind_attribute(int location, const void* data, uint64_t bytes, uint32_t stride, uint32_t records);
  /// Points `location`'s V# at vertex data already in device memory at `address`.
  void bind_attribute_buffer(int location, uint64_t address, uint32_t stride, uint32_t records);
  /// Uploads the default uniform block (pack_uniform_block's bytes) and points set 0's V# at it.
  void bind_uniforms(const std::vector<uint8_t>& block);
  /// Writes sampler `name`'s T# and S#; an InputError when the program has no such sampler.
  void bind_sampler(const std::string& name, const std::array<uint32_t, 8>& image, const std::array<uint32_t, 4>& sampler);
  /// The SGPR values that point a shader at these tables.
  ShaderBindings bindings() const;

 private:
  emu::GlobalMemory& mem_;
  DescriptorSetLayout layout_;
  std::vector<int> inputs_;
  uint64_t table_ = 0, set_ = 0;
};

/// Prepares `w` to run vertex shader `vs` over `vertex_ids` (at most 64; EXEC covers them).
void init_vertex_wave(emu::Wave& w, const CompiledShader& vs, const ShaderBindings& b,
                      std::span<const uint32_t> vertex_ids);

/// Prepares `w` to run pixel shader `ps` over `pixels` (at most 64). EXEC is `live`, the lanes of
/// covered pixels (all of them when omitted); the rest are helpers the shader enables itself.
/// Throws NotImplementedError for an input the launch does not provide (sample positions, ...).
void init_pixel_wave(emu::Wave& w, const CompiledShader& ps, const ShaderBindings& b, std::span<const PixelLane> pixels,
                     uint64_t live = ~uint64_t{0});

}  // namespace strobe::gfx
