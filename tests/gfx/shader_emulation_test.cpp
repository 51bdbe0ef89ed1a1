// RADV's compiled graphics shaders run on strobe's emulator with the launch state strobe read
// back from RADV: a vertex shader fetches its attributes through the vertex-buffer table and
// reads its uniforms through descriptor set 0 (both below 4 GiB), a pixel shader interpolates
// its varyings, and each exports what the CPU computes.
#include <bit>
#include <cmath>
#include <cstring>
#include <map>

#include <gtest/gtest.h>

#include "common/error.h"
#include "emu/graphics.h"
#include "emu/memory.h"
#include "gfx/pipeline/shader_wave.h"
#include "gfx/shader/descriptors.h"
#include "gfx/shader/radv.h"
#include "isa/program.h"
#include "gl_shaders.h"

namespace strobe::gfx {
namespace {

float fval(uint32_t b) { return std::bit_cast<float>(b); }

isa::Program program_of(const CompiledShader& s) { return decode_shader(s); }

TEST(ShaderEmulation, APixelShaderRadvCompiledInterpolatesAndExportsItsColour) {
  auto sp = compile_to_spirv("attribute vec3 position;\nattribute vec3 color;\nvarying vec3 c;\n"
                             "void main(){ c = color; gl_Position = vec4(position, 1.0); }\n",
                             "precision mediump float;\nvarying vec3 c;\nvoid main(){ gl_FragColor = vec4(c * 0.5, 1.0); }\n",
                             {}, "t");
  auto p = compile_pipeline(sp, PipelineKey{}, "t");
  const CompiledShader& ps = p.fragment;
  ASSERT_EQ(ps.args.param_locations.size(), 1u);
  auto program = program_of(ps);

  auto bary = [](int l) { return std::pair{0.01f * float(l), 0.3f - 0.004f * float(l)}; };
  std::vector<PixelLane> pixels(emu::kWaveSize);
  for (int l = 0; l < emu::kWaveSize; ++l) pixels[l].i = bary(l).first, pixels[l].j = bary(l).second;
  emu::Wave w;
  init_pixel_wave(w, ps, ShaderBindings{}, pixels);
  // One triangle whose vertices carry c = (0.2, 0.4, 0.8), (1, 0, 0.5), (0, 1, 0.25).
  const float v[3][3] = {{0.2f, 0.4f, 0.8f}, {1.0f, 0.0f, 0.5f}, {0.0f, 1.0f, 0.25f}};
  std::vector<float> prim(4 * 3, 0.0f);
  for (int ch = 0; ch < 3; ++ch) prim[size_t(ch) * 3 + 0] = v[0][ch], prim[size_t(ch) * 3 + 1] = v[1][ch] - v[0][ch],
                                 prim[size_t(ch) * 3 + 2] = v[2][ch] - v[0][ch];
  emu::GraphicsIo io;
  io.param_slots = 1;
  io.lane_params.fill(prim.data());
  emu::GlobalMemory mem;
  auto stats = emu::run_graphics_wave(program, w, io, mem, "t (fragment)");
  EXPECT_EQ(stats.wave_instructions, program.insts.size()) << "straight-line code runs each instruction once";
  ASSERT_EQ(io.written[emu::kExpMrt0], 0xF);
  EXPECT_EQ(io.done_lanes, ~uint64_t{0});
  for (int l = 0; l < emu::kWaveSize; ++l) {
    auto [i, j] = bary(l);
    for (int ch = 0; ch < 3; ++ch) {
      const float want = 0.5f * (v[0][ch] + i * (v[1][ch] - v[0][ch]) + j * (v[2][ch] - v[0][ch]));
      // The colour leaves as fp16 (v_cvt_pkrtz: round toward zero), 11 significant bits.
      EXPECT_NEAR(fval(io.lanes(emu::kExpMrt0, ch)[l]), want, std::fabs(want) * 1e-3 + 1e-6) << "lane " << l << " ch " << ch;
    }
    EXPECT_EQ(fval(io.lanes(emu::kExpMrt0, 3)[l]), 1.0f);
  }
}

using test::kLitVertex;

TEST(ShaderEmulation, AVertexShaderRadvCompiledFetchesItsAttributesAndExportsWhatTheCpuComputes) {
  auto sp = compile_to_spirv(kLitVertex, "varying vec4 Color;\nvoid main(){ gl_FragColor = Color; }\n", {}, "lit");
  auto p = compile_pipeline(sp, PipelineKey{}, "lit");
  const CompiledShader& vs = p.vertex;
  auto program = program_of(vs);
  emu::GlobalMemory mem;

  // 40 vertices, each attribute in a buffer of its own (vec3, 12-byte stride).
  constexpr uint32_t kVerts = 40;
  std::vector<float> pos(kVerts * 3), nrm(kVerts * 3);
  for (uint32_t v = 0; v < kVerts; ++v)
    for (int c = 0; c < 3; ++c) {
      pos[v * 3 + c] = 0.1f * float(v) - 0.3f * float(c);
      nrm[v * 3 + c] = std::sin(0.7f * float(v) + float(c));
    }
  std::map<std::string, const std::vector<float>*> data = {{"position", &pos}, {"normal", &nrm}};
  DrawTables tables(mem, sp, p.vertex.args.vertex_inputs);
  for (const auto& [name, location] : sp.slots.attributes)
    tables.bind_attribute(location, data.at(name)->data(), kVerts * 12, 12, kVerts);
  // The default uniform block: two column-major mat4s where glslang placed them.
  float mvp[16], nm[16];
  for (int k = 0; k < 16; ++k) mvp[k] = (k % 5 == 0 ? 1.0f : 0.0f) + 0.05f * float(k), nm[k] = k % 5 == 0 ? 0.5f : 0.1f * float(k % 3);
  std::vector<uint8_t> block(sp.uniform_block_bytes);
  for (const auto& u : sp.uniforms)
    std::memcpy(block.data() + u.offset, u.name == "ModelViewProjectionMatrix" ? mvp : nm, sizeof mvp);
  tables.bind_uniforms(block);

  std::vector<uint32_t> ids(kVerts);
  for (uint32_t v = 0; v < kVerts; ++v) ids[v] = v;
  emu::Wave w;
  init_vertex_wave(w, vs, tables.bindings(), ids);
  emu::GraphicsIo io;
  emu::run_graphics_wave(program, w, io, mem, "lit (vertex)");

  ASSERT_EQ(io.written[emu::kExpPos0], 0xF);
  ASSERT_EQ(vs.args.param_locations.size(), 1u);
  const int param = emu::kExpParam0;
  for (uint32_t v = 0; v < kVerts; ++v) {
    const float* x = &pos[v * 3];
    for (int r = 0; r < 4; ++r) {
      const float want = mvp[r] * x[0] + mvp[4 + r] * x[1] + mvp[8 + r] * x[2] + mvp[12 + r];
      EXPECT_NEAR(fval(io.lanes(emu::kExpPos0, r)[v]), want, 1e-5f * (1 + std::fabs(want))) << "vertex " << v << " row " << r;
    }
    float n[3];
    for (int r = 0; r < 3; ++r) n[r] = nm[r] * nrm[v * 3] + nm[4 + r] * nrm[v * 3 + 1] + nm[8 + r] * nrm[v * 3 + 2] + nm[12 + r];
    const float len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    const float diffuse = std::max((n[0] + n[1] + n[2]) / len / std::sqrt(3.0f), 0.0f);
    const float want[3] = {0.7f * diffuse, 0.4f * diffuse, 0.2f * diffuse};
    for (int c = 0; c < 3; ++c)
      EXPECT_NEAR(fval(io.lanes(param, c)[v]), want[c], 1e-5f) << "vertex " << v << " channel " << c;
  }
}

TEST(ShaderEmulation, TypedVertexFetchConvertsUnormAndSnormAttributes) {
  // Colours as RGBA8 UNORM and texture coordinates as RG16 SNORM, as applications store them.
  constexpr uint32_t kR8G8B8A8Unorm = 37, kR16G16Snorm = 78, kR32G32B32Sfloat = 106;
  auto sp = compile_to_spirv("attribute vec3 position;\nattribute vec4 color;\nattribute vec2 uv;\n"
                             "varying vec4 c;\nvarying vec2 t;\n"
                             "void main(){ c = color; t = uv; gl_Position = vec4(position, 1.0); }\n",
                             "varying vec4 c;\nvarying vec2 t;\nvoid main(){ gl_FragColor = c + t.xyxy; }\n", {}, "typed");
  PipelineKey key;
  const int lpos = sp.slots.attributes.at("position"), lcol = sp.slots.attributes.at("color"), luv = sp.slots.attributes.at("uv");
  key.attribute_formats = {{lpos, kR32G32B32Sfloat}, {lcol, kR8G8B8A8Unorm}, {luv, kR16G16Snorm}};
  auto p = compile_pipeline(sp, key, "typed");
  ASSERT_NE(p.vertex.assembly.find("tbuffer_load_format_xyzw"), std::string::npos) << p.vertex.assembly;

  constexpr uint32_t kVerts = 64;
  std::vector<float> pos(kVerts * 3, 0.5f);
  std::vector<uint8_t> col(kVerts * 4);
  std::vector<int16_t> uv(kVerts * 2);
  for (uint32_t v = 0; v < kVerts; ++v) {
    for (int c = 0; c < 4; ++c) col[v * 4 + c] = uint8_t(v * 4 + c * 61);
    uv[v * 2] = int16_t(int(v) * 1000 - 32768);  // reaches -32768, which SNORM clamps to -1
    uv[v * 2 + 1] = int16_t(32767 - int(v) * 7);
  }
  emu::GlobalMemory mem;
  DrawTables tables(mem, sp, p.vertex.args.vertex_inputs);
  tables.bind_attribute(lpos, pos.data(), kVerts * 12, 12, kVerts);
  tables.bind_attribute(lcol, col.data(), kVerts * 4, 4, kVerts);
  tables.bind_attribute(luv, uv.data(), kVerts * 4, 4, kVerts);
  std::vector<uint32_t> ids(kVerts);
  for (uint32_t v = 0; v < kVerts; ++v) ids[v] = v;
  emu::Wave w;
  init_vertex_wave(w, p.vertex, tables.bindings(), ids);
  emu::GraphicsIo io;
  emu::run_graphics_wave(program_of(p.vertex), w, io, mem, "typed (vertex)");

  // Find each varying's export by its values: RADV orders and packs parameters itself.
  ASSERT_EQ(p.vertex.args.param_locations.size(), 2u);
  for (uint32_t v = 0; v < kVerts; ++v) {
    float want_c[4], want_t[2];
    for (int c = 0; c < 4; ++c) want_c[c] = float(col[v * 4 + c]) / 255.0f;
    for (int c = 0; c < 2; ++c) want_t[c] = std::max(float(uv[v * 2 + c]) / 32767.0f, -1.0f);
    bool found_c = false, found_t = false;
    for (int param = 0; param < 2; ++param) {
      const int t = emu::kExpParam0 + param;
      if (io.written[t] == 0xF && fval(io.lanes(t, 0)[0]) == float(col[0]) / 255.0f) {
        found_c = true;
        for (int c = 0; c < 4; ++c) EXPECT_EQ(fval(io.lanes(t, c)[v]), want_c[c]) << "vertex " << v << " colour " << c;
      } else if (io.written[t] == 0x3) {
        found_t = true;
        for (int c = 0; c < 2; ++c) EXPECT_EQ(fval(io.lanes(t, c)[v]), want_t[c]) << "vertex " << v << " uv " << c;
      }
    }
    ASSERT_TRUE(found_c && found_t) << "written masks " << int(io.written[emu::kExpParam0]) << " "
                                    << int(io.written[emu::kExpParam0 + 1]);
  }
}

TEST(ShaderEmulation, DrawTablesRefuseASamplerOrLocationTheProgramCannotHave) {
  auto sp = compile_to_spirv(kLitVertex, "varying vec4 Color;\nvoid main(){ gl_FragColor = Color; }\n", {}, "lit");
  emu::GlobalMemory mem;
  DrawTables tables(mem, sp, {});
  EXPECT_THROW(tables.bind_sampler("missing", {}, {}), InputError);
  const float x = 0;
  EXPECT_THROW(tables.bind_attribute(16, &x, 4, 0, 4), InputError);
  const ShaderBindings b = tables.bindings();
  EXPECT_LT(uint64_t(b.vertex_buffers) + 256, uint64_t{1} << 32);
  EXPECT_NE(b.descriptor_set, 0u);
}

}  // namespace
}  // namespace strobe::gfx
