// A GL program's two GLSL stages to SPIR-V with glslang: preprocessed as the GL version they
// declare, rewritten by the dialect step, compiled and linked for Vulkan, and reflected, so the
// frame stream knows where each loose uniform lives in the default uniform block.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "gfx/shader/glsl_dialect.h"

namespace strobe::gfx {

/// One loose uniform as glslang laid it out in the default uniform block (set 0, binding 0).
struct UniformSlot {
  std::string name;           ///< as GL names it: "M", "lights[0].color" is not split out here
  uint32_t offset = 0;        ///< byte offset in the block
  int gl_type = 0;            ///< the GL type enum (GL_FLOAT_MAT4, ...), as glGetActiveUniform reports
  int array_size = 1;         ///< elements; 1 for a non-array
  uint32_t array_stride = 0;  ///< bytes between elements (std140 rounds each to 16)
};

/// A linked program in SPIR-V, with its interface slots and uniform layout.
struct SpirvProgram {
  std::vector<uint32_t> vertex;
  std::vector<uint32_t> fragment;
  GlslInterface slots;
  std::vector<UniformSlot> uniforms;           ///< the default block's members
  uint32_t uniform_block_bytes = 0;            ///< 0 when the program has no loose uniforms
  std::map<std::string, int> attribute_gl_types;  ///< vertex input name -> GL type (GL_FLOAT_VEC3, ...)
  std::map<std::string, int> sampler_gl_types;  ///< sampler name -> GL type (GL_SAMPLER_2D, ...)
  std::string vertex_glsl;                     ///< the stages after the dialect step
  std::string fragment_glsl;
};

/// Compiles a GL program's vertex and fragment source (as glShaderSource gave them) to SPIR-V.
/// `bound_attributes` are the application's attribute locations; `program` names it in errors.
/// A shader glslang rejects is an InputError carrying glslang's log.
SpirvProgram compile_to_spirv(const std::string& vertex_source, const std::string& fragment_source,
                              const std::map<std::string, int>& bound_attributes, const std::string& program);

}  // namespace strobe::gfx
