// Building programs: options reach clang, diagnostics reach the build log, the content-hashed
// cache serves repeated builds and notices edited headers, compile/link and binaries.
#include <CL/cl.h>

#include <unistd.h>

#include <cstdint>
#include <cmath>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "opencl/opencl_test_support.h"

namespace strobe::opencl_test {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class Build : public ClTest {
 protected:
  /// Runs a one-argument kernel over 64 ints and returns the result.
  std::vector<int> run_kernel(cl_program p, const char* name) {
    cl_kernel k = kernel(p, name);
    cl_mem m = buffer(64 * sizeof(int));
    EXPECT_EQ(clSetKernelArg(k, 0, sizeof m, &m), CL_SUCCESS);
    size_t global = 64;
    EXPECT_EQ(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr), CL_SUCCESS);
    std::vector<int> out(64);
    EXPECT_EQ(clEnqueueReadBuffer(queue_, m, CL_TRUE, 0, 64 * sizeof(int), out.data(), 0, nullptr, nullptr), CL_SUCCESS);
    return out;
  }
  /// A unique token, so a test's sources miss the cache the first time.
  static std::string unique() {
    return std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()) + "_" +
           std::to_string(::getpid());
  }
  static std::set<fs::path> cached_files() {
    std::set<fs::path> files;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(fs::path(STROBE_OPENCL_TEST_CACHE) / "opencl", ec)) files.insert(e.path());
    return files;
  }
};

TEST_F(Build, DefinesAndIncludeDirectoriesReachTheCompiler) {
  fs::path dir = fs::path(::testing::TempDir()) / "strobe-opencl-include-test";
  fs::create_directories(dir);
  std::ofstream(dir / "values.h") << "#define FROM_HEADER 30\n";
  const char* src = "#include \"values.h\"\n__kernel void k(__global int* v) { v[get_global_id(0)] = FROM_HEADER + VALUE; }";
  cl_program p = build(src, ("-DVALUE=12 -I " + dir.string()).c_str());
  EXPECT_EQ(run_kernel(p, "k")[63], 42);
  char options[256];
  ASSERT_EQ(clGetProgramBuildInfo(p, device_, CL_PROGRAM_BUILD_OPTIONS, sizeof options, options, nullptr), CL_SUCCESS);
  EXPECT_THAT(options, HasSubstr("-DVALUE=12"));
}

TEST_F(Build, OpenCL12KernelsUseAtomicsOnGlobalAndLocalPointers) {
  const char* src = R"(
__kernel void k(__global int* v) {
  __local int count;
  if (get_local_id(0) == 0) count = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&count);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) atomic_add(&v[0], count);
  atomic_max(&v[1], (int)get_global_id(0));
})";
  cl_program p = build(src, "-cl-std=CL1.2");
  auto out = run_kernel(p, "k");
  EXPECT_EQ(out[0], 64);
  EXPECT_EQ(out[1], 63);
  cl_program old = build("__kernel void k(__global int* v) { v[get_global_id(0)] = 1; }", "-cl-std=CL1.1");
  EXPECT_EQ(run_kernel(old, "k")[63], 1);
}

TEST_F(Build, CompileErrorsAndMissingBuiltinsFailWithTheirDiagnostics) {
  cl_int err;
  const char* bad = "__kernel void k(__global int* v) { v[0] = ; }";
  cl_program p = clCreateProgramWithSource(context_, 1, &bad, nullptr, &err);
  programs_.push_back(p);
  EXPECT_EQ(clBuildProgram(p, 1, &device_, nullptr, nullptr, nullptr), CL_BUILD_PROGRAM_FAILURE);
  EXPECT_THAT(build_log(p), HasSubstr("program.cl:1:"));
  EXPECT_THAT(build_log(p), HasSubstr("error: expected expression"));

  // A function the program declares but neither it nor the device libraries define.
  const char* missing = "float not_a_builtin(float);\n__kernel void k(__global float* v) { v[0] = not_a_builtin(v[1]); }";
  cl_program q = clCreateProgramWithSource(context_, 1, &missing, nullptr, &err);
  programs_.push_back(q);
  EXPECT_EQ(clBuildProgram(q, 1, &device_, nullptr, nullptr, nullptr), CL_BUILD_PROGRAM_FAILURE);
  EXPECT_THAT(build_log(q), HasSubstr("undefined hidden symbol: not_a_builtin"));
  EXPECT_THAT(build_log(q), HasSubstr("ROCm device libraries"));
}

