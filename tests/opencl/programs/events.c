/* Events: user events gating commands, callbacks, wait lists, profiling timestamps, markers
 * and barriers on an out-of-order queue, failure propagation through a wait list. */
#include <time.h>

#include "cl_util.h"

static const char* kSource =
    "__kernel void add_one(__global int* v) { v[get_global_id(0)] += 1; }\n"
    "__kernel void twice(__global const int* in, __global int* out) {\n"
    "  out[get_global_id(0)] = 2 * in[get_global_id(0)];\n"
    "}\n";

static volatile int g_callbacks = 0;
static volatile cl_int g_callback_status = 99;

static void CL_CALLBACK on_complete(cl_event e, cl_int status, void* data) {
  (void)e;
  g_callback_status = status;
  __atomic_add_fetch((int*)data, 1, __ATOMIC_SEQ_CST);
}

/* Callbacks may run on another thread after the command finished: give them a moment. */
static void wait_for_callbacks(volatile int* counter, int want) {
  for (int i = 0; i < 500 && __atomic_load_n(counter, __ATOMIC_SEQ_CST) < want; ++i) {
    struct timespec ts = {0, 10 * 1000 * 1000};
    nanosleep(&ts, NULL);
  }
}

static cl_int status_of(cl_event e) {
  cl_int s;
  CHECK(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL));
  return s;
}

int main(void) {
  cl_env env = cl_setup(CL_QUEUE_PROFILING_ENABLE);
  cl_program prog = cl_build(&env, kSource, NULL);
  cl_kernel add_one = cl_kernel_of(prog, "add_one");
  cl_kernel twice = cl_kernel_of(prog, "twice");
  enum { N = 256 };
  int host[N], out[N];
  for (int i = 0; i < N; ++i) host[i] = i;
  cl_mem mv = cl_buffer(&env, CL_MEM_READ_WRITE, sizeof host, NULL);
  cl_mem mo = cl_buffer(&env, CL_MEM_READ_WRITE, sizeof host, NULL);
  cl_int err;

  /* A user event holds back a write and the kernel queued after it. */
  cl_event gate = clCreateUserEvent(env.context, &err);
  CHECK_ERR(err);
  cl_event write_ev, kernel_ev;
  CHECK(clEnqueueWriteBuffer(env.queue, mv, CL_FALSE, 0, sizeof host, host, 1, &gate, &write_ev));
  CHECK(clSetKernelArg(add_one, 0, sizeof mv, &mv));
  size_t global = N, local = 64;
  CHECK(clEnqueueNDRangeKernel(env.queue, add_one, 1, NULL, &global, &local, 1, &write_ev, &kernel_ev));
  CHECK(clSetEventCallback(kernel_ev, CL_COMPLETE, on_complete, (void*)&g_callbacks));
  CHECK(clFlush(env.queue));
  printf("gated: write pending=%d kernel pending=%d callbacks so far=%d\n", status_of(write_ev) > CL_COMPLETE,
         status_of(kernel_ev) > CL_COMPLETE, g_callbacks);
  CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK(clWaitForEvents(1, &kernel_ev));
  wait_for_callbacks(&g_callbacks, 1);
  CHECK(clEnqueueReadBuffer(env.queue, mv, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
  printf("released: write=%d kernel=%d out[0]=%d out[255]=%d callbacks=%d callback status=%d\n", status_of(write_ev),
         status_of(kernel_ev), out[0], out[255], g_callbacks, g_callback_status);

  /* Profiling timestamps are ordered. */
  cl_ulong t[4];
  cl_profiling_info what[4] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT, CL_PROFILING_COMMAND_START,
                               CL_PROFILING_COMMAND_END};
  for (int i = 0; i < 4; ++i) CHECK(clGetEventProfilingInfo(kernel_ev, what[i], sizeof t[i], &t[i], NULL));
  printf("profiling: queued<=submit<=start<=end %d\n", t[0] <= t[1] && t[1] <= t[2] && t[2] <= t[3]);
  cl_command_type type;
  CHECK(clGetEventInfo(kernel_ev, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
  cl_context ctx;
  CHECK(clGetEventInfo(gate, CL_EVENT_CONTEXT, sizeof ctx, &ctx, NULL));
  cl_command_type gate_type;
  CHECK(clGetEventInfo(gate, CL_EVENT_COMMAND_TYPE, sizeof gate_type, &gate_type, NULL));
  printf("event info: kernel type is NDRANGE=%d user event type is USER=%d context matches=%d\n",
         type == CL_COMMAND_NDRANGE_KERNEL, gate_type == CL_COMMAND_USER, ctx == env.context);
  CHECK(clReleaseEvent(write_ev));
  CHECK(clReleaseEvent(kernel_ev));
  CHECK(clReleaseEvent(gate));

  /* A failed user event fails the command that waits for it. */
  cl_event bad = clCreateUserEvent(env.context, &err);
  CHECK_ERR(err);
  cl_event victim;
  CHECK(clEnqueueNDRangeKernel(env.queue, add_one, 1, NULL, &global, &local, 1, &bad, &victim));
  CHECK(clSetUserEventStatus(bad, -1));
  cl_int wait_rc = clWaitForEvents(1, &victim);
  printf("failed dependency: wait returned error=%d victim status negative=%d\n", wait_rc != CL_SUCCESS,
         status_of(victim) < 0);
  CHECK(clReleaseEvent(victim));
  CHECK(clReleaseEvent(bad));
  CHECK(clFinish(env.queue));

  /* Out-of-order queue: a barrier orders the producer before the consumer; a marker waits for both. */
  cl_command_queue ooo = clCreateCommandQueue(env.context, env.device, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
  CHECK_ERR(err);
  CHECK(clEnqueueWriteBuffer(ooo, mv, CL_TRUE, 0, sizeof host, host, 0, NULL, NULL));
  CHECK(clEnqueueNDRangeKernel(ooo, add_one, 1, NULL, &global, &local, 0, NULL, NULL));
  CHECK(clEnqueueBarrierWithWaitList(ooo, 0, NULL, NULL));
  CHECK(clSetKernelArg(twice, 0, sizeof mv, &mv));
  CHECK(clSetKernelArg(twice, 1, sizeof mo, &mo));
  cl_event consumer, marker;
  CHECK(clEnqueueNDRangeKernel(ooo, twice, 1, NULL, &global, &local, 0, NULL, &consumer));
  CHECK(clEnqueueMarkerWithWaitList(ooo, 1, &consumer, &marker));
  CHECK(clWaitForEvents(1, &marker));
  CHECK(clEnqueueReadBuffer(ooo, mo, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
  printf("out-of-order: out[0]=%d out[10]=%d out[255]=%d marker complete=%d\n", out[0], out[10], out[255],
         status_of(marker) == CL_COMPLETE);
  CHECK(clReleaseEvent(consumer));
  CHECK(clReleaseEvent(marker));
  CHECK(clReleaseCommandQueue(ooo));

  CHECK(clReleaseMemObject(mv));
  CHECK(clReleaseMemObject(mo));
  CHECK(clReleaseKernel(add_one));
  CHECK(clReleaseKernel(twice));
  CHECK(clReleaseProgram(prog));
  cl_teardown(&env);
  printf("done\n");
  return 0;
}
