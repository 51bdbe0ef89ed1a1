// GL uniform values packed into the default uniform block where RADV's code reads them.
#include "gfx/pipeline/uniforms.h"

#include <bit>
#include <cmath>
#include <cstring>

#include <gtest/gtest.h>

#include "common/error.h"
#include "emu/graphics.h"
#include "emu/memory.h"
#include "gfx/pipeline/shader_wave.h"
#include "gfx/shader/radv.h"
#include "isa/program.h"

namespace strobe::gfx {
namespace {

std::vector<uint8_t> floats(std::initializer_list<float> v) {
  std::vector<uint8_t> b(v.size() * 4);
  std::memcpy(b.data(), std::data(v), b.size());
  return b;
}

const char* kVertex = "attribute vec3 position;\n"
                      "uniform mat3 N;\nuniform vec3 lights[2];\nuniform float k;\n"
                      "varying vec3 c;\n"
                      "void main(){ c = N * (lights[0] + lights[1] * k); gl_Position = vec4(position, 1.0); }\n";
const char* kFragment = "varying vec3 c;\nvoid main(){ gl_FragColor = vec4(c, 1.0); }\n";

TEST(UniformBlock, MatricesTakeSixteenByteColumnsAndArraysTheirStride) {
  auto sp = compile_to_spirv(kVertex, kFragment, {}, "u");
  std::map<std::string, std::vector<uint8_t>> values = {
      {"N", floats({1, 2, 3, 4, 5, 6, 7, 8, 9})}, {"lights", floats({1, 0, 0, 0, 1, 0})}, {"k", floats({2})}};
  auto block = pack_uniform_block(sp, values, "u");
  std::map<std::string, UniformSlot> by;
  for (const auto& u : sp.uniforms) by[u.name] = u;
  ASSERT_TRUE(by.count("N") && by.count("k"));
  const std::string lights = by.count("lights[0]") ? "lights[0]" : "lights";
  ASSERT_TRUE(by.count(lights));
  auto at = [&](size_t offset) {
    float f;
    std::memcpy(&f, block.data() + offset, 4);
    return f;
  };
  EXPECT_EQ(at(by["N"].offset + 16 + 4), 5.0f) << "second column, second row";
  EXPECT_EQ(at(by["N"].offset + 32 + 8), 9.0f);
  EXPECT_EQ(at(by["N"].offset + 12), 0.0f) << "column padding";
  EXPECT_EQ(by[lights].array_stride, 16u);
  EXPECT_EQ(at(by[lights].offset + 16 + 4), 1.0f);
  EXPECT_EQ(at(by["k"].offset), 2.0f);
}

TEST(UniformBlock, AValueOfTheWrongSizeIsAnInputErrorNamingTheUniform) {
  auto sp = compile_to_spirv(kVertex, kFragment, {}, "u");
  try {
    pack_uniform_block(sp, {{"N", floats({1, 2, 3, 4})}}, "prog");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("uniform N"), std::string::npos) << e.what();
  }
}

TEST(UniformBlock, RadvsVertexShaderReadsThePackedMatrixAndArrayAsTheGlDefinesThem) {
  auto sp = compile_to_spirv(kVertex, kFragment, {}, "u");
  auto p = compile_pipeline(sp, PipelineKey{}, "u");
  const float n[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};  // column-major
  const float l0[3] = {0.5f, -1, 2}, l1[3] = {3, 0.25f, -2}, k = 0.5f;
  auto block = pack_uniform_block(sp, {{"N", floats({1, 2, 3, 4, 5, 6, 7, 8, 9})},
                                       {"lights", floats({l0[0], l0[1], l0[2], l1[0], l1[1], l1[2]})}, {"k", floats({k})}}, "u");
  emu::GlobalMemory mem;
  DrawTables tables(mem, sp, p.vertex.args.vertex_inputs);
  tables.bind_uniforms(block);
  const float pos[3] = {0, 0, 0};
  tables.bind_attribute(sp.slots.attributes.at("position"), pos, 12, 0, 12);
  emu::Wave w;
  const uint32_t id = 0;
  init_vertex_wave(w, p.vertex, tables.bindings(), {&id, 1});
  emu::GraphicsIo io;
  emu::run_graphics_wave(decode_shader(p.vertex), w, io, mem, "u (vertex)");
  float v[3];
  for (int r = 0; r < 3; ++r) v[r] = l0[r] + l1[r] * k;
  for (int r = 0; r < 3; ++r) {
    const float want = n[r] * v[0] + n[3 + r] * v[1] + n[6 + r] * v[2];
    EXPECT_NEAR(std::bit_cast<float>(io.lanes(emu::kExpParam0, r)[0]), want, 1e-5f) << "row " << r;
  }
}

}  // namespace
}  // namespace strobe::gfx