// Regression: log10, tan and atan2 were declared by clang's header but defined nowhere, so any
// program calling them failed to link; the device libraries define every spec builtin.
TEST_F(Build, Log10TanAndAtan2Build) {
  const char* src = R"(
__kernel void k(__global int* v) {
  float x = (float)get_global_id(0) + 1.0f;
  v[get_global_id(0)] = (int)(1000.0f * (log10(x) + tan(0.25f * x) + atan2(x, 2.0f)));
})";
  auto out = run_kernel(build(src), "k");
  for (int i = 0; i < 64; ++i) {
    const double x = i + 1.0;
    EXPECT_NEAR(out[i], 1000.0 * (std::log10(x) + std::tan(0.25 * x) + std::atan2(x, 2.0)), 1.0) << i;
  }
}

TEST_F(Build, MathOptionsChooseTheDeviceLibraryVariants) {
  // ocml's ilogb answers INT_MAX for infinity unless oclc_finite_only_on (what
  // -cl-finite-math-only links) tells it infinities cannot occur and it may skip the check.
  const char* src = R"(
__kernel void k(__global int* v) {
  volatile float inf = INFINITY;
  v[get_global_id(0)] = ilogb(inf);
})";
  EXPECT_EQ(run_kernel(build(src), "k")[0], INT32_MAX);
  EXPECT_NE(run_kernel(build(src, "-cl-finite-math-only"), "k")[0], INT32_MAX);
}

