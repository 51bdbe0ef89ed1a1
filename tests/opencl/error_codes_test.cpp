// Misuse of the API gets the error code the OpenCL 1.2 specification names, never a crash.
#include <CL/cl.h>

#include <cstring>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "opencl/opencl_test_support.h"

namespace strobe::opencl_test {
namespace {

constexpr const char* kSource = R"(
__kernel void scale(__global float* v, float s, __local float* scratch) {
  scratch[get_local_id(0)] = v[get_global_id(0)];
  v[get_global_id(0)] = scratch[get_local_id(0)] * s;
}
__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void fixed(__global int* v) { v[get_global_id(0)] = 1; }
__kernel void big_lds(__global int* v, __local int* dyn) {
  __local int table[2048];
  table[get_local_id(0)] = v[0];
  dyn[0] = table[0];
  v[get_global_id(0)] = dyn[0];
}
)";

class ErrorCodes : public ClTest {
 protected:
  void SetUp() override {
    ClTest::SetUp();
    prog_ = build(kSource);
    scale_ = kernel(prog_, "scale");
    buf_ = buffer(1024 * sizeof(float));
  }
  /// Sets all of `scale`'s arguments validly.
  void set_scale_args() {
    float s = 2.0f;
    ASSERT_EQ(clSetKernelArg(scale_, 0, sizeof buf_, &buf_), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(scale_, 1, sizeof s, &s), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(scale_, 2, 256 * sizeof(float), nullptr), CL_SUCCESS);
  }
  cl_int launch(cl_kernel k, cl_uint dims, const size_t* global, const size_t* local) {
    return clEnqueueNDRangeKernel(queue_, k, dims, nullptr, global, local, 0, nullptr, nullptr);
  }
  cl_program prog_ = nullptr;
  cl_kernel scale_ = nullptr;
  cl_mem buf_ = nullptr;
};

TEST_F(ErrorCodes, HandlesOfTheWrongTypeAreRejected) {
  // The loader dispatches through the object, so a mistyped handle reaches strobe's checks.
  EXPECT_EQ(clReleaseMemObject(reinterpret_cast<cl_mem>(scale_)), CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clRetainKernel(reinterpret_cast<cl_kernel>(buf_)), CL_INVALID_KERNEL);
  EXPECT_EQ(clFinish(reinterpret_cast<cl_command_queue>(context_)), CL_INVALID_COMMAND_QUEUE);
  cl_uint refs;
  EXPECT_EQ(clGetContextInfo(reinterpret_cast<cl_context>(queue_), CL_CONTEXT_REFERENCE_COUNT, sizeof refs, &refs,
                             nullptr),
            CL_INVALID_CONTEXT);
  cl_mem not_a_buffer = reinterpret_cast<cl_mem>(prog_);
  EXPECT_EQ(clSetKernelArg(scale_, 0, sizeof not_a_buffer, &not_a_buffer), CL_INVALID_MEM_OBJECT);
  // B19 of the probe: a garbage handle, no object at all, is refused too (never dereferenced).
  for (uintptr_t garbage : {uintptr_t(0x1234), uintptr_t(0xdeadbeefcafe), ~uintptr_t(0)}) {
    cl_mem g = reinterpret_cast<cl_mem>(garbage);
    EXPECT_EQ(clSetKernelArg(scale_, 0, sizeof g, &g), CL_INVALID_MEM_OBJECT) << garbage;
  }
  EXPECT_EQ(clGetDeviceInfo(nullptr, CL_DEVICE_NAME, 0, nullptr, nullptr), CL_INVALID_DEVICE);
}

TEST_F(ErrorCodes, QueriesCheckParamSizesAndNames) {
  char small[4];
  EXPECT_EQ(clGetDeviceInfo(device_, CL_DEVICE_NAME, sizeof small, small, nullptr), CL_INVALID_VALUE);
  cl_uint v;
  EXPECT_EQ(clGetDeviceInfo(device_, 0x7fff, sizeof v, &v, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetPlatformInfo(platform_, 0x7fff, 0, nullptr, nullptr), CL_INVALID_VALUE);
  size_t size = 0;
  EXPECT_EQ(clGetDeviceInfo(device_, CL_DEVICE_NAME, 0, nullptr, &size), CL_SUCCESS);
  EXPECT_GT(size, 1u);
}

TEST_F(ErrorCodes, BufferCreationChecksSizeFlagsAndHostPointer) {
  cl_int err;
  int host[4] = {};
  EXPECT_EQ(clCreateBuffer(context_, CL_MEM_READ_WRITE, 0, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_BUFFER_SIZE);
  cl_ulong max_alloc;
  ASSERT_EQ(clGetDeviceInfo(device_, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, nullptr), CL_SUCCESS);
  EXPECT_EQ(clCreateBuffer(context_, CL_MEM_READ_WRITE, max_alloc + 1, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_BUFFER_SIZE);
  EXPECT_EQ(clCreateBuffer(context_, CL_MEM_USE_HOST_PTR, sizeof host, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_HOST_PTR);
  EXPECT_EQ(clCreateBuffer(context_, CL_MEM_READ_WRITE, sizeof host, host, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_HOST_PTR);
  EXPECT_EQ(clCreateBuffer(context_, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, sizeof host, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateBuffer(context_, CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, sizeof host, host, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
}

TEST_F(ErrorCodes, SubBuffersMustBeAlignedInRangeAndNotNested) {
  cl_int err;
  cl_buffer_region misaligned{4, 64}, outside{0, 8192}, ok{256, 256};
  EXPECT_EQ(clCreateSubBuffer(buf_, 0, CL_BUFFER_CREATE_TYPE_REGION, &misaligned, &err), nullptr);
  EXPECT_EQ(err, CL_MISALIGNED_SUB_BUFFER_OFFSET);
  EXPECT_EQ(clCreateSubBuffer(buf_, 0, CL_BUFFER_CREATE_TYPE_REGION, &outside, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  cl_mem sub = clCreateSubBuffer(buf_, 0, CL_BUFFER_CREATE_TYPE_REGION, &ok, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_buffer_region inner{0, 16};
  EXPECT_EQ(clCreateSubBuffer(sub, 0, CL_BUFFER_CREATE_TYPE_REGION, &inner, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clReleaseMemObject(sub), CL_SUCCESS);
}

TEST_F(ErrorCodes, TransfersOutsideTheBufferOrWithoutAPointerAreInvalid) {
  std::vector<float> host(2048);
  EXPECT_EQ(clEnqueueReadBuffer(queue_, buf_, CL_TRUE, 0, 2048 * sizeof(float), host.data(), 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueReadBuffer(queue_, buf_, CL_TRUE, 4096, 4, host.data(), 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueWriteBuffer(queue_, buf_, CL_TRUE, 0, 16, nullptr, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueCopyBuffer(queue_, buf_, buf_, 0, 64, 128, 0, nullptr, nullptr), CL_MEM_COPY_OVERLAP);
  int pattern = 0;
  EXPECT_EQ(clEnqueueFillBuffer(queue_, buf_, &pattern, 3, 0, 12, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueFillBuffer(queue_, buf_, &pattern, 4, 2, 12, 0, nullptr, nullptr), CL_INVALID_VALUE);
  int x = 0;
  EXPECT_EQ(clEnqueueUnmapMemObject(queue_, buf_, &x, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueReadBuffer(queue_, buf_, CL_TRUE, 0, 4, host.data(), 1, nullptr, nullptr),
            CL_INVALID_EVENT_WAIT_LIST);
}

TEST_F(ErrorCodes, HostAccessFlagsAreEnforced) {
  cl_int err;
  cl_mem no_access = clCreateBuffer(context_, CL_MEM_READ_WRITE | CL_MEM_HOST_NO_ACCESS, 64, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  char host[64];
  EXPECT_EQ(clEnqueueReadBuffer(queue_, no_access, CL_TRUE, 0, 64, host, 0, nullptr, nullptr), CL_INVALID_OPERATION);
  EXPECT_EQ(clEnqueueWriteBuffer(queue_, no_access, CL_TRUE, 0, 64, host, 0, nullptr, nullptr), CL_INVALID_OPERATION);
  EXPECT_EQ(clEnqueueMapBuffer(queue_, no_access, CL_TRUE, CL_MAP_READ, 0, 64, 0, nullptr, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_OPERATION);
  clReleaseMemObject(no_access);
}

TEST_F(ErrorCodes, KernelArgumentsAreCheckedByIndexSizeAndKind) {
  float s = 1;
  double d = 1;
  EXPECT_EQ(clSetKernelArg(scale_, 3, sizeof s, &s), CL_INVALID_ARG_INDEX);
  EXPECT_EQ(clSetKernelArg(scale_, 1, sizeof d, &d), CL_INVALID_ARG_SIZE);
  EXPECT_EQ(clSetKernelArg(scale_, 1, sizeof s, nullptr), CL_INVALID_ARG_VALUE);
  EXPECT_EQ(clSetKernelArg(scale_, 0, 4, &buf_), CL_INVALID_ARG_SIZE);
  EXPECT_EQ(clSetKernelArg(scale_, 2, 64, &s), CL_INVALID_ARG_VALUE);
  EXPECT_EQ(clSetKernelArg(scale_, 2, 0, nullptr), CL_INVALID_ARG_SIZE);
}

TEST_F(ErrorCodes, EnqueueingWithUnsetArgumentsIsInvalidKernelArgs) {
  size_t global = 256, local = 64;
  ASSERT_EQ(clSetKernelArg(scale_, 0, sizeof buf_, &buf_), CL_SUCCESS);
  EXPECT_EQ(launch(scale_, 1, &global, &local), CL_INVALID_KERNEL_ARGS);
}

TEST_F(ErrorCodes, LaunchGeometryFollowsOpenCL12) {
  set_scale_args();
  size_t global = 1000, local = 64;
  EXPECT_EQ(launch(scale_, 1, &global, &local), CL_INVALID_WORK_GROUP_SIZE);  // 64 does not divide 1000
  size_t g1 = 1024, too_wide = 512;
  EXPECT_EQ(launch(scale_, 1, &g1, &too_wide), CL_INVALID_WORK_ITEM_SIZE);
  size_t g2[2] = {64, 64}, l2[2] = {32, 16};
  EXPECT_EQ(launch(scale_, 2, g2, l2), CL_INVALID_WORK_GROUP_SIZE);  // 512 work-items
  EXPECT_EQ(launch(scale_, 0, &g1, nullptr), CL_INVALID_WORK_DIMENSION);
  EXPECT_EQ(launch(scale_, 4, &g1, nullptr), CL_INVALID_WORK_DIMENSION);
  EXPECT_EQ(launch(scale_, 1, nullptr, nullptr), CL_INVALID_VALUE);
  size_t zero = 0;
  EXPECT_EQ(launch(scale_, 1, &zero, nullptr), CL_INVALID_GLOBAL_WORK_SIZE);
  size_t huge = size_t(1) << 33;
  EXPECT_EQ(launch(scale_, 1, &huge, nullptr), CL_INVALID_GLOBAL_WORK_SIZE);
  size_t offset = SIZE_MAX - 10;
  EXPECT_EQ(clEnqueueNDRangeKernel(queue_, scale_, 1, &offset, &g1, nullptr, 0, nullptr, nullptr),
            CL_INVALID_GLOBAL_OFFSET);
}

TEST_F(ErrorCodes, ReqdWorkGroupSizeMustBeMatched) {
  cl_kernel fixed = kernel(prog_, "fixed");
  ASSERT_EQ(clSetKernelArg(fixed, 0, sizeof buf_, &buf_), CL_SUCCESS);
  size_t global = 256, local = 128, right = 64;
  EXPECT_EQ(launch(fixed, 1, &global, &local), CL_INVALID_WORK_GROUP_SIZE);
  EXPECT_EQ(launch(fixed, 1, &global, &right), CL_SUCCESS);
  EXPECT_EQ(launch(fixed, 1, &global, nullptr), CL_SUCCESS);  // the required size is used
}

TEST_F(ErrorCodes, TooMuchLocalMemoryIsOutOfResources) {
  cl_kernel k = kernel(prog_, "big_lds");
  ASSERT_EQ(clSetKernelArg(k, 0, sizeof buf_, &buf_), CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(k, 1, 60 * 1024, nullptr), CL_SUCCESS);  // + 8 KiB static > 64 KiB
  size_t global = 64, local = 64;
  EXPECT_EQ(launch(k, 1, &global, &local), CL_OUT_OF_RESOURCES);
  cl_ulong used;
  ASSERT_EQ(clGetKernelWorkGroupInfo(k, device_, CL_KERNEL_LOCAL_MEM_SIZE, sizeof used, &used, nullptr), CL_SUCCESS);
  EXPECT_EQ(used, 8192u + 60 * 1024);
}

TEST_F(ErrorCodes, KernelsNeedABuiltProgramAndAnExistingName) {
  cl_int err;
  EXPECT_EQ(clCreateKernel(prog_, "no_such_kernel", &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_KERNEL_NAME);
  const char* src = "__kernel void k(__global int* v) { v[0] = 1; }";
  cl_program unbuilt = clCreateProgramWithSource(context_, 1, &src, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(clCreateKernel(unbuilt, "k", &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_PROGRAM_EXECUTABLE);
  size_t n;
  EXPECT_EQ(clGetProgramInfo(unbuilt, CL_PROGRAM_NUM_KERNELS, sizeof n, &n, nullptr), CL_INVALID_PROGRAM_EXECUTABLE);
  clReleaseProgram(unbuilt);
  // A program with kernels attached cannot be rebuilt.
  EXPECT_EQ(clBuildProgram(prog_, 1, &device_, nullptr, nullptr, nullptr), CL_INVALID_OPERATION);
}

TEST_F(ErrorCodes, UnsupportedBuildOptionsFailWithALog) {
  cl_int err;
  const char* src = "__kernel void k(__global int* v) { v[0] = 1; }";
  cl_program p = clCreateProgramWithSource(context_, 1, &src, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(clBuildProgram(p, 1, &device_, "-o /tmp/elsewhere", nullptr, nullptr), CL_INVALID_BUILD_OPTIONS);
  EXPECT_THAT(build_log(p), ::testing::HasSubstr("unsupported build option '-o'"));
  EXPECT_EQ(clBuildProgram(p, 1, &device_, "-cl-no-such-option", nullptr, nullptr), CL_INVALID_BUILD_OPTIONS);
  EXPECT_THAT(build_log(p), ::testing::HasSubstr("-cl-no-such-option"));
  EXPECT_EQ(clBuildProgram(p, 1, &device_, "-DX=\"unterminated", nullptr, nullptr), CL_INVALID_BUILD_OPTIONS);
  cl_build_status status;
  ASSERT_EQ(clGetProgramBuildInfo(p, device_, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, nullptr), CL_SUCCESS);
  EXPECT_EQ(status, CL_BUILD_ERROR);
  clReleaseProgram(p);
}

TEST_F(ErrorCodes, EmbeddedHeaderNamesMustStayRelative) {
  cl_int err;
  const char* hdr = "#define X 1\n";
  const char* src = "#include \"x.h\"\n__kernel void k(__global int* v) { v[0] = X; }";
  cl_program header = clCreateProgramWithSource(context_, 1, &hdr, nullptr, &err);
  cl_program p = clCreateProgramWithSource(context_, 1, &src, nullptr, &err);
  for (const char* name : {"/etc/x.h", "../x.h", "a/../../x.h"})
    EXPECT_EQ(clCompileProgram(p, 1, &device_, nullptr, 1, &header, &name, nullptr, nullptr), CL_INVALID_VALUE) << name;
  clReleaseProgram(header);
  clReleaseProgram(p);
}

TEST_F(ErrorCodes, GarbageBinariesAreInvalidBinary) {
  const unsigned char junk[] = "definitely not a code object";
  const unsigned char* bins[] = {junk};
  size_t len = sizeof junk;
  cl_int status = 0, err;
  EXPECT_EQ(clCreateProgramWithBinary(context_, 1, &device_, &len, bins, &status, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_BINARY);
  EXPECT_EQ(status, CL_INVALID_BINARY);
}

TEST_F(ErrorCodes, UserEventsAndProfilingFollowTheirRules) {
  cl_int err;
  cl_event user = clCreateUserEvent(context_, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(clSetUserEventStatus(user, CL_RUNNING), CL_INVALID_VALUE);
  cl_ulong t;
  EXPECT_EQ(clGetEventProfilingInfo(user, CL_PROFILING_COMMAND_START, sizeof t, &t, nullptr),
            CL_PROFILING_INFO_NOT_AVAILABLE);
  EXPECT_EQ(clSetUserEventStatus(user, CL_COMPLETE), CL_SUCCESS);
  EXPECT_EQ(clSetUserEventStatus(user, CL_COMPLETE), CL_INVALID_OPERATION);
  cl_event marker;
  ASSERT_EQ(clEnqueueMarkerWithWaitList(queue_, 0, nullptr, &marker), CL_SUCCESS);
  EXPECT_EQ(clSetUserEventStatus(marker, CL_COMPLETE), CL_INVALID_EVENT);
  cl_command_queue plain = clCreateCommandQueue(context_, device_, 0, &err);
  cl_event unprofiled;
  ASSERT_EQ(clEnqueueMarkerWithWaitList(plain, 0, nullptr, &unprofiled), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &unprofiled), CL_SUCCESS);
  EXPECT_EQ(clGetEventProfilingInfo(unprofiled, CL_PROFILING_COMMAND_END, sizeof t, &t, nullptr),
            CL_PROFILING_INFO_NOT_AVAILABLE);
  EXPECT_EQ(clSetEventCallback(marker, CL_QUEUED, [](cl_event, cl_int, void*) {}, nullptr), CL_INVALID_VALUE);
  clReleaseEvent(user);
  clReleaseEvent(marker);
  clReleaseEvent(unprofiled);
  clReleaseCommandQueue(plain);
}

TEST_F(ErrorCodes, ContextsAndQueuesRejectUnknownPropertiesAndDevices) {
  cl_int err;
  cl_context_properties bad_platform[] = {CL_CONTEXT_PLATFORM, cl_context_properties(0x1234), 0};
  EXPECT_EQ(clCreateContext(bad_platform, 1, &device_, nullptr, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_PLATFORM);
  EXPECT_EQ(clCreateContext(nullptr, 0, nullptr, nullptr, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateCommandQueue(context_, device_, cl_command_queue_properties(1) << 20, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  cl_device_id cpu;
  EXPECT_EQ(clGetDeviceIDs(platform_, CL_DEVICE_TYPE_CPU, 1, &cpu, nullptr), CL_DEVICE_NOT_FOUND);
}

TEST_F(ErrorCodes, ArgumentInfoNeedsTheKernelArgInfoOptionForNames) {
  char name[64];
  EXPECT_EQ(clGetKernelArgInfo(scale_, 0, CL_KERNEL_ARG_NAME, sizeof name, name, nullptr), CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
  EXPECT_EQ(clGetKernelArgInfo(scale_, 7, CL_KERNEL_ARG_TYPE_NAME, sizeof name, name, nullptr), CL_INVALID_ARG_INDEX);
  ASSERT_EQ(clGetKernelArgInfo(scale_, 0, CL_KERNEL_ARG_TYPE_NAME, sizeof name, name, nullptr), CL_SUCCESS);
  EXPECT_STREQ(name, "float*");
}

TEST_F(ErrorCodes, UnsupportedFeaturesSayInvalidOperation) {
  EXPECT_EQ(clEnqueueNativeKernel(queue_, [](void*) {}, nullptr, 0, 0, nullptr, nullptr, 0, nullptr, nullptr),
            CL_INVALID_OPERATION);
  size_t origin[3] = {0, 0, 0}, region[3] = {1, 1, 1};
  char px[4];
  EXPECT_EQ(clEnqueueReadImage(queue_, buf_, CL_TRUE, origin, region, 0, 0, px, 0, nullptr, nullptr),
            CL_INVALID_OPERATION);
  cl_int err;
  cl_image_format fmt{CL_RGBA, CL_UNORM_INT8};
  cl_image_desc desc{};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = desc.image_height = 4;
  EXPECT_EQ(clCreateImage(context_, CL_MEM_READ_ONLY, &fmt, &desc, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_OPERATION);
}

}  // namespace
}  // namespace strobe::opencl_test
