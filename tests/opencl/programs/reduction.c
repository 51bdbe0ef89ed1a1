/* A two-stage sum reduction: each work-group reduces into __local memory passed as a kernel
 * argument (clSetKernelArg with a NULL value), a second launch reduces the partial sums. Also a
 * min/max reduction with a static __local array. */
#include "cl_util.h"

static const char* kSource =
    "__kernel void reduce_sum(__global const int* in, __global int* out, __local int* scratch, uint n) {\n"
    "  uint lid = get_local_id(0), gid = get_global_id(0), size = get_local_size(0);\n"
    "  scratch[lid] = gid < n ? in[gid] : 0;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (uint s = size / 2; s > 0; s >>= 1) {\n"
    "    if (lid < s) scratch[lid] += scratch[lid + s];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  if (lid == 0) out[get_group_id(0)] = scratch[0];\n"
    "}\n"
    "__kernel void reduce_minmax(__global const int* in, __global int* out) {\n"
    "  __local int lo[128];\n"
    "  __local int hi[128];\n"
    "  uint lid = get_local_id(0);\n"
    "  lo[lid] = hi[lid] = in[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (uint s = 64; s > 0; s >>= 1) {\n"
    "    if (lid < s) { lo[lid] = min(lo[lid], lo[lid + s]); hi[lid] = max(hi[lid], hi[lid + s]); }\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  if (lid == 0) { out[2 * get_group_id(0)] = lo[0]; out[2 * get_group_id(0) + 1] = hi[0]; }\n"
    "}\n";

int main(void) {
  cl_env env = cl_setup(0);
  cl_program prog = cl_build(&env, kSource, NULL);
  enum { N = 64536, LOCAL = 256 }; /* 253 groups: stage two is one group of 256 */
  static int data[N];
  long long expect = 0;
  int emin = 1 << 30, emax = -(1 << 30);
  for (int i = 0; i < N; ++i) {
    data[i] = (int)((i * 2654435761u) % 2001) - 1000;
    expect += data[i];
  }
  size_t groups = (N + LOCAL - 1) / LOCAL;
  cl_mem min = cl_buffer(&env, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof data, data);
  cl_mem mpartial = cl_buffer(&env, CL_MEM_READ_WRITE, groups * sizeof(int), NULL);
  cl_mem mtotal = cl_buffer(&env, CL_MEM_READ_WRITE, sizeof(int), NULL);
  cl_kernel k = cl_kernel_of(prog, "reduce_sum");
  cl_uint n = N;
  CHECK(clSetKernelArg(k, 0, sizeof min, &min));
  CHECK(clSetKernelArg(k, 1, sizeof mpartial, &mpartial));
  CHECK(clSetKernelArg(k, 2, LOCAL * sizeof(int), NULL));
  CHECK(clSetKernelArg(k, 3, sizeof n, &n));
  size_t global = groups * LOCAL, local = LOCAL;
  CHECK(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &global, &local, 0, NULL, NULL));
  /* second stage: one group over the partial sums */
  cl_uint n2 = (cl_uint)groups;
  size_t local2 = 256, global2 = 256;
  CHECK(clSetKernelArg(k, 0, sizeof mpartial, &mpartial));
  CHECK(clSetKernelArg(k, 1, sizeof mtotal, &mtotal));
  CHECK(clSetKernelArg(k, 2, local2 * sizeof(int), NULL));
  CHECK(clSetKernelArg(k, 3, sizeof n2, &n2));
  CHECK(clEnqueueNDRangeKernel(env.queue, k, 1, NULL, &global2, &local2, 0, NULL, NULL));
  int total = 0, partial1 = 0;
  CHECK(clEnqueueReadBuffer(env.queue, mtotal, CL_TRUE, 0, sizeof(int), &total, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(env.queue, mpartial, CL_TRUE, sizeof(int), sizeof(int), &partial1, 0, NULL, NULL));
  printf("reduce_sum: n=%d groups=%d cpu=%lld gpu=%d partial[1]=%d\n", N, (int)groups, expect, total, partial1);

  /* min/max over 64 groups of 128 */
  enum { M = 8192 };
  size_t gm = M, lm = 128;
  static int mm[2 * M / 128];
  for (int i = 0; i < M; ++i) {
    if (data[i] < emin) emin = data[i];
    if (data[i] > emax) emax = data[i];
  }
  cl_mem mout = cl_buffer(&env, CL_MEM_WRITE_ONLY, sizeof mm, NULL);
  cl_kernel km = cl_kernel_of(prog, "reduce_minmax");
  CHECK(clSetKernelArg(km, 0, sizeof min, &min));
  CHECK(clSetKernelArg(km, 1, sizeof mout, &mout));
  CHECK(clEnqueueNDRangeKernel(env.queue, km, 1, NULL, &gm, &lm, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(env.queue, mout, CL_TRUE, 0, sizeof mm, mm, 0, NULL, NULL));
  int gmin = mm[0], gmax = mm[1];
  for (int g = 1; g < M / 128; ++g) {
    if (mm[2 * g] < gmin) gmin = mm[2 * g];
    if (mm[2 * g + 1] > gmax) gmax = mm[2 * g + 1];
  }
  printf("reduce_minmax: min=%d (cpu %d) max=%d (cpu %d) fingerprint=%016llx\n", gmin, emin, gmax, emax,
         fingerprint(mm, sizeof mm));
  CHECK(clReleaseMemObject(min));
  CHECK(clReleaseMemObject(mpartial));
  CHECK(clReleaseMemObject(mtotal));
  CHECK(clReleaseMemObject(mout));
  CHECK(clReleaseKernel(k));
  CHECK(clReleaseKernel(km));
  CHECK(clReleaseProgram(prog));
  cl_teardown(&env);
  printf("done\n");
  return 0;
}
