// A linked HIP program: strobe names it as one and says how to get its device code out, and the
// code object extracted that way runs.
#include <gtest/gtest.h>

#include "foreign/foreign_runner.h"

namespace strobe::foreigntest {
namespace {

const std::filesystem::path kApp = std::filesystem::path(STROBE_BUILD_DIR) / "kernels-hip" / "app" / "vec_scale_app";

TEST(HipApp, HostProgramIsRefusedWithTheExtractionCommands) {
  ASSERT_TRUE(std::filesystem::exists(kApp)) << kApp << " was not built (hipcc, see scripts/setup)";
  auto r = clitest::run_strobe("launch '" + kApp.string() + "' --kernel vec_scale --grid 64");
  EXPECT_EQ(r.rc, 2) << r.err;
  EXPECT_NE(r.err.find("is a host program (x86-64) whose HIP device code is in its .hip_fatbin section, not a code "
                       "object: extract it with 'llvm-objcopy --dump-section .hip_fatbin=FAT FILE' then "
                       "'clang-offload-bundler --unbundle --type=o --targets=hipv4-amdgcn-amd-amdhsa--gfx803"),
            std::string::npos)
      << r.err;
}

TEST(HipApp, CodeObjectExtractedFromTheFatbinRuns) {
  auto object = kApp;
  object += ".hsaco";
  ASSERT_TRUE(std::filesystem::exists(object)) << object << " was not built";
  std::vector<float> x(200);
  for (size_t i = 0; i < x.size(); ++i) x[i] = float(i) - 50.0f;
  Launch l(object, "vec_scale");
  auto r = l.buffer(x).arg("f32:2.5").arg("i32:200").run(256, 64);
  ASSERT_EQ(r.rc, 0) << r.err;
  auto out = l.output<float>(0);
  ASSERT_EQ(out.size(), x.size());
  for (size_t i = 0; i < x.size(); ++i) EXPECT_EQ(out[i], x[i] * 2.5f) << i;
}

}  // namespace
}  // namespace strobe::foreigntest
