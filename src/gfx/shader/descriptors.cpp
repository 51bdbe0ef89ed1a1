// RADV lays a set out binding by binding in binding-number order (radv_descriptor_set.c): each
// binding's offset is the running size aligned to its type's alignment. A combined image sampler
// holds the image's T#, room for its FMASK descriptor, and the S# in its last 16 bytes.
#include "gfx/shader/descriptors.h"

namespace strobe::gfx {
namespace {

constexpr uint32_t kCombinedBytes = 96;
constexpr uint32_t kCombinedAlign = 32;

uint32_t align(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }

}  // namespace

DescriptorSetLayout descriptor_set_layout(const SpirvProgram& program) {
  std::map<int, std::string> by_binding;  // binding -> sampler name
  for (const auto& [name, binding] : program.slots.samplers) by_binding[binding] = name;
  DescriptorSetLayout out;
  // Binding 0, the default uniform block, is always declared (radv.cpp's set layout).
  out.uniform_offset = 0;
  uint32_t size = kBufferDescriptorBytes;
  for (const auto& [binding, name] : by_binding) {
    uint32_t offset = align(size, kCombinedAlign);
    out.samplers[name] = SamplerSlot{binding, offset, offset + kCombinedBytes - kSamplerDescriptorBytes};
    size = offset + kCombinedBytes;
  }
  out.bytes = size;
  return out;
}

int64_t vertex_buffer_offset(const std::vector<int>& inputs, int location) {
  for (size_t k = 0; k < inputs.size(); ++k)
    if (inputs[k] == location) return int64_t(k) * kBufferDescriptorBytes;
  return -1;
}

}  // namespace strobe::gfx
