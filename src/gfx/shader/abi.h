// The graphics shader ABI of Mesa 22.3's RADV on GFX8: which SGPRs and VGPRs a compiled vertex or
// pixel shader receives, and how its parameter exports and interpolated inputs map to varyings.
// RADV does not report these, so they are read from what it does report (ACO's p_startpgm with
// the registers it assigned, and the optimised NIR) by RADV's own declaration rules, and every
// register p_startpgm lists must be accounted for or the shader is refused.
#pragma once

#include <string>
#include <vector>

namespace strobe::gfx {

/// What the hardware or the driver puts in one argument register range.
enum class ArgKind {
  RingOffsets,     ///< s[0:1]: scratch and ring buffer table
  VertexBuffers,   ///< 32-bit pointer to the vertex buffer descriptors (V#, 16 B each, by binding)
  BaseVertex,      ///< added to the vertex id by the shader
  DrawId,          ///< gl_DrawID
  StartInstance,   ///< gl_BaseInstance
  DescriptorSet,   ///< 32-bit pointer to descriptor set 0
  PrimMask,        ///< pixel shader: the primitive's parameter-cache location, copied to M0
  ScratchOffset,   ///< the wave's scratch offset
  VertexId,        ///< v0 of a vertex shader
  InstanceId,
  PrimitiveId,
  Unused,          ///< a register the hardware fills that the shader ignores
  PerspSample,     ///< (i, j) barycentrics, perspective-correct, at the sample
  PerspCenter,     ///< ... at the pixel centre
  PerspCentroid,
  PullModel,       ///< (1/w, i/w, j/w)
  LinearSample,    ///< (i, j) barycentrics without perspective
  LinearCenter,
  LinearCentroid,
  LineStipple,
  PosX,            ///< gl_FragCoord.x
  PosY,
  PosZ,
  PosW,
  FrontFace,       ///< non-zero for front-facing primitives, 0 for back-facing
  Ancillary,
  SampleCoverage,
  PosFixedPoint,
};

/// Name of an argument kind, for listings and errors.
const char* arg_kind_name(ArgKind kind);

/// One argument: its kind and the registers holding it.
struct ShaderArg {
  ArgKind kind;
  bool vector = false;  ///< a VGPR (per lane) rather than an SGPR
  int reg = 0;          ///< first register
  int size = 1;         ///< registers
};

/// Everything a launch of the shader has to set up, and its varyings.
struct ShaderArgs {
  std::vector<ShaderArg> args;
  int user_sgprs = 0;  ///< SPI_SHADER_USER_DATA registers (the rest are written by the hardware)
  /// Vertex shader: the varying location each `exp paramN` writes (index N). Pixel shader: the
  /// varying location each `attrN` of v_interp_* reads (index N).
  std::vector<int> param_locations;
  /// Vertex shader: the attribute locations its code reads, ascending. RADV packs the vertex-
  /// buffer table over these alone (binding = location here): the V# of the k-th is at 16 * k.
  std::vector<int> vertex_inputs;
};

/// The vertex shader's arguments, from ACO's IR (after register allocation) and the optimised NIR.
/// `shader` names it in errors (InputError when RADV's layout is not the one strobe reads).
ShaderArgs read_vertex_args(const std::string& aco_ir, const std::string& nir, const std::string& shader);

/// The pixel shader's arguments, likewise; its VGPRs are the enabled SPI_PS_INPUT_ENA inputs.
ShaderArgs read_fragment_args(const std::string& aco_ir, const std::string& nir, const std::string& shader);

}  // namespace strobe::gfx
