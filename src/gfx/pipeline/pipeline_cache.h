// A captured program's shaders, ready to run: its GLSL compiled once to SPIR-V, then by RADV to
// gfx803 code for each vertex-format combination its draws use (the fetch code depends on the
// formats), and decoded for the emulator. The cache keeps every compiled pipeline for the life of
// the renderer, so a workload pays each compile once.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <tuple>
#include <vector>

#include "gfx/shader/radv.h"
#include "gfx/shader/spirv.h"
#include "gfx/stream/gl_state.h"
#include "isa/program.h"

namespace strobe::gfx {

/// One program compiled for one pipeline key, with what the pipeline needs to launch it.
struct ReadyPipeline {
  CompiledPipeline code;
  isa::Program vertex, fragment;  ///< decoded
  /// Pixel-shader parameter slot N reads vertex-shader parameter export vs_param[N] (-1: the
  /// vertex shader does not write that varying, so it reads 0).
  std::vector<int> vs_param;
  /// The pixel shader can discard or writes depth: depth is tested after shading (late Z).
  bool late_z = false;
};

/// A linked program's SPIR-V and its compiled pipelines by key.
struct ProgramEntry {
  std::string name;  ///< "program 7 (linked at call 1234)"
  SpirvProgram spirv;
  std::map<std::map<int, uint32_t>, std::unique_ptr<ReadyPipeline>> pipelines;  ///< by attribute formats
};

/// The VkFormat a GL vertex array reads as (size 1-4 of GL_FLOAT, (UNSIGNED_)BYTE or SHORT,
/// normalised or not); NotImplementedError for others.
uint32_t vertex_format(const GlAttrib& a);

/// Compiles programs on first use and keeps them.
class PipelineCache {
 public:
  /// The program `p` compiled for the vertex arrays of `draw`: each enabled array's format at its
  /// location (disabled ones read their current value as four floats).
  const ReadyPipeline& get(const std::shared_ptr<const GlProgram>& p, const GlDraw& draw);
  /// The program's SPIR-V stage (compiled on first use).
  ProgramEntry& program(const std::shared_ptr<const GlProgram>& p);
  /// Pipelines compiled so far.
  size_t compiled() const { return compiled_; }

 private:
  // Held by shared_ptr so the GlProgram outlives the cache's key.
  std::map<const GlProgram*, std::pair<std::shared_ptr<const GlProgram>, ProgramEntry>> programs_;
  size_t compiled_ = 0;
};

}  // namespace strobe::gfx
