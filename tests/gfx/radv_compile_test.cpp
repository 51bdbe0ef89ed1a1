// GL programs compiled to gfx803 graphics shaders by RADV on a GPU-less Fiji: the words must be
// gfx803 code strobe decodes exactly as RADV's own disassembler printed it, and the argument
// layout read back must account for every register RADV assigned.
#include "gfx/shader/radv.h"

#include "gfx/shader/descriptors.h"

#include <regex>
#include <set>
#include <sstream>

#include <gtest/gtest.h>

#include "common/error.h"
#include "isa/decoder.h"
#include "isa/disassembler.h"
#include "gl_shaders.h"

namespace strobe::gfx {
namespace {

using test::kLitFragment;
using test::kLitVertex;

const char* kTexturedVertex = R"(attribute vec3 position;
attribute vec2 texcoord;
uniform mat4 ModelViewProjectionMatrix;
varying vec2 TextureCoord;
varying vec4 Tint;
void main(void) {
  TextureCoord = texcoord;
  Tint = vec4(position, 0.5);
  gl_Position = ModelViewProjectionMatrix * vec4(position, 1.0);
}
)";
const char* kTexturedFragment = R"(#ifdef GL_ES
precision mediump float;
#endif
uniform sampler2D MaterialTexture0;
varying vec4 Tint;
varying vec2 TextureCoord;
void main(void) {
  gl_FragColor = texture2D(MaterialTexture0, TextureCoord) * Tint * (gl_FragCoord.y / 300.0);
}
)";

CompiledPipeline compile(const char* vs, const char* fs) {
  return compile_pipeline(compile_to_spirv(vs, fs, {}, "test"), PipelineKey{}, "test");
}

