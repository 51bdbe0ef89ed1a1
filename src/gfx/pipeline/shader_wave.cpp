// Every argument the layout names gets its value here; a register the layout does not name is
// left zero, which is what the hardware's unused inputs read as in strobe.
#include "gfx/pipeline/shader_wave.h"

#include <bit>

#include <fmt/format.h>

#include "common/error.h"
#include "emu/memory.h"

namespace strobe::gfx {
namespace {

// V# word 3: dst_sel x,y,z,w = X,Y,Z,W (4..7), NUM_FORMAT float (7), DATA_FORMAT 32 (4).
constexpr uint32_t kBufferWord3 = 4u | 5u << 3 | 6u << 6 | 7u << 9 | 7u << 12 | 4u << 15;

void reset(emu::Wave& w, const CompiledShader& s, size_t lanes, const char* stage) {
  if (lanes == 0 || lanes > size_t(emu::kWaveSize))
    throw InputError(fmt::format("a {} wave of {} lanes (1 to {})", stage, lanes, emu::kWaveSize));
  w = emu::Wave{};
  w.num_vgprs = s.vgprs;
  w.v.assign(size_t(s.vgprs) * emu::kWaveSize, 0);
  w.set_exec(lanes == 64 ? ~uint64_t{0} : (uint64_t{1} << lanes) - 1);
}

void set_sgpr(emu::Wave& w, const ShaderArg& a, uint32_t value) {
  w.s[a.reg] = value;
  for (int k = 1; k < a.size; ++k) w.s[a.reg + k] = 0;
}

}  // namespace

std::array<uint32_t, 4> buffer_resource(uint64_t base, uint32_t stride, uint32_t num_records) {
  return {uint32_t(base), uint32_t(base >> 32 & 0xFFFF) | (stride & 0x3FFF) << 16, num_records, kBufferWord3};
}

isa::Program decode_shader(const CompiledShader& s) {
  return isa::decode_program({reinterpret_cast<const uint8_t*>(s.code.data()), s.code.size() * 4}, 0);
}

// The vertex-buffer table has room for every attribute location a program may bind (GL's
// minimum of 16 generic attributes).
constexpr int kMaxAttributes = 16;

DrawTables::DrawTables(emu::GlobalMemory& mem, const SpirvProgram& program, std::vector<int> vertex_inputs)
    : mem_(mem), layout_(descriptor_set_layout(program)), inputs_(std::move(vertex_inputs)) {
  table_ = mem_.allocate_32bit(kMaxAttributes * kBufferDescriptorBytes, "vertex-buffer table");
  set_ = mem_.allocate_32bit(layout_.bytes, "descriptor set 0");
}

void DrawTables::bind_attribute(int location, const void* data, uint64_t bytes, uint32_t stride, uint32_t records) {
  if (location < 0 || location >= kMaxAttributes)
    throw InputError(fmt::format("attribute location {} (0 to {})", location, kMaxAttributes - 1));
  const uint64_t buf = mem_.allocate(bytes, 256, fmt::format("attribute {}", location));
  mem_.write(buf, data, bytes);
  bind_attribute_buffer(location, buf, stride, records);
}

void DrawTables::bind_attribute_buffer(int location, uint64_t address, uint32_t stride, uint32_t records) {
  if (location < 0 || location >= kMaxAttributes)
    throw InputError(fmt::format("attribute location {} (0 to {})", location, kMaxAttributes - 1));
  const int64_t at = vertex_buffer_offset(inputs_, location);
  if (at < 0) return;
  const auto v = buffer_resource(address, stride, records);
  mem_.write(table_ + uint64_t(at), v.data(), sizeof v);
}

void DrawTables::bind_uniforms(const std::vector<uint8_t>& block) {
  const uint64_t ubo = mem_.allocate(block.size(), 256, "uniform block");
  mem_.write(ubo, block.data(), block.size());
  const auto v = buffer_resource(ubo, 0, uint32_t(block.size()));
  mem_.write(set_ + layout_.uniform_offset, v.data(), sizeof v);
}

void DrawTables::bind_sampler(const std::string& name, const std::array<uint32_t, 8>& image,
                              const std::array<uint32_t, 4>& sampler) {
  auto it = layout_.samplers.find(name);
  if (it == layout_.samplers.end()) throw InputError(fmt::format("the program has no sampler '{}'", name));
  mem_.write(set_ + it->second.image_offset, image.data(), sizeof image);
  mem_.write(set_ + it->second.sampler_offset, sampler.data(), sizeof sampler);
}

ShaderBindings DrawTables::bindings() const { return ShaderBindings{uint32_t(table_), uint32_t(set_), 0, 0}; }

void init_vertex_wave(emu::Wave& w, const CompiledShader& vs, const ShaderBindings& b,
                      std::span<const uint32_t> vertex_ids) {
  reset(w, vs, vertex_ids.size(), "vertex");
  for (const auto& a : vs.args.args) {
    switch (a.kind) {
      case ArgKind::VertexBuffers: set_sgpr(w, a, b.vertex_buffers); break;
      case ArgKind::DescriptorSet: set_sgpr(w, a, b.descriptor_set); break;
      case ArgKind::BaseVertex: set_sgpr(w, a, b.base_vertex); break;
      case ArgKind::VertexId:
        for (size_t l = 0; l < vertex_ids.size(); ++l) w.vrow(a.reg)[l] = vertex_ids[l];
        break;
      case ArgKind::RingOffsets: case ArgKind::ScratchOffset: case ArgKind::DrawId: case ArgKind::StartInstance:
        if (!a.vector) set_sgpr(w, a, 0);
        break;
      default: break;  // instance and primitive id: 0 (no instancing, no gl_PrimitiveID yet)
    }
  }
}

void init_pixel_wave(emu::Wave& w, const CompiledShader& ps, const ShaderBindings& b, std::span<const PixelLane> pixels,
                     uint64_t live) {
  reset(w, ps, pixels.size(), "pixel");
  w.set_exec(w.exec() & live);
  for (const auto& a : ps.args.args) {
    if (!a.vector) {
      set_sgpr(w, a, a.kind == ArgKind::DescriptorSet ? b.descriptor_set : a.kind == ArgKind::PrimMask ? b.prim_mask : 0);
      continue;
    }
    auto put = [&](int reg, auto value_of) {
      for (size_t l = 0; l < pixels.size(); ++l) w.vrow(reg)[l] = std::bit_cast<uint32_t>(value_of(pixels[l]));
    };
    switch (a.kind) {
      case ArgKind::PerspCenter: case ArgKind::LinearCenter:
        put(a.reg, [](const PixelLane& p) { return p.i; });
        put(a.reg + 1, [](const PixelLane& p) { return p.j; });
        break;
      case ArgKind::PosX: put(a.reg, [](const PixelLane& p) { return p.x; }); break;
      case ArgKind::PosY: put(a.reg, [](const PixelLane& p) { return p.y; }); break;
      case ArgKind::PosZ: put(a.reg, [](const PixelLane& p) { return p.z; }); break;
      case ArgKind::PosW: put(a.reg, [](const PixelLane& p) { return p.w; }); break;
      case ArgKind::FrontFace:
        // ACO tests the register against 0 (v_cmp_ne_u32), LLVM-compiled code against 0.0:
        // 1.0 for front faces and 0 for back faces read right in both.
        put(a.reg, [](const PixelLane& p) { return p.front_facing ? 1.0f : 0.0f; });
        break;
      default:
        throw NotImplementedError(fmt::format("pixel shader input {} (only centre barycentrics, gl_FragCoord and "
                                              "gl_FrontFacing are provided)", arg_kind_name(a.kind)));
    }
  }
}

}  // namespace strobe::gfx
