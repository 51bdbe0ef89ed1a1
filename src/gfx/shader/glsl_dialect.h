// The dialect step: a GL program's GLSL (desktop 1.10-4.x or ES 1.00/3.00, as applications write
// it for OpenGL) rewritten as Vulkan GLSL 4.50 that glslang accepts and RADV compiles, with every
// interface slot made explicit so the two stages agree and the frame stream can bind them.
#pragma once

#include <map>
#include <string>

namespace strobe::gfx {

/// The slots strobe gives a program's interface; the same in both stages.
struct GlslInterface {
  std::map<std::string, int> attributes;  ///< vertex input name -> location (= GL attribute index)
  std::map<std::string, int> varyings;    ///< varying name -> its first location
  std::map<std::string, int> samplers;    ///< sampler uniform name -> binding in descriptor set 0
  int color_outputs = 0;                  ///< colour attachments the fragment stage writes
  /// Names the dialect step renamed because GLSL 4.50 reserves them: new name -> the program's.
  /// The maps above already use the program's names.
  std::map<std::string, std::string> renamed;
};

/// The program's own name for `name` as it appears in the rewritten GLSL (or in glslang's
/// reflection of it, "strobe_texture[2].x" included): renamed identifiers get theirs back.
std::string program_name(const GlslInterface& slots, const std::string& name);

/// Both stages in Vulkan GLSL, and the slots chosen.
struct VulkanGlsl {
  std::string vertex;
  std::string fragment;
  GlslInterface slots;
};

/// Binding 0 of set 0 holds the loose uniforms (glslang's default uniform block); samplers follow.
inline constexpr int kDefaultUniformBinding = 0;

/// Rewrites a program's two *preprocessed* stages (no comments, macros or #if left) for Vulkan:
/// raises the version to 450; turns attribute/varying (and 1.30+ in/out) declarations into one
/// declaration per name with an explicit location, varyings located by name across stages;
/// gives each sampler uniform a binding; replaces gl_FragColor/gl_FragData with declared outputs
/// and the pre-1.30 texture functions with their 4.50 names. `bound_attributes` are the locations
/// the application bound (glBindAttribLocation, or the ones its driver reported); other inputs
/// take the lowest free locations in declaration order. `program` names the program in errors.
/// Throws InputError for declarations it cannot read and NotImplementedError for compatibility-
/// profile built-ins (gl_ModelViewMatrix, ftransform, ...) that have no Vulkan equivalent.
VulkanGlsl to_vulkan_glsl(const std::string& vertex, const std::string& fragment,
                          const std::map<std::string, int>& bound_attributes, const std::string& program);

}  // namespace strobe::gfx
