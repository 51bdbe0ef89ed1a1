/* Shared helpers of the OpenCL test programs: standard OpenCL 1.2 host code that runs on any
 * platform. The platform is the first one the ICD loader lists, or the first whose name
 * contains $CL_TEST_PLATFORM. */
#ifndef CL_UTIL_H
#define CL_UTIL_H

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline const char* cl_err(cl_int e) {
  switch (e) {
#define E(x) case x: return #x;
    E(CL_SUCCESS) E(CL_DEVICE_NOT_FOUND) E(CL_OUT_OF_RESOURCES) E(CL_OUT_OF_HOST_MEMORY)
    E(CL_BUILD_PROGRAM_FAILURE) E(CL_INVALID_VALUE) E(CL_INVALID_OPERATION) E(CL_INVALID_MEM_OBJECT)
    E(CL_INVALID_KERNEL_ARGS) E(CL_INVALID_WORK_GROUP_SIZE) E(CL_INVALID_CONTEXT) E(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    E(CL_IMAGE_FORMAT_NOT_SUPPORTED) E(CL_INVALID_IMAGE_SIZE) E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    E(CL_INVALID_KERNEL_NAME) E(CL_INVALID_PROGRAM_EXECUTABLE) E(CL_INVALID_EVENT) E(CL_PROFILING_INFO_NOT_AVAILABLE)
    E(CL_INVALID_BUFFER_SIZE) E(CL_INVALID_HOST_PTR) E(CL_MEM_COPY_OVERLAP) E(CL_INVALID_BINARY)
#undef E
    default: return "CL_<other>";
  }
}

#define CHECK(call)                                                                          \
  do {                                                                                       \
    cl_int check_err_ = (call);                                                              \
    if (check_err_ != CL_SUCCESS) {                                                          \
      fprintf(stderr, "%s:%d: %s failed: %s (%d)\n", __FILE__, __LINE__, #call,              \
              cl_err(check_err_), check_err_);                                               \
      exit(1);                                                                               \
    }                                                                                        \
  } while (0)

#define CHECK_ERR(err) CHECK(err)

/* The chosen platform and its first device, a context and a queue with `props`. */
typedef struct {
  cl_platform_id platform;
  cl_device_id device;
  cl_context context;
  cl_command_queue queue;
} cl_env;

static inline cl_env cl_setup(cl_command_queue_properties props) {
  cl_env env;
  cl_uint n = 0;
  CHECK(clGetPlatformIDs(0, NULL, &n));
  cl_platform_id* ps = (cl_platform_id*)malloc(n * sizeof *ps);
  CHECK(clGetPlatformIDs(n, ps, NULL));
  const char* want = getenv("CL_TEST_PLATFORM");
  env.platform = ps[0];
  for (cl_uint i = 0; want && i < n; ++i) {
    char name[256];
    CHECK(clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof name, name, NULL));
    if (strstr(name, want)) { env.platform = ps[i]; break; }
  }
  free(ps);
  CHECK(clGetDeviceIDs(env.platform, CL_DEVICE_TYPE_ALL, 1, &env.device, NULL));
  cl_int err;
  env.context = clCreateContext(NULL, 1, &env.device, NULL, NULL, &err);
  CHECK_ERR(err);
  env.queue = clCreateCommandQueue(env.context, env.device, props, &err);
  CHECK_ERR(err);
  return env;
}

static inline void cl_teardown(cl_env* env) {
  CHECK(clReleaseCommandQueue(env->queue));
  CHECK(clReleaseContext(env->context));
}

/* Builds `src`; on failure prints the build log and exits. */
static inline cl_program cl_build(cl_env* env, const char* src, const char* options) {
  cl_int err;
  cl_program p = clCreateProgramWithSource(env->context, 1, &src, NULL, &err);
  CHECK_ERR(err);
  err = clBuildProgram(p, 1, &env->device, options, NULL, NULL);
  if (err != CL_SUCCESS) {
    size_t n = 0;
    clGetProgramBuildInfo(p, env->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
    char* log = (char*)malloc(n + 1);
    clGetProgramBuildInfo(p, env->device, CL_PROGRAM_BUILD_LOG, n, log, NULL);
    log[n] = 0;
    fprintf(stderr, "build failed (%s):\n%s\n", cl_err(err), log);
    exit(1);
  }
  return p;
}

static inline cl_kernel cl_kernel_of(cl_program p, const char* name) {
  cl_int err;
  cl_kernel k = clCreateKernel(p, name, &err);
  CHECK_ERR(err);
  return k;
}

static inline cl_mem cl_buffer(cl_env* env, cl_mem_flags flags, size_t size, void* host) {
  cl_int err;
  cl_mem m = clCreateBuffer(env->context, flags, size, host, &err);
  CHECK_ERR(err);
  return m;
}

/* FNV-1a over bytes: a compact fingerprint of a result buffer. */
static inline unsigned long long fingerprint(const void* data, size_t n) {
  const unsigned char* p = (const unsigned char*)data;
  unsigned long long h = 1469598103934665603ull;
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

#endif
