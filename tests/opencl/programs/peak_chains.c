/* Peak issue rates the way clpeak measures them, on a grid small enough for full detail: each
 * work-item runs a dependent chain of 2048 multiply-adds (x = y*x + y; y = x*y + x; ...) in
 * float, double and int, and the rate is the work over the kernel's profiled time. Used by
 * scripts/validate-clpeak to check, in full detail, the rates its sampled clpeak run reports.
 *   peak_chains [WORK_ITEMS]   (default 524288, a multiple of 256) */
#include "cl_util.h"

#define CHAIN(T)                                                                  \
  "__kernel void chain_" #T "(__global " #T "* out, " #T " a) {\n"                \
  "  " #T " x = a, y = (" #T ")get_local_id(0);\n"                                \
  "  for (int i = 0; i < 256; ++i) {\n"                                           \
  "    x = y * x + y; y = x * y + x; x = y * x + y; y = x * y + x;\n"             \
  "    x = y * x + y; y = x * y + x; x = y * x + y; y = x * y + x;\n"             \
  "  }\n"                                                                         \
  "  out[get_global_id(0)] = y;\n"                                                \
  "}\n"

static const char* kSource = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" CHAIN(float) CHAIN(double) CHAIN(int);

int main(int argc, char** argv) {
  size_t global = argc > 1 ? strtoul(argv[1], NULL, 10) : 524288, local = 256;
  if (global == 0 || global % local != 0) {
    fprintf(stderr, "peak_chains: WORK_ITEMS must be a positive multiple of %zu\n", local);
    return 2;
  }
  cl_env env = cl_setup(CL_QUEUE_PROFILING_ENABLE);
  cl_program prog = cl_build(&env, kSource, NULL);
  cl_mem out = cl_buffer(&env, CL_MEM_READ_WRITE, global * sizeof(double), NULL);
  const char* names[] = {"chain_float", "chain_double", "chain_int"};
  const char* units[] = {"GFLOPS", "GFLOPS", "GIOPS"};
  for (int i = 0; i < 3; ++i) {
    cl_kernel k = cl_kernel_of(prog, names[i]);
    float f = 1.3f;
    double d = 1.3;
    int n = 3;
    CHECK(clSetKernelArg(k, 0, sizeof out, &out));
    if (i == 0) CHECK(clSetKernelArg(k, 1, sizeof f, &f));
    if (i == 1) CHECK(clSetKernelArg(k, 1, sizeof d, &d));
    if (i == 2) CHECK(clSetKernelArg(k, 1, sizeof n, &n));
    cl_event ev;
    CHECK(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &global, &local, 0, NULL, &ev));
    CHECK(clWaitForEvents(1, &ev));
    cl_ulong start, end;
    CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL));
    CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL));
    /* 2048 multiply-adds of two operations each per work-item */
    printf("%s: %.2f %s\n", names[i], 4096.0 * (double)global / (double)(end - start), units[i]);
    CHECK(clReleaseEvent(ev));
    CHECK(clReleaseKernel(k));
  }
  CHECK(clReleaseMemObject(out));
  CHECK(clReleaseProgram(prog));
  cl_teardown(&env);
  return 0;
}
