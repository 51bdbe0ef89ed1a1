// `strobe shader`: a GL program's GLSL files in, gfx803 graphics shaders and their launch state
// out; a shader that does not compile and a malformed option each get one clear error, exit 2.
#include <gtest/gtest.h>

#include <fstream>

#include "cli/cli_runner.h"

namespace strobe::clitest {
namespace {

struct ShaderFiles {
  TempDir dir;
  std::string vertex = (dir.path / "p.vert").string();
  std::string fragment = (dir.path / "p.frag").string();
  ShaderFiles(const std::string& vs, const std::string& fs) {
    std::ofstream(vertex) << vs;
    std::ofstream(fragment) << fs;
  }
};

const char* kVertex = "attribute vec3 position;\nattribute vec2 uv;\nuniform mat4 MVP;\nvarying vec2 v_uv;\n"
                      "void main(){ v_uv = uv; gl_Position = MVP * vec4(position, 1.0); }\n";
const char* kFragment = "uniform sampler2D tex;\nvarying vec2 v_uv;\nvoid main(){ gl_FragColor = texture2D(tex, v_uv); }\n";

TEST(ShaderCli, PrintsBothStagesWithTheirArgumentsAndInstructions) {
  ShaderFiles f(kVertex, kFragment);
  const CliResult r = run_strobe("shader " + f.vertex + " " + f.fragment + " --attribute uv=3");
  ASSERT_EQ(r.rc, 0) << r.err;
  for (const char* want : {"RADV FIJI", "attribute uv at location 3", "attribute position at location 0",
                           "sampler tex at set 0, binding 1", "MVP at 0", "s[2:2]  vertex_buffers", "v[0:1]  persp_center",
                           "exp pos0", "v_interp_p1_f32", "image_sample", "exp mrt0", "s_endpgm"})
    EXPECT_NE(r.out.find(want), std::string::npos) << want << "\n" << r.out;
}

TEST(ShaderCli, NoListingPrintsOnlyTheLaunchState) {
  ShaderFiles f(kVertex, kFragment);
  const CliResult r = run_strobe("shader " + f.vertex + " " + f.fragment + " --no-listing");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("pixel shader:"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("s_endpgm"), std::string::npos) << r.out;
}

TEST(ShaderCli, AShaderThatDoesNotCompileExitsTwoWithGlslangsMessage) {
  ShaderFiles f("void main(){ gl_Position = vec4(nowhere); }\n", kFragment);
  const CliResult r = run_strobe("shader " + f.vertex + " " + f.fragment);
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("vertex shader does not compile"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("nowhere"), std::string::npos) << r.err;
}

TEST(ShaderCli, AMalformedAttributeOptionOrMissingFileExitsTwo) {
  ShaderFiles f(kVertex, kFragment);
  const CliResult bad = run_strobe("shader " + f.vertex + " " + f.fragment + " --attribute uv=x");
  EXPECT_EQ(bad.rc, 2);
  EXPECT_NE(bad.err.find("--attribute 'uv=x'"), std::string::npos) << bad.err;
  const CliResult missing = run_strobe("shader " + f.vertex + " /nonexistent/p.frag");
  EXPECT_EQ(missing.rc, 2);
  EXPECT_NE(missing.err.find("/nonexistent/p.frag"), std::string::npos) << missing.err;
}

TEST(ShaderCli, TraceCompilesEveryProgramTheCaptureLinks) {
  const std::string trace = STROBE_BUILD_DIR "/gfx-traces/glmark2-small.trace";
  const CliResult r = run_strobe("shader --trace " + trace);
  ASSERT_EQ(r.rc, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("glLinkProgram calls"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" compiled, 0 failed"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("0 distinct programs"), std::string::npos) << r.out;
}

TEST(ShaderCli, TraceAndShaderFilesTogetherExitTwo) {
  ShaderFiles f(kVertex, kFragment);
  const CliResult r = run_strobe("shader --trace x.trace " + f.vertex + " " + f.fragment);
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("not both"), std::string::npos) << r.err;
  const CliResult none = run_strobe("shader");
  EXPECT_EQ(none.rc, 2);
}

}  // namespace
}  // namespace strobe::clitest
