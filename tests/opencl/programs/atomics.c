/* Global and local atomics: a histogram with atomic_inc, a per-group local histogram merged
 * with atomic_add, atomic_min/max, a compare-and-swap counter and atomic_xchg. */
#include "cl_util.h"

static const char* kSource =
    "__kernel void hist_global(__global const uint* in, __global uint* bins) {\n"
    "  atomic_inc(&bins[in[get_global_id(0)] % 64]);\n"
    "}\n"
    "__kernel void hist_local(__global const uint* in, __global uint* bins) {\n"
    "  __local uint lb[64];\n"
    "  uint lid = get_local_id(0);\n"
    "  if (lid < 64) lb[lid] = 0;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  atomic_add(&lb[in[get_global_id(0)] % 64], 1u);\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  if (lid < 64) atomic_add(&bins[lid], lb[lid]);\n"
    "}\n"
    "__kernel void extremes(__global const int* in, __global int* out) {\n"
    "  int v = in[get_global_id(0)];\n"
    "  atomic_min(&out[0], v);\n"
    "  atomic_max(&out[1], v);\n"
    "  atomic_xor(&out[2], v);\n"
    "  atomic_or(&out[3], v & 0xff);\n"
    "}\n"
    "__kernel void cas_counter(__global int* counter, __global int* tickets) {\n"
    "  int old, seen;\n"
    "  old = *counter;\n"
    "  do { seen = old; old = atomic_cmpxchg(counter, seen, seen + 1); } while (old != seen);\n"
    "  tickets[get_global_id(0)] = seen;\n"
    "}\n"
    "__kernel void swap_last(__global int* slot, __global int* previous) {\n"
    "  previous[get_global_id(0)] = atomic_xchg(slot, (int)get_global_id(0));\n"
    "}\n";

int main(void) {
  cl_env env = cl_setup(0);
  cl_program prog = cl_build(&env, kSource, NULL);
  enum { N = 16384 };
  static cl_uint in[N], bins_g[64], bins_l[64], expect[64];
  for (int i = 0; i < N; ++i) {
    in[i] = (cl_uint)(i * 2654435761u) >> 9;
    expect[in[i] % 64]++;
  }
  cl_mem min = cl_buffer(&env, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in);
  cl_mem mbins = cl_buffer(&env, CL_MEM_READ_WRITE, sizeof bins_g, NULL);
  cl_uint zero = 0;
  size_t global = N, local = 128;
  const char* names[2] = {"hist_global", "hist_local"};
  cl_uint* outs[2] = {bins_g, bins_l};
  for (int v = 0; v < 2; ++v) {
    CHECK(clEnqueueFillBuffer(env.queue, mbins, &zero, sizeof zero, 0, sizeof bins_g, 0, NULL, NULL));
    cl_kernel k = cl_kernel_of(prog, names[v]);
    CHECK(clSetKernelArg(k, 0, sizeof min, &min));
    CHECK(clSetKernelArg(k, 1, sizeof mbins, &mbins));
    CHECK(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(env.queue, mbins, CL_TRUE, 0, sizeof bins_g, outs[v], 0, NULL, NULL));
    CHECK(clReleaseKernel(k));
  }
  printf("histogram: global matches cpu=%d local matches cpu=%d bins[0..3]=%u %u %u %u\n",
         memcmp(bins_g, expect, sizeof expect) == 0, memcmp(bins_l, expect, sizeof expect) == 0, bins_g[0], bins_g[1],
         bins_g[2], bins_g[3]);

  int ext[4] = {1 << 30, -(1 << 30), 0, 0};
  cl_mem mext = cl_buffer(&env, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof ext, ext);
  cl_kernel ke = cl_kernel_of(prog, "extremes");
  CHECK(clSetKernelArg(ke, 0, sizeof min, &min));
  CHECK(clSetKernelArg(ke, 1, sizeof mext, &mext));
  CHECK(clEnqueueNDRangeKernel(env.queue, ke, 1, NULL, &global, &local, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(env.queue, mext, CL_TRUE, 0, sizeof ext, ext, 0, NULL, NULL));
  printf("extremes: min=%d max=%d xor=%d or=%d\n", ext[0], ext[1], ext[2], ext[3]);

  enum { T = 1024 };
  static int tickets[T];
  int counter = 0;
  cl_mem mcount = cl_buffer(&env, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof counter, &counter);
  cl_mem mtickets = cl_buffer(&env, CL_MEM_WRITE_ONLY, sizeof tickets, NULL);
  cl_kernel kc = cl_kernel_of(prog, "cas_counter");
  CHECK(clSetKernelArg(kc, 0, sizeof mcount, &mcount));
  CHECK(clSetKernelArg(kc, 1, sizeof mtickets, &mtickets));
  size_t gt = T, lt = 64;
  CHECK(clEnqueueNDRangeKernel(env.queue, kc, 1, NULL, &gt, &lt, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(env.queue, mcount, CL_TRUE, 0, sizeof counter, &counter, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(env.queue, mtickets, CL_TRUE, 0, sizeof tickets, tickets, 0, NULL, NULL));
  static int seen[T];
  int unique = 1;
  for (int i = 0; i < T; ++i) {
    if (tickets[i] < 0 || tickets[i] >= T || seen[tickets[i]]++) unique = 0;
  }
  printf("cas_counter: counter=%d tickets are a permutation=%d\n", counter, unique);

  int slot = -1;
  cl_mem mslot = cl_buffer(&env, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof slot, &slot);
  cl_kernel kx = cl_kernel_of(prog, "swap_last");
  CHECK(clSetKernelArg(kx, 0, sizeof mslot, &mslot));
  CHECK(clSetKernelArg(kx, 1, sizeof mtickets, &mtickets));
  CHECK(clEnqueueNDRangeKernel(env.queue, kx, 1, NULL, &gt, &lt, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(env.queue, mslot, CL_TRUE, 0, sizeof slot, &slot, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(env.queue, mtickets, CL_TRUE, 0, sizeof tickets, tickets, 0, NULL, NULL));
  /* Every value but the final one was swapped out exactly once, plus the initial -1. */
  static int swapped[T + 1];
  int chain_ok = 1;
  for (int i = 0; i < T; ++i) {
    if (tickets[i] < -1 || tickets[i] >= T || swapped[tickets[i] + 1]++) chain_ok = 0;
  }
  chain_ok &= swapped[slot + 1] == 0 && swapped[0] == 1;
  printf("atomic_xchg: every value swapped out once=%d\n", chain_ok);

  cl_mem mems[] = {min, mbins, mext, mcount, mtickets, mslot};
  for (size_t i = 0; i < sizeof mems / sizeof mems[0]; ++i) CHECK(clReleaseMemObject(mems[i]));
  CHECK(clReleaseKernel(ke));
  CHECK(clReleaseKernel(kc));
  CHECK(clReleaseKernel(kx));
  CHECK(clReleaseProgram(prog));
  cl_teardown(&env);
  printf("done\n");
  return 0;
}
