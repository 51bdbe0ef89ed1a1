// Test helpers for the OpenCL platform (see opencl_test_support.h).
#include "opencl/opencl_test_support.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace strobe::opencl_test {

EnvChanges strobe_env() {
  return {{"OCL_ICD_VENDORS", STROBE_OPENCL_VENDORS_DIR},
          {"STROBE_CACHE_DIR", STROBE_OPENCL_TEST_CACHE},
          {"STROBE_MODE", ""},
          {"STROBE_ARCH", ""},
          {"STROBE_SET", ""},
          {"STROBE_JSON", ""},
          {"STROBE_SAMPLING", ""}};
}

void use_strobe_icd() {
  for (const auto& [name, value] : strobe_env()) {
    if (value.empty()) ::unsetenv(name.c_str());
    else ::setenv(name.c_str(), value.c_str(), 1);
  }
}

std::string program_path(const std::string& name) { return std::string(STROBE_OPENCL_PROGRAM_DIR) + "/" + name; }

std::string pocl_icd() {
  const char* path = "/etc/OpenCL/vendors/pocl.icd";
  return std::filesystem::exists(path) ? path : "";
}

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

RunResult run(const std::vector<std::string>& argv, const EnvChanges& env) {
  std::string dir = std::filesystem::temp_directory_path() / "strobe-ocl-test-XXXXXX";
  if (!::mkdtemp(dir.data())) return {};
  const std::string out_path = dir + "/out", err_path = dir + "/err";
  pid_t pid = ::fork();
  if (pid == 0) {
    for (const auto& [name, value] : env) {
      if (value.empty()) ::unsetenv(name.c_str());
      else ::setenv(name.c_str(), value.c_str(), 1);
    }
    int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(out, 1);
    ::dup2(err, 2);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  RunResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(out_path);
  r.err = slurp(err_path);
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  return r;
}

void ClTest::SetUp() {
  ASSERT_EQ(clGetPlatformIDs(1, &platform_, nullptr), CL_SUCCESS);
  ASSERT_EQ(clGetDeviceIDs(platform_, CL_DEVICE_TYPE_GPU, 1, &device_, nullptr), CL_SUCCESS);
  cl_int err;
  context_ = clCreateContext(nullptr, 1, &device_, nullptr, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  queue_ = clCreateCommandQueue(context_, device_, CL_QUEUE_PROFILING_ENABLE, &err);
  ASSERT_EQ(err, CL_SUCCESS);
}

void ClTest::TearDown() {
  for (cl_kernel k : kernels_) clReleaseKernel(k);
  for (cl_program p : programs_) clReleaseProgram(p);
  for (cl_mem m : buffers_) clReleaseMemObject(m);
  if (queue_) clReleaseCommandQueue(queue_);
  if (context_) clReleaseContext(context_);
}

std::string ClTest::build_log(cl_program p) {
  size_t n = 0;
  clGetProgramBuildInfo(p, device_, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
  std::string log(n, '\0');
  clGetProgramBuildInfo(p, device_, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
  if (!log.empty() && log.back() == '\0') log.pop_back();
  return log;
}

cl_program ClTest::build(const char* source, const char* options) {
  cl_int err;
  cl_program p = clCreateProgramWithSource(context_, 1, &source, nullptr, &err);
  EXPECT_EQ(err, CL_SUCCESS);
  programs_.push_back(p);
  err = clBuildProgram(p, 1, &device_, options, nullptr, nullptr);
  EXPECT_EQ(err, CL_SUCCESS) << build_log(p);
  return p;
}

cl_kernel ClTest::kernel(cl_program p, const char* name) {
  cl_int err;
  cl_kernel k = clCreateKernel(p, name, &err);
  EXPECT_EQ(err, CL_SUCCESS) << name;
  if (k) kernels_.push_back(k);
  return k;
}

cl_mem ClTest::buffer(size_t bytes, const void* data) {
  cl_int err;
  cl_mem m = clCreateBuffer(context_, CL_MEM_READ_WRITE | (data ? CL_MEM_COPY_HOST_PTR : 0), bytes,
                            const_cast<void*>(data), &err);
  EXPECT_EQ(err, CL_SUCCESS);
  if (m) buffers_.push_back(m);
  return m;
}

}  // namespace strobe::opencl_test
