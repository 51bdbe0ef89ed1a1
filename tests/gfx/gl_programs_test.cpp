// The programs a trace links, followed through shader and program objects; and every program a
// real glmark2 capture links compiles to gfx803 code.
#include "gfx/stream/gl_programs.h"

#include <gtest/gtest.h>

#include "common/error.h"
#include "gfx/shader/radv.h"
#include "trace_builder.h"

namespace strobe::gfx {
namespace {

using trace::TempFile;
using trace::TraceBuilder;

constexpr int64_t kVertex = 0x8B31, kFragment = 0x8B30, kGeometry = 0x8DD9;

// Sig ids: 1 glCreateShader, 2 glShaderSource, 3 glCreateProgram, 4 glAttachShader,
// 5 glBindAttribLocation, 6 glLinkProgram, 7 glDetachShader.
struct ProgramTrace {
  TraceBuilder t;
  uint64_t calls = 0;
  bool defined[8] = {};
  TraceBuilder& enter(uint64_t sig, const char* name, const std::vector<std::string>& args) {
    if (defined[sig]) return t.enter(0, sig);
    defined[sig] = true;
    return t.enter(0, sig, name, args);
  }
  void create_shader(int64_t type, uint64_t id) {
    enter(1, "glCreateShader", {"type"}).arg(0).uint_value(static_cast<uint64_t>(type)).end();
    t.leave(calls++).ret().uint_value(id).end();
  }
  void source(uint64_t shader, const std::vector<std::string>& parts) {
    enter(2, "glShaderSource", {"shader", "count", "string", "length"}).arg(0).uint_value(shader).arg(1).uint_value(parts.size());
    t.arg(2).array(parts.size());
    for (const auto& p : parts) t.string(p);
    t.arg(3).null().end().leave(calls++).end();
  }
  void create_program(uint64_t id) {
    enter(3, "glCreateProgram", {}).end();
    t.leave(calls++).ret().uint_value(id).end();
  }
  void attach(uint64_t program, uint64_t shader, bool detach = false) {
    if (detach)
      enter(7, "glDetachShader", {"program", "shader"});
    else
      enter(4, "glAttachShader", {"program", "shader"});
    t.arg(0).uint_value(program).arg(1).uint_value(shader).end().leave(calls++).end();
  }
  void bind(uint64_t program, int index, const std::string& name) {
    enter(5, "glBindAttribLocation", {"program", "index", "name"}).arg(0).uint_value(program).arg(1).uint_value(index);
    t.arg(2).string(name).end().leave(calls++).end();
  }
  void link(uint64_t program) {
    enter(6, "glLinkProgram", {"program"}).arg(0).uint_value(program).end().leave(calls++).end();
  }
};

TEST(GlPrograms, ALinkTakesTheAttachedSourcesAndTheLocationsBoundBeforeIt) {
  ProgramTrace p;
  p.create_program(1);
  p.create_shader(kVertex, 2);
  p.source(2, {"attribute vec4 p;\n", "void main(){gl_Position=p;}\n"});
  p.create_shader(kFragment, 3);
  p.source(3, {"void main(){gl_FragColor=vec4(1.0);}\n"});
  p.attach(1, 2);
  p.attach(1, 3);
  p.bind(1, 4, "p");
  p.link(1);
  // Relinked with a new fragment shader: a second program record, the first unchanged.
  p.create_shader(kFragment, 5);
  p.source(5, {"void main(){gl_FragColor=vec4(0.5);}\n"});
  p.attach(1, 3, true);
  p.attach(1, 5);
  p.link(1);
  TempFile f("programs.trace", p.t.file());
  auto programs = linked_programs(f.path());
  ASSERT_EQ(programs.size(), 2u);
  EXPECT_EQ(programs[0].id, 1u);
  EXPECT_EQ(programs[0].link_call, 8u);
  EXPECT_EQ(programs[0].vertex, "attribute vec4 p;\nvoid main(){gl_Position=p;}\n");
  EXPECT_EQ(programs[0].fragment, "void main(){gl_FragColor=vec4(1.0);}\n");
  EXPECT_EQ(programs[0].attribute_locations, (std::map<std::string, int>{{"p", 4}}));
  EXPECT_EQ(programs[1].fragment, "void main(){gl_FragColor=vec4(0.5);}\n");
  EXPECT_EQ(programs[1].vertex, programs[0].vertex);
}

TEST(GlPrograms, AProgramWithAGeometryStageIsNotImplementedNamingTheCall) {
  ProgramTrace p;
  p.create_program(1);
  p.create_shader(kVertex, 2);
  p.create_shader(kFragment, 3);
  p.create_shader(kGeometry, 4);
  for (uint64_t s : {2, 3, 4}) p.attach(1, s);
  p.link(1);
  TempFile f("geometry.trace", p.t.file());
  try {
    linked_programs(f.path());
    FAIL() << "no error";
  } catch (const NotImplementedError& e) {
    EXPECT_NE(std::string(e.what()).find("call 7"), std::string::npos) << e.what();
  }
}

TEST(GlPrograms, SourceForAShaderNeverCreatedIsAnInputErrorNamingTheCall) {
  ProgramTrace p;
  p.source(9, {"void main(){}\n"});
  TempFile f("orphan.trace", p.t.file());
  try {
    linked_programs(f.path());
    FAIL() << "no error";
  } catch (const InputError& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("call 0 (glShaderSource)"), std::string::npos) << what;
    EXPECT_NE(what.find(f.path()), std::string::npos) << what;
  }
}

TEST(GlPrograms, EveryProgramTheGlmark2CaptureLinksCompilesToGfx803) {
  const std::string path = STROBE_BUILD_DIR "/gfx-traces/glmark2-small.trace";
  auto programs = linked_programs(path);
  ASSERT_GE(programs.size(), 2u) << path;
  for (const auto& p : programs) {
    SCOPED_TRACE(p.link_call);
    EXPECT_FALSE(p.attribute_locations.empty()) << "apitrace records the driver's attribute locations";
    auto spirv = compile_to_spirv(p.vertex, p.fragment, p.attribute_locations, "glmark2");
    for (const auto& [name, location] : p.attribute_locations)
      if (spirv.slots.attributes.count(name)) EXPECT_EQ(spirv.slots.attributes.at(name), location) << name;
    auto pipe = compile_pipeline(spirv, PipelineKey{}, "glmark2");
    EXPECT_NE(pipe.vertex.assembly.find("exp pos0"), std::string::npos);
    EXPECT_NE(pipe.fragment.assembly.find("exp mrt0"), std::string::npos);
  }
}

}  // namespace
}  // namespace strobe::gfx