TEST_F(Build, TheCacheServesARepeatedBuildAndNoticesAnEditedHeader) {
  fs::path dir = fs::path(::testing::TempDir()) / ("strobe-cache-" + unique());
  fs::create_directories(dir);
  std::ofstream(dir / "which.h") << "#define WHICH 1\n";
  // A kernel name of its own: other test processes add entries to the same cache concurrently,
  // so this run's entry is the new one whose code object names this kernel.
  const std::string kernel = "k_" + unique();
  const std::string src = "#include \"which.h\"\n__kernel void " + kernel + "(__global int* v) { v[0] = WHICH; }";
  const std::string options = "-I" + dir.string();
  auto before = cached_files();
  EXPECT_EQ(run_kernel(build(src.c_str(), options.c_str()), kernel.c_str())[0], 1);
  std::vector<fs::path> added;
  for (const auto& f : cached_files()) {
    if (before.count(f) || f.extension() != ".bin") continue;
    std::ifstream in(f, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (bytes.find(kernel) != std::string::npos) added.push_back(f);
  }
  ASSERT_EQ(added.size(), 1u) << "one new cache entry";

  // Swap the cached code object for another kernel's: a cache hit now shows it.
  cl_program other = build("__kernel void other_kernel(__global int* v) { v[0] = 2; }");
  size_t size;
  ASSERT_EQ(clGetProgramInfo(other, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr), CL_SUCCESS);
  std::vector<unsigned char> bytes(size);
  unsigned char* ptr = bytes.data();
  ASSERT_EQ(clGetProgramInfo(other, CL_PROGRAM_BINARIES, sizeof ptr, &ptr, nullptr), CL_SUCCESS);
  std::ofstream(added[0], std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(size));
  cl_program hit = build(src.c_str(), options.c_str());
  char names[64];
  ASSERT_EQ(clGetProgramInfo(hit, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, nullptr), CL_SUCCESS);
  EXPECT_STREQ(names, "other_kernel");

  // Editing the included header invalidates the entry: the real kernel is compiled again.
  std::ofstream(dir / "which.h") << "#define WHICH 3\n";
  EXPECT_EQ(run_kernel(build(src.c_str(), options.c_str()), kernel.c_str())[0], 3);

  // The entry is unique to this run: leave the cache as it was.
  for (const char* ext : {".bin", ".deps", ".log"}) fs::remove(fs::path(added[0]).replace_extension(ext));
  fs::remove_all(dir);
}

TEST_F(Build, SeparatelyCompiledProgramsLinkIntoOneExecutableOrALibrary) {
  cl_int err;
  const char* header_src = "int helper(int x);\n";
  const char* lib_src = "int helper(int x) { return 3 * x + 1; }";
  const char* main_src = "#include \"helper.h\"\n__kernel void k(__global int* v) { v[get_global_id(0)] = helper((int)get_global_id(0)); }";
  cl_program header = clCreateProgramWithSource(context_, 1, &header_src, nullptr, &err);
  cl_program lib = clCreateProgramWithSource(context_, 1, &lib_src, nullptr, &err);
  cl_program main_prog = clCreateProgramWithSource(context_, 1, &main_src, nullptr, &err);
  for (cl_program p : {header, lib, main_prog}) programs_.push_back(p);
  const char* names[] = {"helper.h"};
  ASSERT_EQ(clCompileProgram(main_prog, 1, &device_, nullptr, 1, &header, names, nullptr, nullptr), CL_SUCCESS)
      << build_log(main_prog);
  ASSERT_EQ(clCompileProgram(lib, 1, &device_, nullptr, 0, nullptr, nullptr, nullptr, nullptr), CL_SUCCESS);
  cl_program_binary_type type;
  ASSERT_EQ(clGetProgramBuildInfo(lib, device_, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, nullptr), CL_SUCCESS);
  EXPECT_EQ(type, cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT));

  cl_program inputs[] = {main_prog, lib};
  cl_program exe = clLinkProgram(context_, 1, &device_, nullptr, 2, inputs, nullptr, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  programs_.push_back(exe);
  EXPECT_EQ(run_kernel(exe, "k")[10], 31);

  cl_program library = clLinkProgram(context_, 1, &device_, "-create-library", 1, &lib, nullptr, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  programs_.push_back(library);
  ASSERT_EQ(clGetProgramBuildInfo(library, device_, CL_PROGRAM_BINARY_TYPE, sizeof type, &type, nullptr), CL_SUCCESS);
  EXPECT_EQ(type, cl_program_binary_type(CL_PROGRAM_BINARY_TYPE_LIBRARY));
  cl_program with_lib[] = {main_prog, library};
  cl_program exe2 = clLinkProgram(context_, 1, &device_, nullptr, 2, with_lib, nullptr, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  programs_.push_back(exe2);
  EXPECT_EQ(run_kernel(exe2, "k")[2], 7);

  // Linking without the definition fails with the linker's message.
  cl_program alone = clLinkProgram(context_, 1, &device_, nullptr, 1, &main_prog, nullptr, nullptr, &err);
  EXPECT_EQ(err, CL_LINK_PROGRAM_FAILURE);
  ASSERT_NE(alone, nullptr);
  programs_.push_back(alone);
  EXPECT_THAT(build_log(alone), HasSubstr("undefined hidden symbol: helper"));
}

TEST_F(Build, BinariesAreGfx803CodeObjectsThatLoadBack) {
  cl_program p = build("__kernel void a(__global int* v) { v[0] = 1; }\n__kernel void b(__global int* v) { v[0] = 2; }");
  size_t size;
  ASSERT_EQ(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr), CL_SUCCESS);
  std::vector<unsigned char> bytes(size);
  unsigned char* ptr = bytes.data();
  ASSERT_EQ(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof ptr, &ptr, nullptr), CL_SUCCESS);
  ASSERT_GT(size, 64u);
  EXPECT_EQ(std::string(bytes.begin() + 1, bytes.begin() + 4), "ELF");
  EXPECT_EQ(bytes[18], 224);  // e_machine EM_AMDGPU
  cl_int status, err;
  const unsigned char* bins[] = {bytes.data()};
  cl_program back = clCreateProgramWithBinary(context_, 1, &device_, &size, bins, &status, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  programs_.push_back(back);
  ASSERT_EQ(clBuildProgram(back, 1, &device_, nullptr, nullptr, nullptr), CL_SUCCESS);
  size_t n;
  ASSERT_EQ(clGetProgramInfo(back, CL_PROGRAM_NUM_KERNELS, sizeof n, &n, nullptr), CL_SUCCESS);
  EXPECT_EQ(n, 2u);
  EXPECT_EQ(run_kernel(back, "b")[0], 2);
}

}  // namespace
}  // namespace strobe::opencl_test
