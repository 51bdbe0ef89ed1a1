// A program's SPIR-V compiled to real gfx803 graphics shaders by Mesa's RADV driver, on a Fiji
// (GCN3) device that RADV creates without any GPU present (its null winsys). The machine words,
// RADV's own disassembly, the register counts and the argument layout come back per stage.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "gfx/shader/abi.h"
#include "gfx/shader/spirv.h"

namespace strobe::gfx {

/// Pipeline state that changes the generated code. Vertex attributes each get their own binding
/// (binding = location), so strides and offsets stay out of the code and in the descriptors.
struct PipelineKey {
  std::map<int, uint32_t> attribute_formats;  ///< location -> VkFormat; absent: R32G32B32A32_SFLOAT
  uint32_t color_format = 37;                 ///< VkFormat of every colour target (R8G8B8A8_UNORM)
  bool depth = true;                          ///< a D32_SFLOAT depth target is attached
};

/// One compiled stage.
struct CompiledShader {
  std::vector<uint32_t> code;  ///< the machine words, in order, as RADV uploads them
  std::string assembly;        ///< RADV's disassembly ("text ; hexwords" per instruction)
  std::string aco_ir;          ///< ACO's IR after register allocation
  std::string nir;             ///< the optimised NIR
  uint32_t sgprs = 0;          ///< SGPRs allocated
  uint32_t vgprs = 0;          ///< VGPRs allocated
  uint32_t scratch_bytes = 0;  ///< per lane
  ShaderArgs args;
};

/// Both stages of a graphics pipeline.
struct CompiledPipeline {
  CompiledShader vertex;
  CompiledShader fragment;
};

/// The device RADV reports, e.g. "AMD RADV FIJI" (first use creates it).
std::string radv_device_name();

/// Compiles `program` for `key` on RADV's GPU-less Fiji. `name` labels the program in errors.
/// Thread-safe; pipelines are compiled one at a time. Throws InputError when the Vulkan driver is
/// missing, the device is not a Fiji, or RADV rejects the shaders.
CompiledPipeline compile_pipeline(const SpirvProgram& program, const PipelineKey& key, const std::string& name);

/// One instruction of a RADV disassembly listing: its text and its encoded words.
struct ListingInstruction {
  std::string text;
  std::vector<uint32_t> words;
};

/// The instructions of a RADV disassembly listing ("text ; hexwords" per line), in order, with
/// ACO's "(then repeated N times)" expanded; block labels and blank lines are skipped, and any
/// other line is an InputError naming `shader`.
std::vector<ListingInstruction> listing_instructions(const std::string& assembly, const std::string& shader);

/// The machine words of a RADV disassembly listing, in order.
std::vector<uint32_t> words_of_listing(const std::string& assembly, const std::string& shader);

}  // namespace strobe::gfx
