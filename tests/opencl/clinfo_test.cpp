// clinfo, the standard OpenCL query tool, lists the strobe platform with values from the GPU
// configuration (and survives every query it makes).
#include <filesystem>
#include <regex>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "opencl/opencl_test_support.h"

namespace strobe::opencl_test {
namespace {

std::string clinfo() {
  for (const char* p : {"/usr/bin/clinfo", "/usr/local/bin/clinfo"})
    if (std::filesystem::exists(p)) return p;
  return "";
}

/// The value clinfo prints after `label` (its human format: label, spaces, value).
std::string field(const std::string& out, const std::string& label) {
  std::smatch m;
  if (std::regex_search(out, m, std::regex("(^|\n) *" + label + " +([^\n]*)"))) return m[2];
  return "<missing " + label + ">";
}

TEST(Clinfo, ListsTheStrobePlatformAndDeviceWithR9NanoValues) {
  if (clinfo().empty()) GTEST_SKIP() << "clinfo is not installed (apt-get install clinfo)";
  RunResult r = run({clinfo()}, strobe_env());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(field(r.out, "Number of platforms"), "1");
  EXPECT_EQ(field(r.out, "Platform Name"), "strobe");
  EXPECT_EQ(field(r.out, "Platform Version"), "OpenCL 1.2 strobe 0.1");
  EXPECT_EQ(field(r.out, "Platform Extensions function suffix"), "strobe");
  // The device says what AMD's runtime says of a gfx803 GPU, so libraries take their AMD paths;
  // the board name says which preset strobe simulates.
  EXPECT_EQ(field(r.out, "Device Name"), "gfx803");
  EXPECT_EQ(field(r.out, "Device Vendor"), "Advanced Micro Devices, Inc.");
  EXPECT_EQ(field(r.out, "Device Vendor ID"), "0x1002");
  EXPECT_EQ(field(r.out, "Device Board Name \\(AMD\\)"), "r9nano (simulated by strobe)");
  EXPECT_EQ(field(r.out, "SIMD per compute unit \\(AMD\\)"), "4");
  EXPECT_EQ(field(r.out, "Wavefront width \\(AMD\\)"), "64");
  EXPECT_EQ(field(r.out, "Global memory channels \\(AMD\\)"), "32");
  EXPECT_EQ(field(r.out, "Local memory banks \\(AMD\\)"), "32");
  EXPECT_EQ(field(r.out, "Device Type"), "GPU");
  EXPECT_EQ(field(r.out, "Max compute units"), "64");
  EXPECT_EQ(field(r.out, "Max clock frequency"), "1000MHz");
  EXPECT_EQ(field(r.out, "Max work group size"), "256");
  EXPECT_EQ(field(r.out, "Global memory size"), "4294967296 (4GiB)");
  EXPECT_EQ(field(r.out, "Local memory size"), "65536 (64KiB)");
  EXPECT_EQ(field(r.out, "Global Memory cache size"), "2097152 (2MiB)");
  EXPECT_EQ(field(r.out, "Image support"), "No");
  EXPECT_EQ(field(r.out, "Compiler Available"), "Yes");
  EXPECT_THAT(field(r.out, "Device Extensions"), ::testing::HasSubstr("cl_khr_global_int32_base_atomics"));
  // clinfo's "NULL platform behavior" section creates contexts of every device type.
  EXPECT_THAT(r.out, ::testing::HasSubstr("clCreateContextFromType(NULL, CL_DEVICE_TYPE_GPU)  Success (1)"));
  EXPECT_THAT(r.out, ::testing::HasSubstr("clCreateContextFromType(NULL, CL_DEVICE_TYPE_CPU)  No devices found"));
}

TEST(Clinfo, ReportsTheArchAndOverridesTheEnvironmentSelects) {
  if (clinfo().empty()) GTEST_SKIP() << "clinfo is not installed (apt-get install clinfo)";
  EnvChanges env = strobe_env();
  env.emplace_back("STROBE_MODE", "timing");
  env.emplace_back("STROBE_ARCH", "mi100");
  env.emplace_back("STROBE_SET", "gpu.num_cus=96;l2.size_kb=4096");
  RunResult r = run({clinfo()}, env);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(field(r.out, "Device Board Name \\(AMD\\)"), "mi100 (simulated by strobe)");
  EXPECT_EQ(field(r.out, "Max compute units"), "96");
  EXPECT_EQ(field(r.out, "Max clock frequency"), "1502MHz");
  EXPECT_EQ(field(r.out, "Global Memory cache size"), "4194304 (4MiB)");
}

TEST(Clinfo, SeesNoPlatformAndAReasonWhenTheConfigurationIsInvalid) {
  if (clinfo().empty()) GTEST_SKIP() << "clinfo is not installed (apt-get install clinfo)";
  EnvChanges env = strobe_env();
  env.emplace_back("STROBE_ARCH", "no-such-gpu");
  RunResult r = run({clinfo(), "-l"}, env);
  EXPECT_THAT(r.err, ::testing::HasSubstr("strobe: error: the OpenCL platform cannot start"));
  EXPECT_THAT(r.err, ::testing::HasSubstr("no-such-gpu"));
  EXPECT_THAT(r.out, ::testing::Not(::testing::HasSubstr("strobe")));
}

}  // namespace
}  // namespace strobe::opencl_test
