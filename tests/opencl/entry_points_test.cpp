// Every OpenCL entry point strobe exports, called straight into strobe's library (not through the
// ICD loader, which checks a null handle itself and dereferences any other to dispatch) with a
// null handle and with a bogus one: each returns, or sets through errcode_ret, the error code the
// OpenCL specification names for that handle, and never crashes.
// The library exports OpenCL 3.0's entry points, the deprecated ones included; declare them all.
#undef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <dlfcn.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "opencl/opencl_test_support.h"

namespace strobe::opencl_test {
namespace {

/// strobe's OpenCL library, opened on its own (RTLD_LOCAL: its symbols shadow nobody's).
void* library() {
  static void* lib = [] {
    use_strobe_icd();
    std::ifstream icd(std::string(STROBE_OPENCL_VENDORS_DIR) + "/strobe.icd");
    std::string path;
    std::getline(icd, path);
    return dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  }();
  return lib;
}

/// Entry point `name` of strobe's library as a function of type F (null when not exported).
template <typename F>
F* entry(const char* name) {
  return reinterpret_cast<F*>(dlsym(library(), name));
}
#define CL(fn) entry<decltype(::fn)>(#fn)

/// One entry point's check: called with `bad` as its handle, what it must say.
struct Case {
  const char* name;
  cl_int expected;
  std::function<cl_int(void* bad)> call;  ///< the code returned, or set through errcode_ret
  /// A null handle is the specification's way to ask for the default (a null platform is
  /// "implementation-defined", strobe's own): only bogus ones are refused.
  bool null_is_default = false;
};

/// A creator's code through errcode_ret; its result must be null.
template <typename T>
cl_int through(T result, cl_int err) {
  EXPECT_EQ(result, nullptr);
  return err;
}

std::vector<Case> cases() {
  static char data[64];
  static size_t origin[3] = {0, 0, 0}, region[3] = {1, 1, 1}, global[1] = {64};
  static const char* source = "__kernel void k() {}";
  static const unsigned char* binary = reinterpret_cast<const unsigned char*>(data);
  static size_t length = 1;
  static cl_image_format format{CL_RGBA, CL_FLOAT};
  static cl_image_desc desc{CL_MEM_OBJECT_IMAGE2D, 4, 4, 1, 1, 0, 0, 0, 0, {nullptr}};
  const auto P = [](void* h) { return static_cast<cl_platform_id>(h); };
  const auto D = [](void* h) { return static_cast<cl_device_id>(h); };
  const auto C = [](void* h) { return static_cast<cl_context>(h); };
  const auto Q = [](void* h) { return static_cast<cl_command_queue>(h); };
  const auto M = [](void* h) { return static_cast<cl_mem>(h); };
  const auto G = [](void* h) { return static_cast<cl_program>(h); };
  const auto K = [](void* h) { return static_cast<cl_kernel>(h); };
  const auto E = [](void* h) { return static_cast<cl_event>(h); };
  // A creator's errcode_ret; each case sets it to CL_SUCCESS first, so that a creator that forgot
  // to write it cannot pass on an earlier case's code.
  cl_int e = 0;
  std::vector<Case> v = {
      // Platforms and devices.
      {"clGetDeviceIDs", CL_INVALID_PLATFORM,
       [=](void* h) { cl_uint n; return CL(clGetDeviceIDs)(P(h), CL_DEVICE_TYPE_ALL, 0, nullptr, &n); }, true},
      {"clGetDeviceInfo", CL_INVALID_DEVICE,
       [=](void* h) { return CL(clGetDeviceInfo)(D(h), CL_DEVICE_NAME, sizeof data, data, nullptr); }},
      {"clRetainDevice", CL_INVALID_DEVICE, [=](void* h) { return CL(clRetainDevice)(D(h)); }},
      {"clReleaseDevice", CL_INVALID_DEVICE, [=](void* h) { return CL(clReleaseDevice)(D(h)); }},
      {"clCreateSubDevices", CL_INVALID_DEVICE, [=](void* h) {
         const cl_device_partition_property p[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
         cl_uint n;
         return CL(clCreateSubDevices)(D(h), p, 0, nullptr, &n);
       }},
      {"clCreateContext", CL_INVALID_DEVICE, [=](void* h) mutable {
         cl_device_id d = D(h);
         e = CL_SUCCESS;
         const auto r = CL(clCreateContext)(nullptr, 1, &d, nullptr, nullptr, &e);
         return through(r, e);
       }},
      // Contexts.
      {"clRetainContext", CL_INVALID_CONTEXT, [=](void* h) { return CL(clRetainContext)(C(h)); }},
      {"clReleaseContext", CL_INVALID_CONTEXT, [=](void* h) { return CL(clReleaseContext)(C(h)); }},
      {"clGetContextInfo", CL_INVALID_CONTEXT,
       [=](void* h) { return CL(clGetContextInfo)(C(h), CL_CONTEXT_NUM_DEVICES, sizeof data, data, nullptr); }},
      {"clCreateCommandQueue", CL_INVALID_CONTEXT, [=](void* h) mutable {
         e = CL_SUCCESS;
         const auto r = CL(clCreateCommandQueue)(C(h), nullptr, 0, &e);
         return through(r, e);
       }},
      {"clCreateCommandQueueWithProperties", CL_INVALID_CONTEXT, [=](void* h) mutable {
         e = CL_SUCCESS;
         const auto r = CL(clCreateCommandQueueWithProperties)(C(h), nullptr, nullptr, &e);
         return through(r, e);
       }},
      {"clCreateBuffer", CL_INVALID_CONTEXT, [=](void* h) mutable {
         e = CL_SUCCESS;
         const auto r = CL(clCreateBuffer)(C(h), CL_MEM_READ_WRITE, 64, nullptr, &e);
         return through(r, e);
       }},
      {"clCreateBufferWithProperties", CL_INVALID_CONTEXT, [=](void* h) mutable {
         e = CL_SUCCESS;
         const auto r = CL(clCreateBufferWithProperties)(C(h), nullptr, CL_MEM_READ_WRITE, 64, nullptr, &e);
         return through(r, e);
       }},
      {"clCreateImage", CL_INVALID_CONTEXT, [=](void* h) mutable {
         e = CL_SUCCESS;
         const auto r = CL(clCreateImage)(C(h), CL_MEM_READ_WRITE, &format, &desc, nullptr, &e);
         return through(r, e);
       }},
      {"clCreateImageWithProperties", CL_INVALID_CONTEXT, [=](void* h) mutable {
         e = CL_SUCCESS;
         const auto r = CL(clCreateImageWithProperties)(C(h), nullptr, CL_MEM_READ_WRITE, &format, &desc, nullptr, &e);
         return through(r, e);
       }},
      {"clCreateImage2D", CL_INVALID_CONTEXT, [=](void* h) mutable {
         e = CL_SUCCESS;
         const auto r = CL(clCreateImage2D)(C(h), CL_MEM_READ_WRITE, &format, 4, 4, 0, nullptr, &e);
         return through(r, e);
       }},
      {"clCreateImage3D", CL_INVALID_CONTEXT, [=](void* h) mutable {
         e = CL_SUCCESS;
         const auto r = CL(clCreateImage3D)(C(h), CL_MEM_READ_WRITE, &format, 4, 4, 4, 0, 0, nullptr, &e);
         return through(r, e);
       }},
      {"clGetSupportedImageFormats", CL_INVALID_CONTEXT, [=](void* h) {
         cl_uint n;
         return CL(clGetSupportedImageFormats)(C(h), CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, nullptr, &n);
       }},
      {"clCreateSampler", CL_INVALID_CONTEXT, [=](void* h) mutable {
         e = CL_SUCCESS;
         const auto r = CL(clCreateSampler)(C(h), CL_FALSE, CL_ADDRESS_NONE, CL_FILTER_NEAREST, &e);
         return through(r, e);
       }},
      {"clCreateSamplerWithProperties", CL_INVALID_CONTEXT, [=](void* h) mutable {
         e = CL_SUCCESS;
         const auto r = CL(clCreateSamplerWithProperties)(C(h), nullptr, &e);
         return through(r, e);
       }},
      {"clCreateProgramWithSource", CL_INVALID_CONTEXT, [=](void* h) mutable {
         e = CL_SUCCESS;
         const auto r = CL(clCreateProgramWithSource)(C(h), 1, &source, nullptr, &e);
         return through(r, e);
       }},
      {"clCreateProgramWithBinary", CL_INVALID_CONTEXT, [=](void* h) mutable {
         cl_device_id d = nullptr;
         e = CL_SUCCESS;
         const auto r = CL(clCreateProgramWithBinary)(C(h), 1, &d, &length, &binary, nullptr, &e);
         return through(r, e);
       }},
      {"clCreateProgramWithBuiltInKernels", CL_INVALID_CONTEXT, [=](void* h) mutable {
         cl_device_id d = nullptr;
         e = CL_SUCCESS;
         const auto r = CL(clCreateProgramWithBuiltInKernels)(C(h), 1, &d, "k", &e);
         return through(r, e);
       }},
      {"clCreateProgramWithIL", CL_INVALID_CONTEXT, [=](void* h) mutable {
         e = CL_SUCCESS;
         const auto r = CL(clCreateProgramWithIL)(C(h), data, sizeof data, &e);
         return through(r, e);
       }},
      {"clLinkProgram", CL_INVALID_CONTEXT, [=](void* h) mutable {
         cl_program p = nullptr;
         e = CL_SUCCESS;
         const auto r = CL(clLinkProgram)(C(h), 0, nullptr, nullptr, 1, &p, nullptr, nullptr, &e);
         return through(r, e);
       }},
      {"clCreateUserEvent", CL_INVALID_CONTEXT, [=](void* h) mutable {
         e = CL_SUCCESS;
         const auto r = CL(clCreateUserEvent)(C(h), &e);
         return through(r, e);
       }},
      // Command queues and every command.
      {"clRetainCommandQueue", CL_INVALID_COMMAND_QUEUE, [=](void* h) { return CL(clRetainCommandQueue)(Q(h)); }},
      {"clReleaseCommandQueue", CL_INVALID_COMMAND_QUEUE, [=](void* h) { return CL(clReleaseCommandQueue)(Q(h)); }},
      {"clGetCommandQueueInfo", CL_INVALID_COMMAND_QUEUE, [=](void* h) {
         return CL(clGetCommandQueueInfo)(Q(h), CL_QUEUE_REFERENCE_COUNT, sizeof data, data, nullptr);
       }},
      {"clSetCommandQueueProperty", CL_INVALID_COMMAND_QUEUE, [=](void* h) {
         return CL(clSetCommandQueueProperty)(Q(h), CL_QUEUE_PROFILING_ENABLE, CL_TRUE, nullptr);
       }},
      {"clFlush", CL_INVALID_COMMAND_QUEUE, [=](void* h) { return CL(clFlush)(Q(h)); }},
      {"clFinish", CL_INVALID_COMMAND_QUEUE, [=](void* h) { return CL(clFinish)(Q(h)); }},
      {"clEnqueueReadBuffer", CL_INVALID_COMMAND_QUEUE, [=](void* h) {
         return CL(clEnqueueReadBuffer)(Q(h), nullptr, CL_TRUE, 0, 4, data, 0, nullptr, nullptr);
       }},
      {"clEnqueueWriteBuffer", CL_INVALID_COMMAND_QUEUE, [=](void* h) {
         return CL(clEnqueueWriteBuffer)(Q(h), nullptr, CL_TRUE, 0, 4, data, 0, nullptr, nullptr);
       }},
      {"clEnqueueReadBufferRect", CL_INVALID_COMMAND_QUEUE, [=](void* h) {
         return CL(clEnqueueReadBufferRect)(Q(h), nullptr, CL_TRUE, origin, origin, region, 0, 0, 0, 0, data, 0,
                                            nullptr, nullptr);
       }},
      {"clEnqueueWriteBufferRect", CL_INVALID_COMMAND_QUEUE, [=](void* h) {
         return CL(clEnqueueWriteBufferRect)(Q(h), nullptr, CL_TRUE, origin, origin, region, 0, 0, 0, 0, data, 0,
                                             nullptr, nullptr);
       }},
      {"clEnqueueCopyBuffer", CL_INVALID_COMMAND_QUEUE, [=](void* h) {
         return CL(clEnqueueCopyBuffer)(Q(h), nullptr, nullptr, 0, 0, 4, 0, nullptr, nullptr);
       }},
      {"clEnqueueCopyBufferRect", CL_INVALID_COMMAND_QUEUE, [=](void* h) {
         return CL(clEnqueueCopyBufferRect)(Q(h), nullptr, nullptr, origin, origin, region, 0, 0, 0, 0, 0, nullptr,
                                            nullptr);
       }},
      {"clEnqueueFillBuffer", CL_INVALID_COMMAND_QUEUE, [=](void* h) {
         return CL(clEnqueueFillBuffer)(Q(h), nullptr, data, 4, 0, 4, 0, nullptr, nullptr);
       }},
      {"clEnqueueMapBuffer", CL_INVALID_COMMAND_QUEUE, [=](void* h) mutable {
         e = CL_SUCCESS;
         const auto r = CL(clEnqueueMapBuffer)(Q(h), nullptr, CL_TRUE, CL_MAP_READ, 0, 4, 0, nullptr, nullptr, &e);
         return through(r, e);
       }},
      {"clEnqueueUnmapMemObject", CL_INVALID_COMMAND_QUEUE, [=](void* h) {
         return CL(clEnqueueUnmapMemObject)(Q(h), nullptr, data, 0, nullptr, nullptr);
       }},
      {"clEnqueueMigrateMemObjects", CL_INVALID_COMMAND_QUEUE, [=](void* h) {
         cl_mem m = nullptr;
         return CL(clEnqueueMigrateMemObjects)(Q(h), 1, &m, 0, 0, nullptr, nullptr);
       }},
      {"clEnqueueNDRangeKernel", CL_INVALID_COMMAND_QUEUE, [=](void* h) {
         return CL(clEnqueueNDRangeKernel)(Q(h), nullptr, 1, nullptr, global, nullptr, 0, nullptr, nullptr);
       }},
      {"clEnqueueTask", CL_INVALID_COMMAND_QUEUE,
       [=](void* h) { return CL(clEnqueueTask)(Q(h), nullptr, 0, nullptr, nullptr); }},
      {"clEnqueueNativeKernel", CL_INVALID_COMMAND_QUEUE, [=](void* h) {
         return CL(clEnqueueNativeKernel)(Q(h), [](void*) {}, nullptr, 0, 0, nullptr, nullptr, 0, nullptr, nullptr);
       }},
      {"clEnqueueMarker", CL_INVALID_COMMAND_QUEUE,
       [=](void* h) { cl_event ev; return CL(clEnqueueMarker)(Q(h), &ev); }},
      {"clEnqueueMarkerWithWaitList", CL_INVALID_COMMAND_QUEUE,
       [=](void* h) { return CL(clEnqueueMarkerWithWaitList)(Q(h), 0, nullptr, nullptr); }},
      {"clEnqueueBarrier", CL_INVALID_COMMAND_QUEUE, [=](void* h) { return CL(clEnqueueBarrier)(Q(h)); }},
      {"clEnqueueBarrierWithWaitList", CL_INVALID_COMMAND_QUEUE,
       [=](void* h) { return CL(clEnqueueBarrierWithWaitList)(Q(h), 0, nullptr, nullptr); }},
      {"clEnqueueWaitForEvents", CL_INVALID_COMMAND_QUEUE, [=](void* h) {
         cl_event ev = nullptr;
         return CL(clEnqueueWaitForEvents)(Q(h), 1, &ev);
       }},
      // Memory objects.
      {"clRetainMemObject", CL_INVALID_MEM_OBJECT, [=](void* h) { return CL(clRetainMemObject)(M(h)); }},
      {"clReleaseMemObject", CL_INVALID_MEM_OBJECT, [=](void* h) { return CL(clReleaseMemObject)(M(h)); }},
      {"clGetMemObjectInfo", CL_INVALID_MEM_OBJECT,
       [=](void* h) { return CL(clGetMemObjectInfo)(M(h), CL_MEM_SIZE, sizeof data, data, nullptr); }},
      {"clSetMemObjectDestructorCallback", CL_INVALID_MEM_OBJECT, [=](void* h) {
         return CL(clSetMemObjectDestructorCallback)(M(h), [](cl_mem, void*) {}, nullptr);
       }},
      {"clCreateSubBuffer", CL_INVALID_MEM_OBJECT, [=](void* h) mutable {
         cl_buffer_region region{0, 4};
         e = CL_SUCCESS;
         const auto r = CL(clCreateSubBuffer)(M(h), CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &e);
         return through(r, e);
       }},
      // Programs.
      {"clRetainProgram", CL_INVALID_PROGRAM, [=](void* h) { return CL(clRetainProgram)(G(h)); }},
      {"clReleaseProgram", CL_INVALID_PROGRAM, [=](void* h) { return CL(clReleaseProgram)(G(h)); }},
      {"clBuildProgram", CL_INVALID_PROGRAM,
       [=](void* h) { return CL(clBuildProgram)(G(h), 0, nullptr, nullptr, nullptr, nullptr); }},
      {"clCompileProgram", CL_INVALID_PROGRAM, [=](void* h) {
         return CL(clCompileProgram)(G(h), 0, nullptr, nullptr, 0, nullptr, nullptr, nullptr, nullptr);
       }},
      {"clUnloadPlatformCompiler", CL_INVALID_PLATFORM, [=](void* h) { return CL(clUnloadPlatformCompiler)(P(h)); },
       true},
      {"clGetProgramInfo", CL_INVALID_PROGRAM,
       [=](void* h) { return CL(clGetProgramInfo)(G(h), CL_PROGRAM_NUM_DEVICES, sizeof data, data, nullptr); }},
      {"clGetProgramBuildInfo", CL_INVALID_PROGRAM, [=](void* h) {
         return CL(clGetProgramBuildInfo)(G(h), nullptr, CL_PROGRAM_BUILD_STATUS, sizeof data, data, nullptr);
       }},
      {"clCreateKernel", CL_INVALID_PROGRAM,
       [=](void* h) mutable { e = CL_SUCCESS;
         const auto r = CL(clCreateKernel)(G(h), "k", &e);
         return through(r, e); }},
      {"clCreateKernelsInProgram", CL_INVALID_PROGRAM, [=](void* h) {
         cl_uint n;
         return CL(clCreateKernelsInProgram)(G(h), 0, nullptr, &n);
       }},
      // Kernels.
      {"clRetainKernel", CL_INVALID_KERNEL, [=](void* h) { return CL(clRetainKernel)(K(h)); }},
      {"clReleaseKernel", CL_INVALID_KERNEL, [=](void* h) { return CL(clReleaseKernel)(K(h)); }},
      {"clCloneKernel", CL_INVALID_KERNEL,
       [=](void* h) mutable { e = CL_SUCCESS;
         const auto r = CL(clCloneKernel)(K(h), &e);
         return through(r, e); }},
      {"clSetKernelArg", CL_INVALID_KERNEL, [=](void* h) { return CL(clSetKernelArg)(K(h), 0, 4, data); }},
      {"clGetKernelInfo", CL_INVALID_KERNEL,
       [=](void* h) { return CL(clGetKernelInfo)(K(h), CL_KERNEL_NUM_ARGS, sizeof data, data, nullptr); }},
      {"clGetKernelArgInfo", CL_INVALID_KERNEL, [=](void* h) {
         return CL(clGetKernelArgInfo)(K(h), 0, CL_KERNEL_ARG_NAME, sizeof data, data, nullptr);
       }},
      {"clGetKernelWorkGroupInfo", CL_INVALID_KERNEL, [=](void* h) {
         return CL(clGetKernelWorkGroupInfo)(K(h), nullptr, CL_KERNEL_WORK_GROUP_SIZE, sizeof data, data, nullptr);
       }},
      // Events.
      {"clWaitForEvents", CL_INVALID_EVENT, [=](void* h) {
         cl_event ev = E(h);
         return CL(clWaitForEvents)(1, &ev);
       }},
      {"clGetEventInfo", CL_INVALID_EVENT, [=](void* h) {
         return CL(clGetEventInfo)(E(h), CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof data, data, nullptr);
       }},
      {"clGetEventProfilingInfo", CL_INVALID_EVENT, [=](void* h) {
         return CL(clGetEventProfilingInfo)(E(h), CL_PROFILING_COMMAND_END, sizeof data, data, nullptr);
       }},
      {"clRetainEvent", CL_INVALID_EVENT, [=](void* h) { return CL(clRetainEvent)(E(h)); }},
      {"clReleaseEvent", CL_INVALID_EVENT, [=](void* h) { return CL(clReleaseEvent)(E(h)); }},
      {"clSetEventCallback", CL_INVALID_EVENT, [=](void* h) {
         return CL(clSetEventCallback)(E(h), CL_COMPLETE, [](cl_event, cl_int, void*) {}, nullptr);
       }},
      {"clSetUserEventStatus", CL_INVALID_EVENT,
       [=](void* h) { return CL(clSetUserEventStatus)(E(h), CL_COMPLETE); }},
  };
  return v;
}

TEST(EntryPoints, EveryHandleArgumentNullOrBogusGetsTheSpecifiedErrorCode) {
  ASSERT_NE(library(), nullptr) << dlerror();
  // Null, a pointer into nothing, all ones, and a real address that holds no OpenCL object.
  static int not_an_object[16] = {};
  for (void* bad : {static_cast<void*>(nullptr), reinterpret_cast<void*>(uintptr_t(0x1234)),
                    reinterpret_cast<void*>(~uintptr_t(0)), static_cast<void*>(not_an_object)}) {
    for (const Case& c : cases()) {
      if (bad == nullptr && c.null_is_default) continue;
      SCOPED_TRACE(::testing::Message() << c.name << " with handle " << bad);
      ASSERT_NE(dlsym(library(), c.name), nullptr) << "not exported";
      EXPECT_EQ(c.call(bad), c.expected);
    }
  }
}

TEST(EntryPoints, EveryExportedEntryPointIsCheckedHere) {
  // The entry points the platform itself answers without a handle, and those a case above covers.
  const std::vector<std::string> without_handle = {
      "clGetPlatformIDs", "clIcdGetPlatformIDsKHR", "clGetPlatformInfo", "clCreateContextFromType",
      "clGetExtensionFunctionAddress", "clGetExtensionFunctionAddressForPlatform", "clUnloadCompiler"};
  std::vector<std::string> covered = without_handle;
  for (const Case& c : cases()) covered.push_back(c.name);
  // Every cl* symbol of the library must be in the list, so a new entry point cannot go unchecked.
  std::ifstream icd(std::string(STROBE_OPENCL_VENDORS_DIR) + "/strobe.icd");
  std::string path;
  std::getline(icd, path);
  const std::string cmd = "nm -D --defined-only '" + path + "' | awk '{print $3}' | grep '^cl'";
  FILE* nm = popen(cmd.c_str(), "r");
  ASSERT_NE(nm, nullptr);
  char line[256];
  size_t exported = 0;
  while (fgets(line, sizeof line, nm)) {
    std::string name(line);
    name.erase(name.find_last_not_of("\n\r ") + 1);
    ++exported;
    EXPECT_NE(std::find(covered.begin(), covered.end(), name), covered.end()) << name << " has no case";
  }
  pclose(nm);
  EXPECT_GT(exported, 80u);
}

TEST(EntryPoints, EntryPointsWithoutAHandleRefuseBadArguments) {
  ASSERT_NE(library(), nullptr) << dlerror();
  EXPECT_EQ(CL(clGetPlatformIDs)(0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(entry<decltype(::clGetPlatformIDs)>("clIcdGetPlatformIDsKHR")(0, nullptr, nullptr), CL_INVALID_VALUE);
  char name[64];
  EXPECT_EQ(CL(clGetPlatformInfo)(reinterpret_cast<cl_platform_id>(uintptr_t(0x1234)), CL_PLATFORM_NAME, sizeof name,
                                  name, nullptr),
            CL_INVALID_PLATFORM);
  cl_int e = CL_SUCCESS;
  const cl_context_properties props[] = {CL_CONTEXT_PLATFORM, cl_context_properties(0x1234), 0};
  EXPECT_EQ(CL(clCreateContextFromType)(props, CL_DEVICE_TYPE_ALL, nullptr, nullptr, &e), nullptr);
  EXPECT_EQ(e, CL_INVALID_PLATFORM);
  EXPECT_EQ(CL(clGetExtensionFunctionAddress)("clNoSuchFunction"), nullptr);
  EXPECT_EQ(CL(clGetExtensionFunctionAddressForPlatform)(reinterpret_cast<cl_platform_id>(uintptr_t(0x1234)),
                                                        "clIcdGetPlatformIDsKHR"),
            nullptr);
  EXPECT_EQ(CL(clUnloadCompiler)(), CL_SUCCESS);
}

}  // namespace
}  // namespace strobe::opencl_test
