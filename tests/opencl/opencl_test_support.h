// Shared by the OpenCL platform's tests: making this process (and child processes) see only the
// strobe ICD, running the host test programs, and a fixture with a context and queue.
#pragma once

#include <CL/cl.h>

#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace strobe::opencl_test {

/// Environment changes for a child process: (NAME, VALUE); an empty VALUE unsets NAME.
using EnvChanges = std::vector<std::pair<std::string, std::string>>;

/// The environment that shows exactly the strobe platform, with the test program cache.
EnvChanges strobe_env();
/// Applies strobe_env() to this process (before its first OpenCL call).
void use_strobe_icd();

/// Path of a host test program (tests/opencl/programs/NAME.c).
std::string program_path(const std::string& name);

/// How a child process ended.
struct RunResult {
  int exit_code = -1;  ///< -1 when it did not exit normally
  std::string out, err;
};

/// Runs argv (argv[0] a path) with `env` applied on top of this process's environment.
RunResult run(const std::vector<std::string>& argv, const EnvChanges& env);

/// The PoCL ICD file, or empty when PoCL is not installed.
std::string pocl_icd();

/// A strobe context, device and in-order profiling queue for in-process API tests.
class ClTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { use_strobe_icd(); }
  void SetUp() override;
  void TearDown() override;

  /// Builds `source`; fails the test (with the log) if the build fails.
  cl_program build(const char* source, const char* options = nullptr);
  /// A kernel of a built program.
  cl_kernel kernel(cl_program p, const char* name);
  /// A read-write buffer of `bytes`, initialised from `data` when given.
  cl_mem buffer(size_t bytes, const void* data = nullptr);
  /// The build log of `p`.
  std::string build_log(cl_program p);

  cl_platform_id platform_ = nullptr;
  cl_device_id device_ = nullptr;
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
  std::vector<cl_program> programs_;
  std::vector<cl_kernel> kernels_;
  std::vector<cl_mem> buffers_;
};

}  // namespace strobe::opencl_test
