// The dialect step: GL GLSL in, Vulkan GLSL out, with both stages agreeing on every slot.
#include "gfx/shader/glsl_dialect.h"

#include <gtest/gtest.h>

#include "common/error.h"

namespace strobe::gfx {
namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST(GlslDialect, VaryingsAreLocatedByNameInBothStagesWhateverTheDeclarationOrder) {
  auto r = to_vulkan_glsl("attribute vec3 p;\nvarying vec2 A;\nvarying vec4 B;\nvoid main(){A=p.xy;B=vec4(p,1.0);gl_Position=B;}\n",
                          "varying vec4 B;\nvarying vec2 A;\nvoid main(){gl_FragColor=B+A.xyxy;}\n", {}, "t");
  EXPECT_EQ(r.slots.varyings.at("A"), 0);
  EXPECT_EQ(r.slots.varyings.at("B"), 1);
  EXPECT_TRUE(contains(r.vertex, "layout(location=0) out vec2 A;")) << r.vertex;
  EXPECT_TRUE(contains(r.vertex, "layout(location=1) out vec4 B;")) << r.vertex;
  EXPECT_TRUE(contains(r.fragment, "layout(location=1) in vec4 B;")) << r.fragment;
  EXPECT_TRUE(contains(r.fragment, "layout(location=0) in vec2 A;")) << r.fragment;
}

TEST(GlslDialect, MultiNameDeclarationsAreSplitAndMatricesTakeOneLocationPerColumn) {
  auto r = to_vulkan_glsl("attribute mat3 m;\nattribute vec2 a, b;\nvarying mat2 v0, v1;\nvoid main(){gl_Position=vec4(0.0);}\n",
                          "void main(){gl_FragColor=vec4(1.0);}\n", {}, "t");
  EXPECT_EQ(r.slots.attributes.at("m"), 0);
  EXPECT_EQ(r.slots.attributes.at("a"), 3);
  EXPECT_EQ(r.slots.attributes.at("b"), 4);
  EXPECT_EQ(r.slots.varyings.at("v0"), 0);
  EXPECT_EQ(r.slots.varyings.at("v1"), 2);
}

TEST(GlslDialect, BoundAttributesKeepTheirLocationsAndTheOthersTakeTheLowestFree) {
  auto r = to_vulkan_glsl("attribute vec3 position;\nattribute vec3 normal;\nattribute vec2 uv;\nvoid main(){gl_Position=vec4(position+normal,uv.x);}\n",
                          "void main(){gl_FragColor=vec4(1.0);}\n", {{"normal", 0}, {"uv", 2}}, "t");
  EXPECT_EQ(r.slots.attributes.at("normal"), 0);
  EXPECT_EQ(r.slots.attributes.at("uv"), 2);
  EXPECT_EQ(r.slots.attributes.at("position"), 1);
  EXPECT_TRUE(contains(r.vertex, "layout(location=1) in vec3 position;")) << r.vertex;
}

TEST(GlslDialect, SamplersGetOneBindingPerNameSharedByBothStages) {
  auto r = to_vulkan_glsl("uniform sampler2D heightmap;\nattribute vec2 p;\nvoid main(){gl_Position=texture2DLod(heightmap,p,0.0);}\n",
                          "uniform sampler2D diffuse;\nuniform sampler2D heightmap;\nvoid main(){gl_FragColor=texture2D(diffuse,vec2(0.5))+texture2D(heightmap,vec2(0.5));}\n",
                          {}, "t");
  EXPECT_EQ(r.slots.samplers.at("heightmap"), kDefaultUniformBinding + 1);
  EXPECT_EQ(r.slots.samplers.at("diffuse"), kDefaultUniformBinding + 2);
  EXPECT_TRUE(contains(r.vertex, "textureLod(heightmap")) << r.vertex;
  EXPECT_TRUE(contains(r.fragment, "layout(binding=1) uniform sampler2D heightmap;")) << r.fragment;
  EXPECT_FALSE(contains(r.fragment, "texture2D")) << r.fragment;
}

TEST(GlslDialect, FragColorAndFragDataBecomeDeclaredOutputs) {
  auto one = to_vulkan_glsl("void main(){gl_Position=vec4(0.0);}\n", "void main(){gl_FragColor=vec4(1.0);}\n", {}, "t");
  EXPECT_EQ(one.slots.color_outputs, 1);
  EXPECT_TRUE(contains(one.fragment, "layout(location=0) out vec4 strobe_FragColor;")) << one.fragment;
  auto two = to_vulkan_glsl("void main(){gl_Position=vec4(0.0);}\n",
                            "void main(){gl_FragData[0]=vec4(1.0);gl_FragData[1]=vec4(0.0);}\n", {}, "t");
  EXPECT_EQ(two.slots.color_outputs, 2);
  EXPECT_TRUE(contains(two.fragment, "out vec4 strobe_FragData[2];")) << two.fragment;
  EXPECT_THROW(to_vulkan_glsl("void main(){gl_Position=vec4(0.0);}\n",
                              "uniform int i;\nvoid main(){gl_FragData[i]=vec4(1.0);}\n", {}, "t"),
               InputError);
}

TEST(GlslDialect, LegacyNamesThatGlsl450TakesAreRenamedButNewerShadersKeepThem) {
  auto legacy = to_vulkan_glsl("attribute vec4 sample;\nvoid main(){gl_Position=sample;}\n",
                               "uniform vec4 texture;\nvoid main(){gl_FragColor=texture;}\n", {}, "t");
  EXPECT_TRUE(contains(legacy.vertex, "in vec4 strobe_sample;")) << legacy.vertex;
  EXPECT_TRUE(contains(legacy.fragment, "strobe_FragColor=strobe_texture;")) << legacy.fragment;
  EXPECT_EQ(legacy.slots.attributes.count("sample"), 1u) << "the slots use the program's own names";
  EXPECT_EQ(program_name(legacy.slots, "strobe_texture[2].x"), "texture[2].x");
  EXPECT_EQ(program_name(legacy.slots, "strobe_other"), "strobe_other");
  auto modern = to_vulkan_glsl("#version 330\nin vec4 p;\nvoid main(){gl_Position=p;}\n",
                               "#version 330\nuniform sampler2D s;\nout vec4 o;\nvoid main(){o=texture(s,vec2(0.0));}\n",
                               {}, "t");
  EXPECT_TRUE(contains(modern.fragment, "o=texture(s,")) << modern.fragment;
  EXPECT_TRUE(contains(modern.fragment, "layout(location=0) out vec4 o;")) << modern.fragment;
  EXPECT_EQ(modern.slots.attributes.at("p"), 0);
}

TEST(GlslDialect, ARenamedAttributeStillTakesTheLocationTheProgramBound) {
  auto r = to_vulkan_glsl("attribute vec4 p;\nattribute vec4 sample;\nvoid main(){gl_Position=p+sample;}\n",
                          "void main(){gl_FragColor=vec4(1.0);}\n", {{"sample", 5}}, "t");
  EXPECT_EQ(r.slots.attributes.at("sample"), 5);
  EXPECT_TRUE(contains(r.vertex, "layout(location=5) in vec4 strobe_sample;")) << r.vertex;
}

TEST(GlslDialect, FunctionBodiesAndPrototypesAreCopiedUnchanged) {
  std::string body = "float f(in vec4 a, out float b);\nfloat f(in vec4 a, out float b){ b = a.x; return a.y; }\n";
  auto r = to_vulkan_glsl("const float k = 2.0;\n" + body + "void main(){float b; gl_Position=vec4(f(vec4(k),b));}\n",
                          "precision mediump float;\nvoid main(){gl_FragColor=vec4(1.0);}\n", {}, "t");
  EXPECT_TRUE(contains(r.vertex, body)) << r.vertex;
  EXPECT_TRUE(contains(r.vertex, "const float k = 2.0;")) << r.vertex;
  EXPECT_TRUE(contains(r.fragment, "precision mediump float;")) << r.fragment;
}

TEST(GlslDialect, CompatibilityBuiltinsAreNotImplementedNamingTheBuiltin) {
  try {
    to_vulkan_glsl("void main(){gl_Position=ftransform();}\n", "void main(){gl_FragColor=vec4(1.0);}\n", {}, "prog7");
    FAIL() << "no error";
  } catch (const NotImplementedError& e) {
    EXPECT_TRUE(contains(e.what(), "prog7")) << e.what();
    EXPECT_TRUE(contains(e.what(), "ftransform")) << e.what();
  }
}

TEST(GlslDialect, UnreadableArraySizeIsAnInputErrorNamingTheProgramAndStage) {
  try {
    to_vulkan_glsl("const int N = 4;\nvarying vec4 v[N];\nvoid main(){gl_Position=vec4(0.0);}\n",
                   "void main(){gl_FragColor=vec4(1.0);}\n", {}, "prog3");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_TRUE(contains(e.what(), "program prog3: vertex shader")) << e.what();
  }
}

}  // namespace
}  // namespace strobe::gfx
