// The same OpenCL host programs run under strobe and under PoCL (a CPU implementation) and must
// print the same results: vector operations, matrix multiply, reductions in local memory,
// atomics, events, buffers and maps, programs and build failures.
#include <filesystem>
#include <fstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "opencl/opencl_test_support.h"

namespace strobe::opencl_test {
namespace {

class Differential : public ::testing::TestWithParam<const char*> {};

TEST_P(Differential, StrobeAndPoclPrintTheSameResults) {
  const std::string program = program_path(GetParam());
  RunResult strobe = run({program}, strobe_env());
  ASSERT_EQ(strobe.exit_code, 0) << "under strobe:\n" << strobe.out << strobe.err;
  EXPECT_THAT(strobe.out, ::testing::EndsWith("done\n"));
  EXPECT_EQ(strobe.err, "");
  if (pocl_icd().empty()) GTEST_SKIP() << "PoCL is not installed (apt-get install pocl-opencl-icd): strobe ran alone";
  RunResult pocl = run({program}, {{"OCL_ICD_VENDORS", pocl_icd()}});
  ASSERT_EQ(pocl.exit_code, 0) << "under PoCL:\n" << pocl.out << pocl.err;
  EXPECT_EQ(strobe.out, pocl.out);
}

INSTANTIATE_TEST_SUITE_P(Programs, Differential,
                         ::testing::Values("vector_ops", "matmul", "reduction", "atomics", "events", "mapping",
                                           "programs", "conv2d"));

TEST(DifferentialPastEnd, RegressionMergeSortPassReadingPastItsInputRunsWithAWarningAsOnPocl) {
  const std::string program = program_path("merge_pass");
  RunResult strobe = run({program}, strobe_env());
  ASSERT_EQ(strobe.exit_code, 0) << "under strobe:\n" << strobe.out << strobe.err;
  EXPECT_THAT(strobe.out, ::testing::HasSubstr("mismatches vs CPU=0"));
  EXPECT_THAT(strobe.err, ::testing::HasSubstr("warning: kernel mergeSortPass"));
  EXPECT_THAT(strobe.err, ::testing::HasSubstr("inside a mapped page"));
  EnvChanges strict = strobe_env();
  strict.emplace_back("STROBE_MEMORY_CHECK", "strict");
  RunResult faulted = run({program}, strict);  // the failed launch is reported; the program goes on
  EXPECT_THAT(faulted.err, ::testing::HasSubstr("clEnqueueNDRangeKernel failed (CL_OUT_OF_RESOURCES): kernel "
                                                "mergeSortPass"));
  EXPECT_THAT(faulted.err, ::testing::HasSubstr("is outside every live allocation"));
  if (pocl_icd().empty()) GTEST_SKIP() << "PoCL is not installed (apt-get install pocl-opencl-icd): strobe ran alone";
  RunResult pocl = run({program}, {{"OCL_ICD_VENDORS", pocl_icd()}});
  ASSERT_EQ(pocl.exit_code, 0) << "under PoCL:\n" << pocl.out << pocl.err;
  EXPECT_EQ(strobe.out, pocl.out);
}

TEST(DifferentialImages, StrobeRejectsImagesWithInvalidOperationWherePoclRunsThem) {
  const std::string program = program_path("images");
  RunResult strobe = run({program}, strobe_env());
  ASSERT_EQ(strobe.exit_code, 0) << strobe.out << strobe.err;
  EXPECT_THAT(strobe.out, ::testing::HasSubstr("images: not supported; clCreateImage -> CL_INVALID_OPERATION (handle NULL); "
                                               "clCreateSampler -> CL_INVALID_OPERATION; formats=0"));
  if (pocl_icd().empty()) GTEST_SKIP() << "PoCL is not installed (apt-get install pocl-opencl-icd)";
  RunResult pocl = run({program}, {{"OCL_ICD_VENDORS", pocl_icd()}});
  ASSERT_EQ(pocl.exit_code, 0) << pocl.out << pocl.err;
  EXPECT_THAT(pocl.out, ::testing::HasSubstr("images: supported; round trip ok=1"));
}

TEST(DifferentialBoth, BothPlatformsAreVisibleThroughOneVendorsDirectory) {
  if (pocl_icd().empty()) GTEST_SKIP() << "PoCL is not installed (apt-get install pocl-opencl-icd)";
  // A vendors directory with both .icd files: the program picks by name.
  std::string dir = ::testing::TempDir() + "strobe-and-pocl";
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(std::string(STROBE_OPENCL_VENDORS_DIR) + "/strobe.icd", dir + "/strobe.icd",
                             std::filesystem::copy_options::overwrite_existing);
  std::filesystem::copy_file(pocl_icd(), dir + "/pocl.icd", std::filesystem::copy_options::overwrite_existing);
  EnvChanges env = strobe_env();
  env[0] = {"OCL_ICD_VENDORS", dir};
  // The strobe ICD is loaded either way; its exit report shows whether it ran the kernels.
  const std::string report = dir + "/report.json";
  env.emplace_back("STROBE_JSON", report);
  env.emplace_back("CL_TEST_PLATFORM", "strobe");
  RunResult on_strobe = run({program_path("matmul")}, env);
  ASSERT_EQ(on_strobe.exit_code, 0) << on_strobe.err;
  const size_t strobe_launches = nlohmann::json::parse(std::ifstream(report))["kernels"].size();
  env.back() = {"CL_TEST_PLATFORM", "Portable"};
  RunResult on_pocl = run({program_path("matmul")}, env);
  ASSERT_EQ(on_pocl.exit_code, 0) << on_pocl.err;
  const size_t pocl_launches = nlohmann::json::parse(std::ifstream(report))["kernels"].size();
  EXPECT_EQ(on_strobe.out, on_pocl.out);
  EXPECT_EQ(strobe_launches, 2u);
  EXPECT_EQ(pocl_launches, 0u);
}

}  // namespace
}  // namespace strobe::opencl_test