std::string squeeze(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += c;
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// Every instruction of RADV's listing decodes to the same words and the same text in strobe.
void expect_strobe_reads_listing(const CompiledShader& s) {
  std::istringstream in(s.assembly);
  std::string line;
  size_t pos = 0;
  int instructions = 0;
  while (std::getline(in, line)) {
    auto semi = line.find(';');
    if (semi == std::string::npos) continue;
    std::istringstream words(line.substr(semi + 1));
    std::string w;
    size_t n = 0;
    while (words >> w) ++n;
    ASSERT_LT(pos, s.code.size());
    std::span<const uint32_t> rest(s.code.data() + pos, s.code.size() - pos);
    auto inst = isa::decode(rest);
    ASSERT_NE(inst.enc, isa::Encoding::Invalid) << line;
    EXPECT_EQ(inst.size / 4u, n) << line;
    EXPECT_EQ(squeeze(isa::format_inst(inst, rest.first(inst.size / 4), pos * 4)), squeeze(line.substr(0, semi))) << line;
    pos += inst.size / 4;
    ++instructions;
  }
  EXPECT_EQ(pos, s.code.size());
  EXPECT_GT(instructions, 3);
}

std::vector<std::pair<ArgKind, int>> layout(const CompiledShader& s) {
  std::vector<std::pair<ArgKind, int>> out;
  for (const auto& a : s.args.args) out.push_back({a.kind, a.reg});
  return out;
}

// Distinct N of "exp paramN" (vertex) or "attrN." (pixel) in a listing.
std::set<int> listing_indices(const std::string& assembly, const std::string& pattern) {
  std::set<int> out;
  std::regex re(pattern);
  for (std::sregex_iterator it(assembly.begin(), assembly.end(), re), end; it != end; ++it) out.insert(std::stoi((*it)[1]));
  return out;
}

TEST(RadvCompile, TheDeviceIsAGpulessFiji) { EXPECT_NE(radv_device_name().find("FIJI"), std::string::npos); }

TEST(RadvCompile, EveryInstructionDecodesInStrobeAsRadvPrintedIt) {
  for (auto [vs, fs] : {std::pair{kLitVertex, kLitFragment}, {kTexturedVertex, kTexturedFragment}}) {
    auto p = compile(vs, fs);
    expect_strobe_reads_listing(p.vertex);
    expect_strobe_reads_listing(p.fragment);
  }
}

TEST(RadvCompile, ShadersUseTheGraphicsInstructionsAndRegisterCountsCoverTheArguments) {
  auto p = compile(kTexturedVertex, kTexturedFragment);
  EXPECT_NE(p.vertex.assembly.find("exp pos0"), std::string::npos);
  EXPECT_NE(p.vertex.assembly.find("idxen"), std::string::npos);
  EXPECT_NE(p.fragment.assembly.find("v_interp_p1_f32"), std::string::npos);
  EXPECT_NE(p.fragment.assembly.find("image_sample"), std::string::npos);
  EXPECT_NE(p.fragment.assembly.find("exp mrt0"), std::string::npos);
  for (const auto* s : {&p.vertex, &p.fragment})
    for (const auto& a : s->args.args)
      EXPECT_LE(static_cast<uint32_t>(a.reg + a.size), a.vector ? s->vgprs : s->sgprs) << arg_kind_name(a.kind);
}

TEST(RadvCompile, VertexShaderArgumentsFollowRadvsGfx8Layout) {
  auto p = compile(kLitVertex, kLitFragment);
  std::vector<std::pair<ArgKind, int>> want = {
      {ArgKind::RingOffsets, 0}, {ArgKind::VertexBuffers, 2}, {ArgKind::BaseVertex, 3}, {ArgKind::DescriptorSet, 4},
      {ArgKind::ScratchOffset, 5}, {ArgKind::VertexId, 0}, {ArgKind::InstanceId, 1}, {ArgKind::PrimitiveId, 2},
      {ArgKind::Unused, 3}};
  EXPECT_EQ(layout(p.vertex), want);
  EXPECT_EQ(p.vertex.args.user_sgprs, 5);
}

TEST(RadvCompile, PixelShaderVgprsAreTheEnabledInputsInHardwareOrder) {
  auto p = compile(kTexturedVertex, kTexturedFragment);
  std::vector<std::pair<ArgKind, int>> want = {{ArgKind::RingOffsets, 0}, {ArgKind::DescriptorSet, 2},
                                               {ArgKind::PrimMask, 3},    {ArgKind::ScratchOffset, 4},
                                               {ArgKind::PerspCenter, 0}, {ArgKind::PosY, 2}};
  EXPECT_EQ(layout(p.fragment), want);
  EXPECT_EQ(p.fragment.args.user_sgprs, 3);
}

TEST(RadvCompile, ShadersWithoutUniformsHaveNoDescriptorSetPointer) {
  auto p = compile("attribute vec4 position;\nvarying vec4 c;\nvoid main(){c=position;gl_Position=position;}\n",
                   "varying vec4 c;\nvoid main(){gl_FragColor=c;}\n");
  std::vector<std::pair<ArgKind, int>> vs = {{ArgKind::RingOffsets, 0}, {ArgKind::VertexBuffers, 2}, {ArgKind::BaseVertex, 3},
                                             {ArgKind::ScratchOffset, 4}, {ArgKind::VertexId, 0}, {ArgKind::InstanceId, 1},
                                             {ArgKind::PrimitiveId, 2}, {ArgKind::Unused, 3}};
  EXPECT_EQ(layout(p.vertex), vs);
  std::vector<std::pair<ArgKind, int>> fs = {{ArgKind::RingOffsets, 0}, {ArgKind::PrimMask, 2}, {ArgKind::ScratchOffset, 3},
                                             {ArgKind::PerspCenter, 0}};
  EXPECT_EQ(layout(p.fragment), fs);
}

TEST(RadvCompile, ParameterExportsAndInterpolatedInputsNameTheSameSlots) {
  auto p = compile(kTexturedVertex, kTexturedFragment);
  auto exported = listing_indices(p.vertex.assembly, R"(exp param(\d+))");
  auto read = listing_indices(p.fragment.assembly, R"(attr(\d+)\.)");
  EXPECT_EQ(exported.size(), p.vertex.args.param_locations.size());
  ASSERT_FALSE(read.empty());
  EXPECT_LT(*read.rbegin(), static_cast<int>(p.fragment.args.param_locations.size()));
  std::set<int> written(p.vertex.args.param_locations.begin(), p.vertex.args.param_locations.end());
  for (int slot : p.fragment.args.param_locations) EXPECT_TRUE(written.count(slot)) << "slot " << slot;
}

TEST(RadvCompile, TheDefaultUniformBlockHasOneLayoutForBothStages) {
  auto sp = compile_to_spirv("uniform mat4 M;\nuniform vec3 light;\nattribute vec4 p;\nvoid main(){gl_Position=M*p+vec4(light,0.0);}\n",
                             "uniform vec4 tint;\nuniform vec3 light;\nvoid main(){gl_FragColor=tint+vec4(light,1.0);}\n", {}, "t");
  std::map<std::string, uint32_t> offsets;
  for (const auto& u : sp.uniforms) offsets[u.name] = u.offset;
  ASSERT_EQ(offsets.size(), 3u);
  EXPECT_EQ(offsets.at("M"), 0u);
  EXPECT_GE(sp.uniform_block_bytes, 64u + 16u + 12u);
  EXPECT_NE(offsets.at("light"), offsets.at("tint"));
}

TEST(RadvCompile, UniformsAndSamplersAreReflectedUnderTheProgramsOwnNames) {
  auto sp = compile_to_spirv("attribute vec4 p;\nvoid main(){gl_Position=p;}\n",
                             "uniform vec4 texture;\nuniform sampler2D sample;\nvoid main(){gl_FragColor=texture+texture2D(sample,vec2(0.5));}\n",
                             {}, "t");
  ASSERT_EQ(sp.uniforms.size(), 1u);
  EXPECT_EQ(sp.uniforms[0].name, "texture");
  EXPECT_EQ(sp.sampler_gl_types.count("sample"), 1u);
  EXPECT_EQ(sp.slots.samplers.count("sample"), 1u);
  auto p = compile_pipeline(sp, PipelineKey{}, "t");
  EXPECT_NE(p.fragment.assembly.find("image_sample"), std::string::npos);
}

// The offsets of a listing's scalar loads from the register pair `base` ("s[2:3]"), by width.
std::map<int, std::set<uint32_t>> scalar_load_offsets(const std::string& assembly, const std::string& base) {
  std::map<int, std::set<uint32_t>> out;
  std::regex re("s_load_dwordx(\\d) s\\[\\d+:\\d+\\], " + std::regex_replace(base, std::regex(R"([\[\]])"), R"(\$&)") +
                ", 0x([0-9a-f]+)");
  for (std::sregex_iterator it(assembly.begin(), assembly.end(), re), end; it != end; ++it)
    out[std::stoi((*it)[1])].insert(static_cast<uint32_t>(std::stoul((*it)[2], nullptr, 16)));
  return out;
}

TEST(RadvCompile, DescriptorOffsetsAreWhereTheCodeLoadsItsDescriptorsFrom) {
  auto sp = compile_to_spirv(
      "attribute vec4 p;\nattribute vec2 uv;\nvarying vec2 t;\nvoid main(){t=uv;gl_Position=p;}\n",
      "uniform sampler2D a;\nuniform sampler2D b;\nuniform vec4 k;\nvarying vec2 t;\n"
      "void main(){gl_FragColor=texture2D(a,t)*texture2D(b,t.yx)+k;}\n",
      {}, "t");
  auto layout = descriptor_set_layout(sp);
  ASSERT_EQ(layout.samplers.size(), 2u);
  auto p = compile_pipeline(sp, PipelineKey{}, "t");
  // The pixel shader's set pointer is s2, made 64-bit in s[2:3].
  auto loads = scalar_load_offsets(p.fragment.assembly, "s[2:3]");
  std::set<uint32_t> images, samplers;
  for (const auto& [name, slot] : layout.samplers) {
    images.insert(slot.image_offset);
    samplers.insert(slot.sampler_offset);
  }
  samplers.insert(layout.uniform_offset);  // the UBO's V# is a 4-dword load too
  EXPECT_EQ(loads[8], images) << p.fragment.assembly;
  EXPECT_EQ(loads[4], samplers) << p.fragment.assembly;
  // The vertex shader loads each attribute's V# from the vertex-buffer table (s2, as s[2:3]).
  std::set<uint32_t> vbs;
  for (const auto& [name, location] : sp.slots.attributes)
    vbs.insert(uint32_t(vertex_buffer_offset(p.vertex.args.vertex_inputs, location)));
  EXPECT_EQ(scalar_load_offsets(p.vertex.assembly, "s[2:3]")[4], vbs) << p.vertex.assembly;
}

TEST(RadvCompile, TheVertexBufferTableIsPackedOverTheLocationsTheCodeReads) {
  // Regression: V#s were placed at 16 * location, but RADV packs the table over the locations
  // the vertex shader reads. OpenArena's lighting read its light direction (location 7, with
  // location 6 unused) from the slot after the last, got zeros, and drew its world black.
  auto sp = compile_to_spirv("attribute vec3 a0;\nattribute vec3 unused1;\nattribute vec2 a5;\nvarying vec2 uv;\n"
                             "void main(){ uv = a5; gl_Position = vec4(a0, 1.0); }\n",
                             "precision mediump float;\nvarying vec2 uv;\nvoid main(){ gl_FragColor = vec4(uv, 0.0, 1.0); }\n",
                             {{"a0", 0}, {"unused1", 1}, {"a5", 5}}, "packed");
  auto p = compile_pipeline(sp, PipelineKey{}, "packed");
  EXPECT_EQ(p.vertex.args.vertex_inputs, (std::vector<int>{0, 5}));
  EXPECT_EQ(vertex_buffer_offset(p.vertex.args.vertex_inputs, 5), 16);
  EXPECT_EQ(vertex_buffer_offset(p.vertex.args.vertex_inputs, 1), -1);
  EXPECT_EQ(scalar_load_offsets(p.vertex.assembly, "s[2:3]")[4], (std::set<uint32_t>{0, 16})) << p.vertex.assembly;
}

TEST(RadvCompile, AShaderGlslangRejectsIsAnInputErrorWithItsLog) {
  try {
    compile_to_spirv("void main(){gl_Position=vec4(undeclared);}\n", "void main(){gl_FragColor=vec4(1.0);}\n", {}, "broken");
    FAIL() << "no error";
  } catch (const InputError& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("program broken: vertex shader"), std::string::npos) << what;
    EXPECT_NE(what.find("undeclared"), std::string::npos) << what;
  }
}

