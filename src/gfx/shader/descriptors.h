// Where a compiled program reads its descriptors: the byte offsets inside descriptor set 0 and
// inside the vertex-buffer table, by RADV 22.3's layout rules, which the code's scalar loads
// follow. The pipeline fills these tables in memory before it launches the shader's waves.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "gfx/shader/spirv.h"

namespace strobe::gfx {

/// Bytes of one buffer resource descriptor (V#), as in the vertex-buffer table and for a UBO.
inline constexpr uint32_t kBufferDescriptorBytes = 16;
/// Bytes of an image resource descriptor (T#) and of a sampler descriptor (S#) on GFX8.
inline constexpr uint32_t kImageDescriptorBytes = 32;
inline constexpr uint32_t kSamplerDescriptorBytes = 16;

/// One sampler's descriptors inside set 0.
struct SamplerSlot {
  int binding = 0;
  uint32_t image_offset = 0;    ///< the T# (8 dwords)
  uint32_t sampler_offset = 0;  ///< the S# (4 dwords)
};

/// Descriptor set 0 of a program: the default uniform block's V# and each sampler's T# and S#.
struct DescriptorSetLayout {
  uint32_t uniform_offset = 0;               ///< the default uniform block's V#
  std::map<std::string, SamplerSlot> samplers;  ///< by the program's sampler name
  uint32_t bytes = 0;                        ///< the set's size
};

/// Set 0's layout for `program`: bindings in binding order, a uniform buffer 16 bytes aligned to
/// 16, a combined image sampler 96 bytes aligned to 32 with its T# first and its S# in the last 16.
DescriptorSetLayout descriptor_set_layout(const SpirvProgram& program);

/// Byte offset of attribute `location`'s V# in the vertex-buffer table of a vertex shader that
/// reads `inputs` (ShaderArgs::vertex_inputs): RADV packs the table over the locations the code
/// reads, in ascending order. -1 when the code does not read `location`.
int64_t vertex_buffer_offset(const std::vector<int>& inputs, int location);

}  // namespace strobe::gfx
