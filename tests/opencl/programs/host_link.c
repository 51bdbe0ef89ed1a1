/* The host link: copies, maps, a device-local copy and a kernel on a profiling queue, then two
 * copies in opposite directions and two in the same direction on an out-of-order queue. Prints
 * each command's queued, submit, start and end times, one line each ("NAME Q S START END"), and
 * checks the data that crossed. Under strobe's timing mode the times are the simulated
 * timeline's. */
#include "cl_util.h"

static const char* kSource =
    "__kernel void twice(__global float* v) { v[get_global_id(0)] *= 2.0f; }\n";

static void times(const char* name, cl_event e) {
  cl_ulong t[4];
  const cl_profiling_info what[4] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                     CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};
  for (int i = 0; i < 4; ++i) CHECK(clGetEventProfilingInfo(e, what[i], sizeof t[i], &t[i], NULL));
  printf("%s %llu %llu %llu %llu\n", name, (unsigned long long)t[0], (unsigned long long)t[1],
         (unsigned long long)t[2], (unsigned long long)t[3]);
  CHECK(clReleaseEvent(e));
}

int main(void) {
  enum { N = 1 << 18, BYTES = N * sizeof(float) }; /* 1 MiB */
  cl_env env = cl_setup(CL_QUEUE_PROFILING_ENABLE);
  cl_program prog = cl_build(&env, kSource, NULL);
  cl_kernel k = cl_kernel_of(prog, "twice");
  float* host = (float*)malloc(BYTES);
  float* back = (float*)malloc(BYTES);
  for (int i = 0; i < N; ++i) host[i] = (float)i;
  cl_mem dev = cl_buffer(&env, CL_MEM_READ_WRITE, BYTES, NULL);
  cl_mem copy = cl_buffer(&env, CL_MEM_READ_WRITE, BYTES, NULL);
  cl_mem pinned = cl_buffer(&env, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, BYTES, NULL);
  cl_event e;

  CHECK(clEnqueueWriteBuffer(env.queue, dev, CL_TRUE, 0, BYTES, host, 0, NULL, &e));
  times("write", e);
  CHECK(clSetKernelArg(k, 0, sizeof dev, &dev));
  size_t global = N, local = 256;
  CHECK(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &global, &local, 0, NULL, &e));
  CHECK(clFinish(env.queue));
  times("kernel", e);
  CHECK(clEnqueueReadBuffer(env.queue, dev, CL_TRUE, 0, BYTES, back, 0, NULL, &e));
  times("read", e);
  int ok = 1;
  for (int i = 0; i < N; ++i) ok &= back[i] == 2.0f * (float)i;

  CHECK(clEnqueueCopyBuffer(env.queue, dev, copy, 0, 0, BYTES, 0, NULL, &e));
  CHECK(clFinish(env.queue));
  times("copy", e);
  cl_int err;
  float* m = (float*)clEnqueueMapBuffer(env.queue, copy, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, BYTES, 0, NULL, &e, &err);
  CHECK_ERR(err);
  times("map", e);
  for (int i = 0; i < N; ++i) ok &= m[i] == 2.0f * (float)i;
  m[0] = -1.0f;
  CHECK(clEnqueueUnmapMemObject(env.queue, copy, m, 0, NULL, &e));
  CHECK(clFinish(env.queue));
  times("unmap", e);
  float first = 0;
  CHECK(clEnqueueReadBuffer(env.queue, copy, CL_TRUE, 0, sizeof first, &first, 0, NULL, NULL));
  ok &= first == -1.0f;
  m = (float*)clEnqueueMapBuffer(env.queue, pinned, CL_TRUE, CL_MAP_WRITE, 0, BYTES, 0, NULL, &e, &err);
  CHECK_ERR(err);
  times("pinned-map", e);
  CHECK(clEnqueueUnmapMemObject(env.queue, pinned, m, 0, NULL, &e));
  CHECK(clFinish(env.queue));
  times("pinned-unmap", e);

  /* Out of order: a write and a read overlap (one engine per direction); two writes do not. */
  cl_command_queue ooo = clCreateCommandQueue(env.context, env.device,
                                              CL_QUEUE_PROFILING_ENABLE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
  CHECK_ERR(err);
  cl_event w1, r1, w2;
  CHECK(clEnqueueWriteBuffer(ooo, copy, CL_FALSE, 0, BYTES, host, 0, NULL, &w1));
  CHECK(clEnqueueReadBuffer(ooo, dev, CL_FALSE, 0, BYTES, back, 0, NULL, &r1));
  CHECK(clEnqueueWriteBuffer(ooo, pinned, CL_FALSE, 0, BYTES, host, 0, NULL, &w2));
  CHECK(clFinish(ooo));
  times("ooo-write", w1);
  times("ooo-read", r1);
  times("ooo-write2", w2);
  printf("data ok: %d\n", ok);

  CHECK(clReleaseCommandQueue(ooo));
  CHECK(clReleaseMemObject(dev));
  CHECK(clReleaseMemObject(copy));
  CHECK(clReleaseMemObject(pinned));
  CHECK(clReleaseKernel(k));
  CHECK(clReleaseProgram(prog));
  cl_teardown(&env);
  free(host);
  free(back);
  return ok ? 0 : 1;
}
