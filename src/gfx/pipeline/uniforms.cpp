// GL gives uniform values tightly packed per element; the block is std140 (glslang's layout for
// the relaxed-rules default block): vectors as they are, each matrix column on 16 bytes, each
// array element at the reflected stride. An array set through "name" or "name[0]" is the same
// uniform.
#include "gfx/pipeline/uniforms.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "common/error.h"

namespace strobe::gfx {
namespace {

constexpr uint32_t kMatrixColumnStride = 16;  // std140

// Columns and rows of a GL uniform type (a vector is one column).
struct Shape {
  int cols = 1, rows = 1;
};

Shape shape_of(int gl_type) {
  switch (gl_type) {
    case 0x1406: case 0x1404: case 0x1405: case 0x8B56: return {1, 1};  // float, int, uint, bool
    case 0x8B50: case 0x8B53: case 0x8DC6: case 0x8B57: return {1, 2};  // vec2 (float/int/uint/bool)
    case 0x8B51: case 0x8B54: case 0x8DC7: case 0x8B58: return {1, 3};
    case 0x8B52: case 0x8B55: case 0x8DC8: case 0x8B59: return {1, 4};
    case 0x8B5A: return {2, 2};
    case 0x8B5B: return {3, 3};
    case 0x8B5C: return {4, 4};
    case 0x8B65: return {2, 3};  // mat2x3: 2 columns of 3
    case 0x8B66: return {2, 4};
    case 0x8B67: return {3, 2};
    case 0x8B68: return {3, 4};
    case 0x8B69: return {4, 2};
    case 0x8B6A: return {4, 3};
    default: return {0, 0};
  }
}

const std::vector<uint8_t>* find_value(const std::map<std::string, std::vector<uint8_t>>& values, const std::string& n) {
  auto it = values.find(n);
  if (it != values.end()) return &it->second;
  // glslang reflects an array as "name[0]"; the program may have set it as "name".
  if (n.size() > 3 && n.compare(n.size() - 3, 3, "[0]") == 0) {
    it = values.find(n.substr(0, n.size() - 3));
    if (it != values.end()) return &it->second;
  } else {
    it = values.find(n + "[0]");
    if (it != values.end()) return &it->second;
  }
  return nullptr;
}

}  // namespace

std::vector<uint8_t> pack_uniform_block(const SpirvProgram& program,
                                        const std::map<std::string, std::vector<uint8_t>>& values,
                                        const std::string& name) {
  std::vector<uint8_t> block(program.uniform_block_bytes, 0);
  for (const auto& u : program.uniforms) {
    const std::vector<uint8_t>* v = find_value(values, u.name);
    if (!v) continue;
    const Shape s = shape_of(u.gl_type);
    if (s.cols == 0)
      throw NotImplementedError(fmt::format("{}: uniform {} of GL type 0x{:X}", name, u.name, u.gl_type));
    const size_t element_bytes = size_t(s.cols) * size_t(s.rows) * 4;
    if (v->size() % element_bytes != 0 || v->size() / element_bytes > size_t(u.array_size))
      throw InputError(fmt::format("{}: uniform {} was given {} bytes, not a whole number of its {}-byte elements "
                                   "(at most {})", name, u.name, v->size(), element_bytes, u.array_size));
    const size_t elements = v->size() / element_bytes;
    const uint32_t stride = u.array_size > 1 ? u.array_stride : 0;
    for (size_t e = 0; e < elements; ++e)
      for (int c = 0; c < s.cols; ++c) {
        const size_t at = u.offset + e * stride + size_t(c) * (s.cols > 1 ? kMatrixColumnStride : 0);
        const size_t bytes = size_t(s.rows) * 4;
        if (at + bytes > block.size())
          throw InputError(fmt::format("{}: uniform {} element {} lies past the {}-byte block", name, u.name, e, block.size()));
        std::memcpy(block.data() + at, v->data() + e * element_bytes + size_t(c) * bytes, bytes);
      }
  }
  return block;
}

}  // namespace strobe::gfx
