// A program's loose uniforms, as the GL program set them, packed into the default uniform block
// the compiled shaders read: glslang's offsets, std140's 16-byte matrix columns and array strides.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "gfx/shader/spirv.h"

namespace strobe::gfx {

/// The default uniform block's bytes for `program` from the GL values by name (tightly packed as
/// glUniform* gave them: a mat3 is 9 floats, a vec3 array 3 floats per element). A uniform the
/// program never set reads 0, as the GL's initial value. `name` labels errors: a value of the
/// wrong size for its uniform is an InputError.
std::vector<uint8_t> pack_uniform_block(const SpirvProgram& program,
                                        const std::map<std::string, std::vector<uint8_t>>& values,
                                        const std::string& name);

}  // namespace strobe::gfx
