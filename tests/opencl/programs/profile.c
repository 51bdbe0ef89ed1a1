/* Profiling: runs one kernel twice on a profiling queue and prints how long each ran and
 * whether the second started after the first ended. Under strobe's timing mode the durations
 * are simulated GPU time. */
#include "cl_util.h"

static const char* kSource =
    "__kernel void work(__global float* v, int rounds) {\n"
    "  float x = v[get_global_id(0)];\n"
    "  for (int r = 0; r < rounds; ++r) x = x * 0.999f + 1.0f;\n"
    "  v[get_global_id(0)] = x;\n"
    "}\n";

int main(int argc, char** argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 16;
  cl_env env = cl_setup(CL_QUEUE_PROFILING_ENABLE);
  cl_program prog = cl_build(&env, kSource, NULL);
  cl_kernel k = cl_kernel_of(prog, "work");
  enum { N = 4096 };
  cl_mem mv = cl_buffer(&env, CL_MEM_READ_WRITE, N * sizeof(float), NULL);
  CHECK(clSetKernelArg(k, 0, sizeof mv, &mv));
  CHECK(clSetKernelArg(k, 1, sizeof rounds, &rounds));
  size_t global = N, local = 256;
  cl_event ev[2];
  for (int i = 0; i < 2; ++i) CHECK(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &global, &local, 0, NULL, &ev[i]));
  CHECK(clFinish(env.queue));
  cl_ulong start[2], end[2];
  for (int i = 0; i < 2; ++i) {
    CHECK(clGetEventProfilingInfo(ev[i], CL_PROFILING_COMMAND_START, sizeof start[i], &start[i], NULL));
    CHECK(clGetEventProfilingInfo(ev[i], CL_PROFILING_COMMAND_END, sizeof end[i], &end[i], NULL));
    CHECK(clReleaseEvent(ev[i]));
  }
  printf("kernel ns: %llu %llu\n", (unsigned long long)(end[0] - start[0]), (unsigned long long)(end[1] - start[1]));
  printf("start ns: %llu %llu\n", (unsigned long long)start[0], (unsigned long long)start[1]);
  printf("second starts after first ends: %d\n", start[1] >= end[0]);
  CHECK(clReleaseMemObject(mv));
  CHECK(clReleaseKernel(k));
  CHECK(clReleaseProgram(prog));
  cl_teardown(&env);
  return 0;
}