TEST(RadvCompile, AListingLineWithoutItsEncodingIsAnInputError) {
  EXPECT_EQ(words_of_listing("BB0:\n\ts_endpgm ; bf810000\n", "s"), std::vector<uint32_t>{0xbf810000});
  EXPECT_THROW(words_of_listing("\ts_endpgm ; zz810000\n", "s"), InputError);
  EXPECT_THROW(words_of_listing("\ts_endpgm ;\n", "s"), InputError);
  EXPECT_THROW(words_of_listing("BB0:\n", "s"), InputError);
  // Regression: ACO prints a run of identical instructions once; dropping the repeats shifted
  // every later instruction, and a branch over them landed inside one (OpenArena's lighting).
  EXPECT_EQ(words_of_listing("\tv_mov_b32 v0, v1 ; 7e000301\n\t(then repeated 2 times)\n\ts_endpgm ; bf810000\n", "s"),
            (std::vector<uint32_t>{0x7e000301, 0x7e000301, 0x7e000301, 0xbf810000}));
  EXPECT_THROW(words_of_listing("\t(then repeated 2 times)\n", "s"), InputError);
  EXPECT_THROW(words_of_listing("\ts_endpgm ; bf810000\n\tsomething unexpected\n", "s"), InputError);
}

}  // namespace
}  // namespace strobe::gfx
